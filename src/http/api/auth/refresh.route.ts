// POST /api/auth/refresh {refreshToken} → {accessToken, refreshToken} (D2): rotation with reuse
// detection; a reused refresh token revokes its whole session.
import { z } from 'zod';
import { refresh } from '../../../app/identity/auth.ts';
import { metaOf } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { tokens } from './schemas.ts';
import { loginRateLimit, setAccessCookie } from './login.route.ts';

const body = z.strictObject({ refreshToken: z.string().min(1).max(4096) });

const route: RouteModule = (app, s) =>
  app.post('/api/auth/refresh', { schema: { body, response: { 200: envelope(tokens) } }, onRequest: loginRateLimit(s) }, async (req, reply) => {
    const t = await refresh(s, req.body.refreshToken, metaOf(req));
    setAccessCookie(reply, t.accessToken);
    return ok(t);
  });
export default route;

// POST /api/auth/refresh {refreshToken} → {accessToken, refreshToken} (D2): rotation with reuse
// detection; a reused refresh token revokes its whole session. Without a refreshToken in the body
// the web app's httpOnly refresh cookie is used (D13), under the same-origin check of any
// cookie-authenticated write; the new pair is set in the cookies either way.
import { refresh } from '../../../app/identity/index.ts';
import { appError } from '../../../core/errors.ts';
import { REFRESH_COOKIE, assertSameOrigin, metaOf, setSessionCookies } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { refreshBody, tokens } from './schemas.ts';
import { loginRateLimit } from './login.route.ts';

const route: RouteModule = (app, s) =>
  app.post('/api/auth/refresh', { schema: { body: refreshBody, response: { 200: envelope(tokens) } }, onRequest: loginRateLimit(s) }, async (req, reply) => {
    let token = req.body?.refreshToken;
    if (!token) {
      token = req.cookies?.[REFRESH_COOKIE];
      if (!token) throw appError('unauthenticated', 'No refresh token: send {refreshToken} or sign in again');
      assertSameOrigin(s, req);
    }
    const t = await refresh(s, token, metaOf(req));
    setSessionCookies(s, req, reply, t);
    return ok(t);
  });
export default route;

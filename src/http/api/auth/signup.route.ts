// POST /api/auth/signup (D2): a tenant, its owner, its wallet and a default project in one go.
import { z } from 'zod';
import { signup } from '../../../app/identity/auth.ts';
import { metaOf } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { email, loginResult, password } from './schemas.ts';
import { loginRateLimit, setAccessCookie } from './login.route.ts';

const body = z.strictObject({
  email,
  password,
  name: z.string().trim().min(1).max(120),
  tenantName: z.string().trim().min(1).max(120),
});

const route: RouteModule = (app, s) =>
  app.post('/api/auth/signup', { schema: { body, response: { 201: envelope(loginResult) } }, onRequest: loginRateLimit(s) }, async (req, reply) => {
    const result = await signup(s, req.body, metaOf(req));
    setAccessCookie(reply, result.tokens.accessToken);
    return reply.status(201).send(ok(result));
  });
export default route;

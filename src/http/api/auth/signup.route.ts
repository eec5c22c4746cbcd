// POST /api/auth/signup (D2): a tenant, its owner, its wallet and a default project in one go.
import { signup } from '../../../app/identity/index.ts';
import { metaOf, setSessionCookies } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { loginResult, signupBody } from './schemas.ts';
import { loginRateLimit } from './login.route.ts';

const route: RouteModule = (app, s) =>
  app.post('/api/auth/signup', { schema: { body: signupBody, response: { 201: envelope(loginResult) } }, onRequest: loginRateLimit(s) }, async (req, reply) => {
    const result = await signup(s, req.body, metaOf(req));
    setSessionCookies(s, req, reply, result.tokens);
    return reply.status(201).send(ok(result));
  });
export default route;

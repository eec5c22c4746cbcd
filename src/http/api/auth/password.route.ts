// POST /api/auth/password/forgot {email} (always 200, D13) and POST /api/auth/password/reset
// {token, password} (single-use link; every session of the user ends). Both share the per-address
// sign-in limit, so neither can be used to flood a mailbox or guess link tokens.
import { requestPasswordReset, resetPassword } from '../../../app/identity/index.ts';
import { metaOf } from '../../plugins/auth.ts';
import { emptyData, ok, type RouteModule } from '../common.ts';
import { forgotPasswordBody, resetPasswordBody } from './schemas.ts';
import { loginRateLimit } from './login.route.ts';

const route: RouteModule = (app, s) => {
  app.post('/api/auth/password/forgot', { schema: { body: forgotPasswordBody, response: { 200: emptyData } }, onRequest: loginRateLimit(s) }, async (req) => {
    requestPasswordReset(s, req.body.email, metaOf(req));
    return ok({});
  });
  app.post('/api/auth/password/reset', { schema: { body: resetPasswordBody, response: { 200: emptyData } }, onRequest: loginRateLimit(s) }, async (req) => {
    await resetPassword(s, req.body.token, req.body.password, metaOf(req));
    return ok({});
  });
};
export default route;

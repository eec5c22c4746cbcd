// POST /api/users/me/password {currentPassword, newPassword} (D13): every other session of the user
// ends; the one that made the change stays signed in. Wrong current passwords count toward the
// account lockout like failed logins.
import { changePassword } from '../../../app/identity/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { loginRateLimit } from '../auth/login.route.ts';
import { emptyData, ok, type RouteModule } from '../common.ts';
import { passwordChangeBody } from './schemas.ts';

const route: RouteModule = (app, s) =>
  app.post(
    '/api/users/me/password',
    { schema: { body: passwordChangeBody, response: { 200: emptyData } }, onRequest: [requireAuth(s), loginRateLimit(s)] },
    async (req) => {
      await changePassword(s, authOf(req), req.body, metaOf(req));
      return ok({});
    },
  );
export default route;

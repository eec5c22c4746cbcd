// POST /api/auth/logout: ends the current session; its refresh token dies with it, and both
// session cookies are cleared.
import { logout } from '../../../app/identity/index.ts';
import { authOf, clearSessionCookies, metaOf, requireAuth } from '../../plugins/auth.ts';
import { emptyData, ok, type RouteModule } from '../common.ts';

const route: RouteModule = (app, s) =>
  app.post('/api/auth/logout', { schema: { response: { 200: emptyData } }, onRequest: requireAuth(s) }, async (req, reply) => {
    await logout(s, authOf(req), metaOf(req));
    clearSessionCookies(s, req, reply);
    return ok({});
  });
export default route;

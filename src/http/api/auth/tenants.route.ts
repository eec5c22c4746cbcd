// GET /api/auth/tenants (the signed-in user's memberships) and POST /api/auth/switch {tenantId}
// (D13): a new token pair for another membership, in the same session.
import { listMyTenants, switchTenant } from '../../../app/identity/index.ts';
import { authOf, metaOf, requireAuth, setSessionCookies } from '../../plugins/auth.ts';
import { pageList } from '../../../app/shared/index.ts';
import { envelope, ok, pageQuerySchema, type RouteModule } from '../common.ts';
import { switchBody, switchResult, tenantsList } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/auth/tenants', { schema: { querystring: pageQuerySchema, response: { 200: envelope(tenantsList) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(pageList(await listMyTenants(s, authOf(req)), req.query, (x) => ({ at: x.joinedAt, id: x.tenantId }), 'asc')),
  );
  app.post('/api/auth/switch', { schema: { body: switchBody, response: { 200: envelope(switchResult) } }, onRequest: requireAuth(s) }, async (req, reply) => {
    const r = await switchTenant(s, authOf(req), req.body.tenantId, metaOf(req));
    setSessionCookies(s, req, reply, r.tokens);
    return ok(r);
  });
};
export default route;

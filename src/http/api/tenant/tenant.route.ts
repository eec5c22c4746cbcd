// GET /api/tenant (any member) and PATCH /api/tenant {name} (admins and owners), D13.
import { getTenant, renameTenant } from '../../../app/identity/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { tenant, tenantPatch } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/tenant', { schema: { response: { 200: envelope(tenant) } }, onRequest: requireAuth(s) }, async (req) => ok(await getTenant(s, authOf(req))));
  app.patch('/api/tenant', { schema: { body: tenantPatch, response: { 200: envelope(tenant) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) =>
    ok(await renameTenant(s, authOf(req), req.body.name)),
  );
};
export default route;

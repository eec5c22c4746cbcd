// GET/PATCH /api/tenant/baseline: the tenant's benchmark provider (D7). Reading: any member;
// changing: admins and owners. A change applies to new calls only.
import { getBaseline, setBaseline } from '../../../app/money/index.ts';
import { baseline, baselinePatchBody as patchBody } from './schemas.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';


const route: RouteModule = (app, s) => {
  app.get('/api/tenant/baseline', { schema: { response: { 200: envelope(baseline) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await getBaseline(s.db, authOf(req).tenantId)),
  );
  app.patch(
    '/api/tenant/baseline',
    { schema: { body: patchBody, response: { 200: envelope(baseline) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req) => ok(await setBaseline(s, authOf(req).tenantId, req.body.providerKey)),
  );
};
export default route;

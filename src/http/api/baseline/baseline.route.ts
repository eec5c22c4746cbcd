// GET/PATCH /api/tenant/baseline: the tenant's benchmark provider (D7). Reading: any member;
// changing: admins and owners. A change applies to new calls only.
import { z } from 'zod';
import { getBaseline, setBaseline } from '../../../app/money/baseline.ts';
import { PROVIDER_KEYS } from '../../../core/providers.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

const baseline = z.object({ providerKey: z.enum(PROVIDER_KEYS).nullable(), brand: z.string().nullable() });
const patchBody = z.strictObject({ providerKey: z.enum(PROVIDER_KEYS, { message: `must be one of ${PROVIDER_KEYS.join(', ')}` }) });

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

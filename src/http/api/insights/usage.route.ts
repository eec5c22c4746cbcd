// GET /api/tenant/insights/usage: rollups per task family, per project and per hour (spec §4).
import { usageRollups } from '../../../app/insights/insights-views.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { usage } from './schemas.ts';

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/usage', { schema: { response: { 200: envelope(usage) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await usageRollups(s, authOf(req).tenantId)),
  );
export default route;

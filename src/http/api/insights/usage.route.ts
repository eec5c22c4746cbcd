// GET /api/tenant/insights/usage: rollups per task family, per project and per hour (spec §4).
import { usageRollups } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { usage, versioned, withVersion } from './schemas.ts';

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/usage', { schema: { response: { 200: envelope(versioned(usage)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(withVersion(await usageRollups(s, authOf(req).tenantId))),
  );
export default route;

// GET /api/tenant/insights/overview: every tile of /overview in one call (spec §4), the 30-day
// savings chart and the last 50 activity events, in customer copy (no model names).
import { overview as build } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { overview, versioned, withVersion } from './schemas.ts';

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/overview', { schema: { response: { 200: envelope(versioned(overview)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(withVersion(await build(s, authOf(req).tenantId))),
  );
export default route;

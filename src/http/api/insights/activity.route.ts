// GET /api/tenant/insights/activity?search=&projectId=&channel=&limit=: the analytics activity
// feed with its free-text search over prompt fragments, project names and model ids (spec §1
// /analytics; the delivery path may show here, D8). D9 pages: `&cursor=` takes the page's
// `nextCursor`, across call log, ledger and alerts.
import { z } from 'zod';
import { activity } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { activityList, versioned, withVersion } from './schemas.ts';

const query = z.strictObject({
  search: z.string().trim().min(1).max(200).optional(),
  projectId: z.uuid().optional(),
  channel: z.enum(['proxy', 'mcp', 'extension', 'bridge', 'copy-paste', 'advisory', 'wallet']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
});

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/activity', { schema: { querystring: query, response: { 200: envelope(versioned(z.object({ items: activityList, nextCursor: z.string().nullable() }))) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(withVersion(await activity(s, authOf(req).tenantId, req.query))),
  );
export default route;

// GET /api/advisory/imports/:id: the advisory report (D14 tier 6): progress while the worker runs,
// then totals, the breakdowns by task family and complexity, the malformed lines and a page of
// rows (`limit`, `cursor` = the last line of the previous page; `only=malformed` for just those).
import { z } from 'zod';
import { findImport, importReport } from '../../../app/connectors/index.ts';
import { withVersion } from '../insights/schemas.ts';
import { envelope, idParams, ok, type RouteModule } from '../common.ts';
import { report } from './schemas.ts';
import { requireUserOrKey, tenantOf, visible } from './access.ts';

const query = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  cursor: z.string().regex(/^\d{1,9}$/, 'must be the line number of the last row of the previous page').optional(),
  only: z.enum(['malformed']).optional(),
});

const route: RouteModule = (app, s) =>
  app.get(
    '/api/advisory/imports/:id',
    { schema: { params: idParams, querystring: query, response: { 200: envelope(report) } }, onRequest: requireUserOrKey(s, 'viewer') },
    async (req) => {
      const imp = visible(req, await findImport(s.db, tenantOf(req), req.params.id));
      const r = await importReport(s.db, imp, { after: Number(req.query.cursor ?? 0), limit: req.query.limit, malformedOnly: req.query.only === 'malformed' });
      return ok(withVersion(r));
    },
  );
export default route;

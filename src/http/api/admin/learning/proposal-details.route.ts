// A proposal's validation record (spec §4): its synthetic batches and cases, replay runs and
// results, gate history (both gates, every evaluation) and validation cost with its breakdown.
// Platform admins only; read-only.
import { batches, cases, costSummary, gateResults, getProposal, replay } from '../../../../app/learning/index.ts';
import { appError } from '../../../../core/errors.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { pageList } from '../../../../app/shared/index.ts';
import { idParams, ok, pageQuerySchema, type RouteModule } from '../../common.ts';
import { anyData, edge } from './schemas.ts';

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { platformAdmin: true });
  const exists = async (id: string) => {
    if (!(await getProposal(s.db, id, s.clock.now(), s.config.LEARNING_STALE_AFTER_HOURS))) throw appError('not_found', 'No proposal has this id');
  };
  const opts = { schema: { params: idParams, response: { 200: anyData } }, onRequest: admin };
  app.get('/api/admin/learning/proposals/:id/synthetic', opts, async (req) => {
    await exists(req.params.id);
    const [b, c] = await Promise.all([batches(s.db, req.params.id), cases(s.db, req.params.id)]);
    return ok(edge({ batches: b.map((x) => ({ ...x, cases: c.filter((k) => k.batchId === x.id) })) }));
  });
  app.get('/api/admin/learning/proposals/:id/replay', opts, async (req) => {
    await exists(req.params.id);
    return ok(edge({ runs: await replay(s.db, req.params.id) }));
  });
  app.get('/api/admin/learning/proposals/:id/gates', { ...opts, schema: { ...opts.schema, querystring: pageQuerySchema } }, async (req) => {
    await exists(req.params.id);
    // Gate history pages like every list (D9), newest first.
    return ok(edge(pageList(await gateResults(s.db, req.params.id), req.query, (g) => ({ at: g.evaluatedAt.toISOString(), id: g.id }), 'desc')));
  });
  app.get('/api/admin/learning/proposals/:id/cost', opts, async (req) => {
    await exists(req.params.id);
    return ok(edge(await costSummary(s.db, req.params.id)));
  });
};
export default route;

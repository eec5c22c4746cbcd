// GET /api/admin/learning/proposals and /proposals/:id (spec §4): minted proposals, filterable by
// status, priority and source signal, with D9 pagination; one proposal with all its gate-result
// rows, its cost summary and its synthetic batch summary. Platform admins only. Read-only: Phase 2
// has no verb that changes a proposal, and none exists here (lock 2, lock 3, lock 5).
import { batches, costSummary, gateResults, getProposal, listProposals } from '../../../../app/learning/index.ts';
import { appError } from '../../../../core/errors.ts';
import { requireAuth } from '../../../plugins/auth.ts';
import { idParams, ok, type RouteModule } from '../../common.ts';
import { anyData, edge, proposalsQuery } from './schemas.ts';

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { platformAdmin: true });
  const stale = () => s.config.LEARNING_STALE_AFTER_HOURS;
  app.get('/api/admin/learning/proposals', { schema: { querystring: proposalsQuery, response: { 200: anyData } }, onRequest: admin }, async (req) => {
    const { limit, cursor, ...filters } = req.query;
    return ok(edge(await listProposals(s.db, filters, { limit, cursor }, s.clock.now(), stale())));
  });
  app.get('/api/admin/learning/proposals/:id', { schema: { params: idParams, response: { 200: anyData } }, onRequest: admin }, async (req) => {
    const p = await getProposal(s.db, req.params.id, s.clock.now(), stale());
    if (!p) throw appError('not_found', 'No proposal has this id');
    const [gates, cost, synth] = await Promise.all([gateResults(s.db, p.id), costSummary(s.db, p.id), batches(s.db, p.id)]);
    const scored = synth.filter((b) => b.status === 'scored').length;
    return ok(edge({
      ...p,
      gateResults: gates,
      cost,
      syntheticSummary: {
        batchCount: synth.length,
        scoredCount: scored,
        rejectedCount: synth.filter((b) => b.status === 'rejected').length,
        caseCount: synth.reduce((a, b) => a + b.caseCount, 0),
        acceptedCount: synth.reduce((a, b) => a + b.acceptedCount, 0),
        latestBatch: synth[0] ?? null,
      },
    }));
  });
};
export default route;

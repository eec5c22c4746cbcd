// GET /api/admin/learning/budget: every window's rows with spent and available (D9 pages), plus the
// recent audit trail of budget changes. PATCH /api/admin/learning/budget/:id {budgetMicros}: sets
// the budget of a category in the current month window; the change, its previous value and its
// author are written in the same transaction (D15). Platform admins only.
import { listBudgetChanges, listBudgets, setBudget } from '../../../../app/learning/index.ts';
import { decodeCursor, encodeCursor } from '../../../../app/shared/index.ts';
import { appError } from '../../../../core/errors.ts';
import { authOf, requireAuth } from '../../../plugins/auth.ts';
import { idParams, ok, pageQuerySchema, type RouteModule } from '../../common.ts';
import { anyData, budgetPatch, edge } from './schemas.ts';

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { platformAdmin: true });
  app.get('/api/admin/learning/budget', { schema: { querystring: pageQuerySchema, response: { 200: anyData } }, onRequest: admin }, async (req) => {
    const after = decodeCursor(req.query.cursor, ['windowKey', 'category'] as const);
    const rows = await listBudgets(s.db, req.query.limit + 1, after);
    const more = rows.length > req.query.limit;
    const items = more ? rows.slice(0, req.query.limit) : rows;
    const last = items[items.length - 1];
    return ok(edge({
      items,
      nextCursor: more && last ? encodeCursor({ windowKey: last.windowKey, category: last.category }) : null,
      changes: await listBudgetChanges(s.db),
    }));
  });
  app.patch('/api/admin/learning/budget/:id', { schema: { params: idParams, body: budgetPatch, response: { 200: anyData } }, onRequest: admin }, async (req) => {
    const r = await setBudget(s.db, req.params.id, req.body.budgetMicros, authOf(req).userId, s.clock.now());
    if (!r.ok && r.code === 'not_found') throw appError('not_found', 'No learning-plane budget has this id');
    if (!r.ok) throw appError('conflict', 'Only the current month window’s budget can be set; pick this month’s row');
    return ok(edge({ budget: r.budget, change: r.change }));
  });
};
export default route;

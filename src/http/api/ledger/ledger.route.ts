// GET /api/tenant/ledger (D9 filters, cursor pages, running balance) and
// GET /api/tenant/ledger/verify (HMAC recomputed over the whole chain, D8). Any member reads.
import { listLedger, verifyLedger } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, pageOf, type RouteModule } from '../common.ts';
import { customerEntry, filtersOf, ledgerQuery, toCustomerEntry, verdict } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/tenant/ledger', { schema: { querystring: ledgerQuery, response: { 200: envelope(pageOf(customerEntry)) } }, onRequest: requireAuth(s) }, async (req) => {
    const page = await listLedger(s.db, authOf(req).tenantId, filtersOf(req.query), req.query);
    return ok({ items: page.items.map(toCustomerEntry), nextCursor: page.nextCursor });
  });
  app.get('/api/tenant/ledger/verify', { schema: { response: { 200: envelope(verdict) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await verifyLedger(s.db, s.secrets.ledger, authOf(req).tenantId)),
  );
};
export default route;

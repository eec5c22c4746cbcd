// Platform operators' ledger views (D2, D8): every column of any tenant's ledger, and its verify.
import { listLedger, verifyLedger } from '../../../app/money/index.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { envelope, idParams, ok, pageOf, type RouteModule } from '../common.ts';
import { adminEntry, filtersOf, ledgerQuery, toAdminEntry, verdict } from '../ledger/schemas.ts';

const route: RouteModule = (app, s) => {
  app.get(
    '/api/admin/tenants/:id/ledger',
    { schema: { params: idParams, querystring: ledgerQuery, response: { 200: envelope(pageOf(adminEntry)) } }, onRequest: requireAuth(s, { platformAdmin: true }) },
    async (req) => {
      const page = await listLedger(s.db, req.params.id, filtersOf(req.query), req.query);
      return ok({ items: page.items.map(toAdminEntry), nextCursor: page.nextCursor });
    },
  );
  app.get(
    '/api/admin/tenants/:id/ledger/verify',
    { schema: { params: idParams, response: { 200: envelope(verdict) } }, onRequest: requireAuth(s, { platformAdmin: true }) },
    async (req) => ok(await verifyLedger(s.db, s.secrets.ledger, req.params.id)),
  );
};
export default route;

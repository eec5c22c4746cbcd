// GET /api/tenant/wallet (any member) and the auto-top-up rule: PUT/DELETE
// /api/tenant/wallet/auto-topup (admins and owners: it moves money).
import { clearAutoTopup, getWalletView, setAutoTopup } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { autoTopupBody, toWalletJson, wallet } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/tenant/wallet', { schema: { response: { 200: envelope(wallet) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(toWalletJson(await getWalletView(s, authOf(req).tenantId))),
  );
  app.put(
    '/api/tenant/wallet/auto-topup',
    { schema: { body: autoTopupBody, response: { 200: envelope(wallet) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req) => ok(toWalletJson(await setAutoTopup(s, authOf(req).tenantId, req.body))),
  );
  app.delete('/api/tenant/wallet/auto-topup', { schema: { response: { 200: envelope(wallet) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) =>
    ok(toWalletJson(await clearAutoTopup(s, authOf(req).tenantId))),
  );
};
export default route;

// POST /api/tenant/wallet/topup {amountMicros} → {checkoutId, checkoutUrl} (D11). Admins and
// owners only. The wallet is credited later, when the processor confirms the payment.
import { startTopup } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { topupBody, topupResult } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.post(
    '/api/tenant/wallet/topup',
    { schema: { body: topupBody, response: { 201: envelope(topupResult) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req, reply) => {
      const a = authOf(req);
      const r = await startTopup(s, { tenantId: a.tenantId, userId: a.userId, amountMicros: req.body.amountMicros });
      return reply.status(201).send(ok({ ...r, amountMicros: r.amountMicros.toString() }));
    },
  );
};
export default route;

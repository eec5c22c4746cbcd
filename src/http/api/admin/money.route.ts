// Platform admins' money actions (issue 14): POST /api/admin/tenants/:id/adjustments
// {amountMicros (signed, not 0), reason} books an ADJUSTMENT; POST /api/admin/topups/:id/refund
// {amountMicros, reason} refunds part or all of a sandbox top-up (REFUND). Both need a reason and
// are written to the admin's security audit chain in the same transaction as the sealed entry.
import { z } from 'zod';
import { adjustWallet, refundSandboxTopup } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, idParams, microsString, nonNegativeMicros, ok, type RouteModule } from '../common.ts';

const MAX_MICROS = 10_000_000_000n; // $10,000, the largest top-up
const reason = z.string().trim().min(3, 'a reason is required (at least 3 characters)').max(300);
const signedMicros = z
  .union([z.string().regex(/^-?\d{1,19}$/, 'must be an integer string of micros'), z.int()])
  .transform((v) => BigInt(v))
  .refine((v) => v !== 0n, 'must not be 0')
  .refine((v) => v <= MAX_MICROS && v >= -MAX_MICROS, `must be between -${MAX_MICROS} and ${MAX_MICROS}`);
const adjustmentBody = z.strictObject({ amountMicros: signedMicros, reason });
const refundBody = z.strictObject({ amountMicros: nonNegativeMicros.refine((v) => v > 0n, 'must be positive'), reason });

const entry = z.object({ ledgerEntryId: z.string(), amountMicros: microsString, balanceAfterMicros: microsString });
const refund = z.object({ topupId: z.string(), refundedMicros: microsString, debitedMicros: microsString, ledgerEntryId: z.string().nullable() });

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { platformAdmin: true });
  app.post(
    '/api/admin/tenants/:id/adjustments',
    { schema: { params: idParams, body: adjustmentBody, response: { 201: envelope(entry) } }, onRequest: admin },
    async (req, reply) => {
      const e = await adjustWallet(s, { userId: authOf(req).userId, ip: req.ip, userAgent: req.headers['user-agent'] ?? null }, req.params.id, req.body.amountMicros, req.body.reason);
      return reply.status(201).send(ok({ ledgerEntryId: e.id, amountMicros: req.body.amountMicros.toString(), balanceAfterMicros: e.balanceAfterMicros.toString() }));
    },
  );
  app.post(
    '/api/admin/topups/:id/refund',
    { schema: { params: idParams, body: refundBody, response: { 201: envelope(refund) } }, onRequest: admin },
    async (req, reply) => {
      const r = await refundSandboxTopup(s, { userId: authOf(req).userId, ip: req.ip, userAgent: req.headers['user-agent'] ?? null }, req.params.id, req.body.amountMicros, req.body.reason);
      return reply.status(201).send(ok({ topupId: req.params.id, refundedMicros: r.refundedMicros.toString(), debitedMicros: r.debitedMicros.toString(), ledgerEntryId: r.ledgerEntryId }));
    },
  );
};
export default route;

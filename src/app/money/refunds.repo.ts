// The money domain's statements for refunds and adjustments (docs/layout.md: SQL in *.repo.ts;
// refunds.ts keeps the rules, the transactions and the lock order: top-up row, then wallet row).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { PaymentProcessorName } from '../../store/schema.ts';

export type RefundKey = { topupId: string } | { processor: PaymentProcessorName; paymentRef: string };

/** Locks the refunded top-up (by id, or by the processor's payment or checkout reference). */
export async function lockTopupForRefund(tx: Executor, target: RefundKey) {
  let q = tx.selectFrom('topups').select(['id', 'tenant_id', 'amount_micros', 'refunded_micros', 'status']).forUpdate();
  q = 'topupId' in target ? q.where('id', '=', target.topupId) : q.where('processor', '=', target.processor).where((eb) => eb.or([eb('payment_ref', '=', target.paymentRef), eb('processor_ref', '=', target.paymentRef)]));
  return q.executeTakeFirst();
}

/** Locks the tenant's wallet row and reads its balance and holds. */
export async function lockWalletBalances(tx: Executor, tenantId: string): Promise<{ balance_micros: bigint; reserved_micros: bigint } | undefined> {
  const w = await sql<{ balance_micros: bigint; reserved_micros: bigint }>`
    select balance_micros, reserved_micros from wallets where tenant_id = ${tenantId} for update`.execute(tx);
  return w.rows[0];
}

export async function setTopupRefundedTotal(tx: Executor, topupId: string, totalMicros: bigint): Promise<void> {
  await tx.updateTable('topups').set({ refunded_micros: totalMicros }).where('id', '=', topupId).execute();
}

export async function lockTopupById(tx: Executor, topupId: string) {
  return tx.selectFrom('topups').select(['tenant_id', 'amount_micros', 'refunded_micros', 'status', 'processor']).where('id', '=', topupId).forUpdate().executeTakeFirst();
}

export async function walletBalances(db: Executor, tenantId: string) {
  return db.selectFrom('wallets').select(['balance_micros', 'reserved_micros']).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
}

export async function tenantExists(db: Executor, tenantId: string): Promise<boolean> {
  const row = await db.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
  return row !== undefined;
}

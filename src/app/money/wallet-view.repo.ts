// The money domain's statements behind the wallet view and its auto-top-up rule (docs/layout.md:
// SQL in *.repo.ts; wallet-view.ts keeps the runway arithmetic and the rule's checks).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { PaymentProcessorName } from '../../store/schema.ts';

export async function walletWithPaymentMethod(db: Executor, tenantId: string) {
  const r = await sql<{
    balance_micros: bigint;
    reserved_micros: bigint;
    auto_topup_threshold_micros: bigint | null;
    auto_topup_amount_micros: bigint | null;
    pm_processor: string | null;
    pm_label: string | null;
  }>`
    select w.balance_micros, w.reserved_micros, w.auto_topup_threshold_micros, w.auto_topup_amount_micros,
           m.processor as pm_processor, m.label as pm_label
      from wallets w
      left join payment_methods m on m.tenant_id = w.tenant_id
     where w.tenant_id = ${tenantId}`.execute(db);
  return r.rows[0];
}

export async function savedMethodFor(db: Executor, tenantId: string, processor: PaymentProcessorName) {
  return db.selectFrom('payment_methods').select('processor').where('tenant_id', '=', tenantId).where('processor', '=', processor).executeTakeFirst();
}

/** Sets (or clears, with nulls) the rule and re-arms it. */
export async function setAutoTopupRule(db: Executor, tenantId: string, rule: { thresholdMicros: bigint | null; amountMicros: bigint | null }, at: Date): Promise<void> {
  await db
    .updateTable('wallets')
    .set({ auto_topup_threshold_micros: rule.thresholdMicros, auto_topup_amount_micros: rule.amountMicros, auto_topup_armed: true, updated_at: at })
    .where('tenant_id', '=', tenantId)
    .execute();
}

// The money domain's statements on top-ups, processor events, invoices and saved payment methods
// (docs/layout.md: SQL in *.repo.ts; topups.ts keeps the state machine and its transaction).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { PaymentProcessorName, TopupStatus, TopupsTable } from '../../store/schema.ts';

type TopupKind = TopupsTable['kind'];

export type TopupKey = { topupId: string } | { processor: PaymentProcessorName; processorRef: string };

export async function insertTopup(
  db: Executor,
  v: {
    id: string;
    tenantId: string;
    kind: TopupKind;
    amountMicros: bigint;
    processor: PaymentProcessorName;
    createdBy?: string | null;
    status?: TopupStatus;
    failureReason?: string | null;
    at: Date;
  },
  opts: { ignoreExisting?: boolean } = {},
): Promise<void> {
  let q = db.insertInto('topups').values({
    id: v.id,
    tenant_id: v.tenantId,
    kind: v.kind,
    amount_micros: v.amountMicros,
    processor: v.processor,
    processor_ref: null,
    ...(v.createdBy !== undefined ? { created_by: v.createdBy } : {}),
    ...(v.status !== undefined ? { status: v.status, failure_reason: v.failureReason ?? null } : {}),
    created_at: v.at,
  });
  if (opts.ignoreExisting) q = q.onConflict((oc) => oc.column('id').doNothing());
  await q.execute();
}

export async function savedCustomerRef(db: Executor, tenantId: string, processor: PaymentProcessorName) {
  return db.selectFrom('payment_methods').select('customer_ref').where('tenant_id', '=', tenantId).where('processor', '=', processor).executeTakeFirst();
}

export async function markTopupFailedById(db: Executor, topupId: string, reason: string): Promise<void> {
  await db.updateTable('topups').set({ status: 'failed', failure_reason: reason }).where('id', '=', topupId).execute();
}

export async function setTopupProcessorRef(db: Executor, topupId: string, processorRef: string, opts: { onlyIfUnset?: boolean } = {}): Promise<void> {
  let q = db.updateTable('topups').set({ processor_ref: processorRef }).where('id', '=', topupId);
  if (opts.onlyIfUnset) q = q.where('processor_ref', 'is', null);
  await q.execute();
}

/** Records a processor webhook event once; false when it was already recorded. */
export async function recordProcessorEvent(tx: Executor, e: { processor: PaymentProcessorName; eventId: string; eventType: string; at: Date }): Promise<boolean> {
  const fresh = await tx
    .insertInto('processor_events')
    .values({ processor: e.processor, event_id: e.eventId, event_type: e.eventType, received_at: e.at })
    .onConflict((oc) => oc.doNothing())
    .returning('event_id')
    .executeTakeFirst();
  return fresh !== undefined;
}

/** Moves the top-up out of checkout_started to credited; undefined when it was not there. */
export async function markTopupCredited(tx: Executor, ref: TopupKey, at: Date, paymentRef: string | null | undefined) {
  let q = tx
    .updateTable('topups')
    .set({ status: 'credited', credited_at: at, ...(paymentRef ? { payment_ref: paymentRef } : {}) })
    .where('status', '=', 'checkout_started');
  q = 'topupId' in ref ? q.where('id', '=', ref.topupId) : q.where('processor', '=', ref.processor).where('processor_ref', '=', ref.processorRef);
  return q.returning(['id', 'tenant_id', 'amount_micros', 'kind', 'processor', 'processor_ref']).executeTakeFirst();
}

export async function topupStatusByRef(tx: Executor, ref: TopupKey) {
  let w = tx.selectFrom('topups').select(['id', 'status']);
  w = 'topupId' in ref ? w.where('id', '=', ref.topupId) : w.where('processor', '=', ref.processor).where('processor_ref', '=', ref.processorRef);
  return w.executeTakeFirst();
}

/** Links the top-up to its ledger entry and issues its invoice (numbered from invoice_number_seq). */
export async function linkEntryAndIssueInvoice(
  tx: Executor,
  v: { topupId: string; tenantId: string; ledgerEntryId: string; amountMicros: bigint; description: string; paymentRef: string | null; at: Date },
): Promise<void> {
  await sql`
      with u as (update topups set ledger_entry_id = ${v.ledgerEntryId} where id = ${v.topupId})
      insert into invoices (tenant_id, topup_id, number, amount_micros, billed_to, description, payment_ref, issued_at)
      select ${v.tenantId}, ${v.topupId}, 'INV-' || lpad(nextval('invoice_number_seq')::text, 6, '0'), ${v.amountMicros}::bigint,
             tenants.name, ${v.description}, ${v.paymentRef}, ${v.at}
        from tenants where tenants.id = ${v.tenantId}`.execute(tx);
}

export async function upsertPaymentMethod(
  tx: Executor,
  v: { tenantId: string; processor: PaymentProcessorName; customerRef: string | null; methodRef: string | null; label: string; at: Date },
): Promise<void> {
  await tx
    .insertInto('payment_methods')
    .values({ tenant_id: v.tenantId, processor: v.processor, customer_ref: v.customerRef, method_ref: v.methodRef, label: v.label, created_at: v.at, updated_at: v.at })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet((eb) => ({
        processor: eb.ref('excluded.processor'),
        customer_ref: eb.ref('excluded.customer_ref'),
        method_ref: eb.ref('excluded.method_ref'),
        label: eb.ref('excluded.label'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

/** Payment failed: only from checkout_started. */
export async function markCheckoutFailed(db: Executor, ref: TopupKey, reason: string): Promise<void> {
  let q = db.updateTable('topups').set({ status: 'failed', failure_reason: reason }).where('status', '=', 'checkout_started');
  q = 'topupId' in ref ? q.where('id', '=', ref.topupId) : q.where('processor', '=', ref.processor).where('processor_ref', '=', ref.processorRef);
  await q.execute();
}

export async function sandboxCheckoutRow(db: Executor, checkoutId: string) {
  return db
    .selectFrom('topups as t')
    .innerJoin('tenants as n', 'n.id', 't.tenant_id')
    .select(['t.id', 't.amount_micros', 't.status', 't.created_at', 'n.name as tenant_name'])
    .where('t.processor', '=', 'sandbox')
    .where('t.processor_ref', '=', checkoutId)
    .executeTakeFirst();
}

export async function autoTopupRule(db: Executor, tenantId: string) {
  return db
    .selectFrom('wallets as w')
    .leftJoin('payment_methods as m', 'm.tenant_id', 'w.tenant_id')
    .select(['w.auto_topup_amount_micros', 'm.processor', 'm.customer_ref', 'm.method_ref'])
    .where('w.tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function topupStatusAndAmount(db: Executor, topupId: string) {
  return db.selectFrom('topups').select(['status', 'amount_micros']).where('id', '=', topupId).executeTakeFirstOrThrow();
}

// Top-ups (spec §3 Wallet top-up, D11): checkout started → payment confirmed → wallet credited,
// with a WALLET_TOPUP ledger entry and an invoice. Confirmation is idempotent: the top-up row moves
// out of checkout_started exactly once (a conditional UPDATE that concurrent replays wait on and
// then fail), the webhook event id is unique, and the ledger entry id is unique per top-up.
// Auto-top-up charges the saved payment method from a pg-boss job, never in a request.
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import type { PaymentProcessorName, TopupStatus } from '../../store/schema.ts';
import { appError } from '../../core/errors.ts';
import { TOPUP_MAX_MICROS, TOPUP_MIN_MICROS, isWholeCents } from '../../core/money.ts';
import { appendLedgerEntry } from './ledger.ts';
import { emitWalletTopup } from '../projects/index.ts';
import { kickOutbox } from '../events/index.ts';
import { checkWalletThresholds } from '../events/index.ts';
import type { ProcessorEvent } from '../../infra/payments/processor.ts';
import { recordProcessorRefund } from './refunds.ts';
import * as repo from './topups.repo.ts';

export const AUTO_TOPUP_QUEUE = 'wallet-auto-topup';
/** A checkout not paid within a day cannot be confirmed any more (Stripe's sessions expire the same way). */
export const CHECKOUT_TTL_MS = 24 * 60 * 60 * 1000;

export interface AutoTopupJob {
  tenantId: string;
  /** Chosen when the crossing is detected: the top-up's id and the processor's idempotency key. */
  topupId: string;
}

export interface SavedMethodInput {
  processor: PaymentProcessorName;
  customerRef: string | null;
  methodRef: string | null;
  label: string;
}

export type TopupRef = { topupId: string } | { processor: PaymentProcessorName; processorRef: string };

export interface CreditResult {
  /** True only for the confirmation that credited the wallet; replays get false. */
  credited: boolean;
  topupId: string | null;
  status: TopupStatus | null;
  balanceAfterMicros: bigint | null;
}

/** Domain check of a top-up amount (the route's schema says the same; jobs and scripts come here too). */
export function checkTopupAmount(amountMicros: bigint, field = 'amountMicros'): void {
  if (amountMicros < TOPUP_MIN_MICROS) throw appError('validation', `${field} must be at least ${TOPUP_MIN_MICROS} ($1)`, { field });
  if (amountMicros > TOPUP_MAX_MICROS) throw appError('validation', `${field} must be at most ${TOPUP_MAX_MICROS} ($10,000)`, { field });
  if (!isWholeCents(amountMicros)) throw appError('validation', `${field} must be a whole number of cents (a multiple of 10000)`, { field });
}

/** POST /api/tenant/wallet/topup: record the top-up, then open the processor's checkout. */
export async function startTopup(s: Services, input: { tenantId: string; userId: string | null; amountMicros: bigint }) {
  checkTopupAmount(input.amountMicros);
  const topupId = randomUUID();
  await repo.insertTopup(s.db, {
    id: topupId,
    tenantId: input.tenantId,
    kind: 'checkout',
    amountMicros: input.amountMicros,
    processor: s.payments.name,
    createdBy: input.userId,
    at: s.clock.now(),
  });
  const saved = await repo.savedCustomerRef(s.db, input.tenantId, s.payments.name);
  let session;
  try {
    session = await s.payments.createCheckout({
      topupId,
      tenantId: input.tenantId,
      amountMicros: input.amountMicros,
      customerRef: saved?.customer_ref ?? null,
      publicUrl: s.publicUrl,
    });
  } catch (e) {
    s.log.error(e, 'checkout could not be created');
    await repo.markTopupFailedById(s.db, topupId, 'checkout could not be created');
    throw appError('payment_processor_failed');
  }
  await repo.setTopupProcessorRef(s.db, topupId, session.processorRef);
  return { topupId, checkoutId: session.processorRef, checkoutUrl: session.checkoutUrl, amountMicros: input.amountMicros };
}

/**
 * Payment confirmed → wallet credited, in one transaction: the processor event (if any) is
 * recorded once, the top-up leaves checkout_started once, the WALLET_TOPUP entry is sealed, the
 * invoice is issued, and the card used is saved for auto-top-up.
 */
export async function creditTopup(
  s: Services,
  ref: TopupRef,
  opts: { event?: { processor: PaymentProcessorName; eventId: string; eventType: string }; saveMethod?: SavedMethodInput | null; paymentRef?: string | null } = {},
): Promise<CreditResult> {
  const at = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    if (opts.event) {
      const fresh = await repo.recordProcessorEvent(tx, { ...opts.event, at });
      if (!fresh) return { credited: false, topupId: null, status: null, balanceAfterMicros: null };
    }
    const t = await repo.markTopupCredited(tx, ref, at, opts.paymentRef);
    if (!t) {
      const prior = await repo.topupStatusByRef(tx, ref);
      return { credited: false, topupId: prior?.id ?? null, status: prior?.status ?? null, balanceAfterMicros: null };
    }
    const entry = await appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId: t.tenant_id,
      projectId: null,
      eventType: 'WALLET_TOPUP',
      amountMicros: t.amount_micros,
      memo: t.kind === 'auto' ? 'Auto top-up' : 'Top-up',
      at,
    });
    const description = t.kind === 'auto' ? 'Switchboard wallet auto top-up' : 'Switchboard wallet top-up';
    await repo.linkEntryAndIssueInvoice(tx, {
      topupId: t.id,
      tenantId: t.tenant_id,
      ledgerEntryId: entry.id,
      amountMicros: t.amount_micros,
      description,
      paymentRef: t.processor_ref,
      at,
    });
    if (opts.saveMethod) {
      const m = opts.saveMethod;
      await repo.upsertPaymentMethod(tx, { tenantId: t.tenant_id, processor: m.processor, customerRef: m.customerRef, methodRef: m.methodRef, label: m.label, at });
    }
    // wallet.topup on every project stream, and projects paused for an empty wallet resume (D10, D4).
    await emitWalletTopup(s, tx, { tenantId: t.tenant_id, ledgerEntryId: entry.id, amountMicros: t.amount_micros, balanceAfterMicros: entry.balanceAfterMicros, at });
    return { credited: true, topupId: t.id, status: 'credited' as const, balanceAfterMicros: entry.balanceAfterMicros, tenantId: t.tenant_id };
  }).then(async (r: CreditResult & { tenantId?: string }) => {
    const { tenantId, ...result } = r;
    if (result.credited && tenantId) {
      kickOutbox(s);
      await checkWalletThresholds(s, tenantId);
    }
    return result;
  });
}

/** Payment failed: the top-up ends without a credit (only from checkout_started). */
export async function failTopup(s: Services, ref: TopupRef, reason: string): Promise<void> {
  await repo.markCheckoutFailed(s.db, ref, reason.slice(0, 500));
}

/** A verified processor webhook (Stripe): drive the top-up state machine. */
export async function handleProcessorEvent(s: Services, ev: ProcessorEvent): Promise<{ handled: string }> {
  const processor = s.payments.name;
  switch (ev.kind) {
    case 'checkout_completed': {
      if (!ev.paid) return { handled: 'checkout completed without payment yet' };
      const ref: TopupRef = ev.topupId ? { topupId: ev.topupId } : { processor, processorRef: ev.processorRef };
      const r = await creditTopup(s, ref, {
        paymentRef: ev.paymentRef ?? null,
        event: { processor, eventId: ev.eventId, eventType: 'checkout_completed' },
        saveMethod: ev.customerRef ? { processor, customerRef: ev.customerRef, methodRef: ev.methodRef, label: 'Card saved at checkout' } : null,
      });
      return { handled: r.credited ? 'credited' : 'already handled' };
    }
    case 'payment_succeeded': {
      const ref: TopupRef = ev.topupId ? { topupId: ev.topupId } : { processor, processorRef: ev.processorRef };
      const r = await creditTopup(s, ref, { event: { processor, eventId: ev.eventId, eventType: 'payment_succeeded' } });
      return { handled: r.credited ? 'credited' : 'already handled' };
    }
    case 'payment_failed':
      await failTopup(s, ev.topupId ? { topupId: ev.topupId } : { processor, processorRef: ev.processorRef }, ev.reason);
      return { handled: 'failed' };
    case 'refunded':
      return recordProcessorRefund(s, {
        eventId: ev.eventId,
        eventType: ev.type,
        target: ev.topupId ? { topupId: ev.topupId } : { processor, paymentRef: ev.paymentRef },
        totalRefundedMicros: ev.totalRefundedMicros,
      });
    case 'ignored':
      return { handled: 'ignored' };
  }
}

/** The sandbox checkout page's data; null when there is no such sandbox checkout. */
export async function getSandboxCheckout(s: Services, checkoutId: string) {
  const row = await repo.sandboxCheckoutRow(s.db, checkoutId);
  if (!row) return null;
  const expired = row.status === 'checkout_started' && s.clock.now().getTime() - row.created_at.getTime() > CHECKOUT_TTL_MS;
  return { topupId: row.id, amountMicros: row.amount_micros, status: row.status, tenantName: row.tenant_name, expired };
}

/**
 * The sandbox's "Pay" button: completes the checkout the way a processor webhook would, saving
 * the sandbox card for auto-top-up. Idempotent: a second confirm credits nothing.
 */
export async function confirmSandboxCheckout(s: Services, checkoutId: string, saveMethod: SavedMethodInput): Promise<CreditResult> {
  if (s.payments.name !== 'sandbox') throw appError('not_found', 'The sandbox processor is not in use');
  const c = await getSandboxCheckout(s, checkoutId);
  if (!c) throw appError('not_found', 'No such checkout');
  if (c.expired) throw appError('conflict', 'This checkout has expired');
  if (c.status === 'failed') throw appError('conflict', 'This checkout has failed');
  return creditTopup(s, { processor: 'sandbox', processorRef: checkoutId }, { saveMethod });
}

/**
 * The auto-top-up job: charge the saved payment method the rule's amount, off-session. Safe to
 * retry: the top-up id is fixed by the job, the processor call is idempotent on it, and crediting
 * is idempotent. A declined charge leaves the rule disarmed (no charge loop on a failing card)
 * until a credit brings the balance back above the threshold or the rule is saved again.
 */
export async function runAutoTopup(s: Services, job: AutoTopupJob): Promise<'credited' | 'pending' | 'failed' | 'skipped'> {
  const w = await repo.autoTopupRule(s.db, job.tenantId);
  if (!w || w.auto_topup_amount_micros === null) {
    s.log.info({ tenantId: job.tenantId }, 'auto-top-up skipped: the rule was removed');
    return 'skipped';
  }
  const at = s.clock.now();
  const usable = w.processor === s.payments.name;
  await repo.insertTopup(
    s.db,
    {
      id: job.topupId,
      tenantId: job.tenantId,
      kind: 'auto',
      amountMicros: w.auto_topup_amount_micros,
      processor: s.payments.name,
      status: usable ? 'checkout_started' : 'failed',
      failureReason: usable ? null : 'no saved payment method for this processor',
      at,
    },
    { ignoreExisting: true },
  );
  const t = await repo.topupStatusAndAmount(s.db, job.topupId);
  if (t.status === 'credited') return 'credited';
  if (t.status === 'failed') {
    s.log.warn({ tenantId: job.tenantId, topupId: job.topupId }, 'auto-top-up failed: no saved payment method');
    return 'failed';
  }
  const res = await s.payments.chargeSaved({
    topupId: job.topupId,
    tenantId: job.tenantId,
    amountMicros: t.amount_micros,
    method: { customerRef: w.customer_ref ?? null, methodRef: w.method_ref ?? null },
  });
  if (res.processorRef) {
    await repo.setTopupProcessorRef(s.db, job.topupId, res.processorRef, { onlyIfUnset: true });
  }
  switch (res.status) {
    case 'succeeded':
      await creditTopup(s, { topupId: job.topupId });
      return 'credited';
    case 'pending':
      return 'pending';
    case 'failed':
      await failTopup(s, { topupId: job.topupId }, res.reason);
      s.log.warn({ tenantId: job.tenantId, topupId: job.topupId, reason: res.reason }, 'auto-top-up declined');
      return 'failed';
  }
}

// The producers of REFUND and ADJUSTMENT ledger entries (issue 14):
//  - REFUND: a processor refunded (part of) a top-up to the payer's card, so that money leaves the
//    wallet. Stripe announces it with `charge.refunded` (cumulative amount refunded per payment);
//    the sandbox processor has a refund action for platform admins. A top-up is never refunded
//    beyond what was paid, and each refund is booked once (the processor's event id, and the
//    top-up's refunded total).
//  - ADJUSTMENT: a platform admin credits or debits a wallet with a required reason, audited in
//    the admin's security audit chain in the same transaction as the sealed entry.
import type { Services } from '../shared/index.ts';
import type { Tx } from '../../store/db.ts';
import type { PaymentProcessorName } from '../../store/schema.ts';
import { appError } from '../../core/errors.ts';
import { appendLedgerEntry, type AppendedEntry } from './ledger.ts';
import { audit } from '../identity/index.ts';
import { kickOutbox } from '../events/index.ts';
import { walletFunded } from '../projects/index.ts';
import { recordProcessorEvent } from './topups.repo.ts';
import * as repo from './refunds.repo.ts';

export type RefundTarget = { topupId: string } | { processor: PaymentProcessorName; paymentRef: string };

export interface RefundResult {
  booked: boolean;
  topupId: string | null;
  /** What left the wallet (less than the refund when the wallet no longer held it all). */
  debitedMicros: bigint;
  refundedMicros: bigint;
  ledgerEntryId: string | null;
}

/**
 * Book a refund of a credited top-up: `totalRefundedMicros` is the processor's cumulative amount
 * refunded on that payment (Stripe's amount_refunded), so a replayed or reordered event books
 * nothing twice. The wallet is debited what is new, down to the holds of calls in flight at most;
 * the memo says when the wallet no longer held it all (the rest was already spent).
 */
async function bookRefund(tx: Tx, s: Services, target: RefundTarget, totalRefundedMicros: bigint, memo: string): Promise<RefundResult> {
  const t = await repo.lockTopupForRefund(tx, target);
  if (!t) return { booked: false, topupId: null, debitedMicros: 0n, refundedMicros: 0n, ledgerEntryId: null };
  if (t.status !== 'credited') throw appError('conflict', 'Only a credited top-up can be refunded');
  const total = totalRefundedMicros > t.amount_micros ? t.amount_micros : totalRefundedMicros;
  const fresh = total - t.refunded_micros;
  if (fresh <= 0n) return { booked: false, topupId: t.id, debitedMicros: 0n, refundedMicros: t.refunded_micros, ledgerEntryId: null };
  const w = await repo.lockWalletBalances(tx, t.tenant_id);
  const room = w ? w.balance_micros - w.reserved_micros : 0n;
  const debit = fresh < room ? fresh : room > 0n ? room : 0n;
  await repo.setTopupRefundedTotal(tx, t.id, total);
  let entry: AppendedEntry | null = null;
  if (debit > 0n) {
    const note = debit < fresh ? ` (refund of ${fresh} micros; the wallet held ${debit})` : '';
    entry = await appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId: t.tenant_id,
      projectId: null,
      eventType: 'REFUND',
      amountMicros: -debit,
      memo: `${memo}${note}`.slice(0, 500),
      floor: 'reserved',
      at: s.clock.now(),
    });
  } else {
    s.log.warn({ event: 'refund.unbooked', tenantId: t.tenant_id, topupId: t.id, refundMicros: fresh.toString() }, 'refund larger than the wallet: nothing left to debit');
  }
  return { booked: true, topupId: t.id, debitedMicros: debit, refundedMicros: total, ledgerEntryId: entry?.id ?? null };
}

/** A verified processor refund event (Stripe charge.refunded), booked once per event id. */
export async function recordProcessorRefund(
  s: Services,
  ev: { eventId: string; eventType: string; target: RefundTarget; totalRefundedMicros: bigint },
): Promise<{ handled: string }> {
  const processor = s.payments.name;
  const r = await s.db.transaction().execute(async (tx) => {
    const fresh = await recordProcessorEvent(tx, { processor, eventId: ev.eventId, eventType: ev.eventType, at: s.clock.now() });
    if (!fresh) return null;
    return bookRefund(tx, s, ev.target, ev.totalRefundedMicros, 'Refund to the payment card');
  });
  if (!r) return { handled: 'already handled' };
  if (!r.topupId) return { handled: 'refund of an unknown payment' };
  if (r.ledgerEntryId) kickOutbox(s);
  return { handled: r.booked ? 'refunded' : 'already handled' };
}

/**
 * The sandbox processor's refund action (a platform admin's): refund `amountMicros` of a credited
 * top-up now. Stripe refunds are made in Stripe (dashboard or API) and booked from its event.
 */
export async function refundSandboxTopup(
  s: Services,
  admin: { userId: string; ip?: string | null; userAgent?: string | null },
  topupId: string,
  amountMicros: bigint,
  reason: string,
): Promise<RefundResult> {
  if (s.payments.name !== 'sandbox') {
    throw appError('conflict', 'Refunds of Stripe payments are made in Stripe; its charge.refunded event books them here');
  }
  const r = await s.db.transaction().execute(async (tx) => {
    const t = await repo.lockTopupById(tx, topupId);
    if (!t || t.processor !== 'sandbox') throw appError('not_found', 'No sandbox top-up has this id');
    if (t.status !== 'credited') throw appError('conflict', 'Only a credited top-up can be refunded');
    const left = t.amount_micros - t.refunded_micros;
    if (amountMicros > left) throw appError('conflict', `At most ${left} micros of this top-up are left to refund`);
    const w = await repo.walletBalances(tx, t.tenant_id);
    if (amountMicros > w.balance_micros - w.reserved_micros) {
      throw appError('conflict', `The wallet holds ${w.balance_micros - w.reserved_micros} micros not held by calls in flight; refund at most that`);
    }
    const booked = await bookRefund(tx, s, { topupId }, t.refunded_micros + amountMicros, `Refund: ${reason}`);
    await audit(tx, s.secrets.ledger, {
      userId: admin.userId,
      tenantId: t.tenant_id,
      event: 'topup_refunded',
      ip: admin.ip ?? null,
      userAgent: admin.userAgent ?? null,
      detail: { topupId, amountMicros: amountMicros.toString(), reason, ledgerEntryId: booked.ledgerEntryId },
      at: s.clock.now(),
    });
    return booked;
  });
  kickOutbox(s);
  return r;
}

/** A platform admin's ADJUSTMENT: signed, with a required reason, audited with the sealed entry. */
export async function adjustWallet(
  s: Services,
  admin: { userId: string; ip?: string | null; userAgent?: string | null },
  tenantId: string,
  amountMicros: bigint,
  reason: string,
): Promise<AppendedEntry> {
  if (amountMicros === 0n) throw appError('validation', 'amountMicros must not be 0', { field: 'amountMicros' });
  if (!(await repo.tenantExists(s.db, tenantId))) throw appError('not_found', 'Tenant not found');
  const entry = await s.db.transaction().execute(async (tx) => {
    const e = await appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId,
      projectId: null,
      eventType: 'ADJUSTMENT',
      amountMicros,
      memo: `Adjustment: ${reason}`.slice(0, 500),
      floor: amountMicros < 0n ? 'reserved' : 'zero',
      at: s.clock.now(),
    });
    // A credit resumes projects paused for an empty wallet, as a top-up does (D4).
    if (amountMicros > 0n) await walletFunded(s, tx, tenantId);
    await audit(tx, s.secrets.ledger, {
      userId: admin.userId,
      tenantId,
      event: 'ledger_adjusted',
      ip: admin.ip ?? null,
      userAgent: admin.userAgent ?? null,
      detail: { amountMicros: amountMicros.toString(), reason, ledgerEntryId: e.id },
      at: s.clock.now(),
    });
    return e;
  });
  kickOutbox(s);
  return entry;
}

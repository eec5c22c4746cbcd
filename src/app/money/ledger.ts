// Appending to a tenant's ledger (D8): every wallet movement is one sealed entry written in the
// caller's transaction. The wallet row is the chain head and the per-tenant lock: the UPDATE that
// moves the balance also takes the row lock, so appends for one tenant are serialised while other
// tenants never wait. Seal = HMAC-SHA256(secret, prevHash || RFC 8785 JSON of the payload).
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../store/db.ts';
import { sealLedgerEntry } from '../../core/ledger/seal.ts';
import { CUSTOMER_LABELS, ledgerPayloadOf, type LedgerPayload } from '../../core/ledger/payload.ts';
import { appError } from '../../core/errors.ts';
import { moveWalletHead, writeSealedEntry } from './ledger.repo.ts';

export type { WalletHead } from './ledger.repo.ts';

export type LedgerEventType = 'WALLET_TOPUP' | 'AI_USAGE' | 'REFUND' | 'ADJUSTMENT';

export interface LedgerAppend {
  tenantId: string;
  projectId: string | null;
  eventType: LedgerEventType;
  /** Signed: negative = debit, positive = credit. */
  amountMicros: bigint;
  /** Reservation released in the same statement (AI_USAGE settlement), default 0. */
  releaseReservedMicros?: bigint;
  /**
   * What the balance may not fall below after this entry: 'zero' (default; the CHECK constraint's
   * floor) or 'reserved' (the holds of other in-flight calls, so a settlement never spends money
   * another call has reserved: balance >= reserved stays true).
   */
  floor?: 'zero' | 'reserved';
  modelId?: string | null;
  providerKey?: string | null;
  benchmarkProvider?: string | null;
  benchmarkMethodologyVersion?: string | null;
  actualCostUsdMicros?: bigint | null;
  baselineCostUsdMicros?: bigint | null;
  benchmarkPricingVersion?: string | null;
  callId?: string | null;
  memo?: string | null;
  at: Date;
}

export interface AppendedEntry {
  id: string;
  seq: bigint;
  balanceAfterMicros: bigint;
  reservedAfterMicros: bigint;
  sealHash: string;
  createdAt: string;
  /** The wallet's auto-top-up rule as it stands after this entry (null when none is set). */
  autoTopup: { thresholdMicros: bigint; amountMicros: bigint; armed: boolean } | null;
}

/** The sealed columns of an entry (spec §2); the core decides which columns those are. */
export const ledgerPayload = (r: LedgerPayload): LedgerPayload => ledgerPayloadOf(r);

/**
 * Append one sealed entry, or return null (changing nothing) when the wallet cannot take the
 * movement: the balance would fall below its floor, or more would be released than is reserved.
 */
export async function tryAppendLedgerEntry(tx: Tx, secret: Buffer, e: LedgerAppend): Promise<AppendedEntry | null> {
  const release = e.releaseReservedMicros ?? 0n;
  const floorIsReserved = (e.floor ?? 'zero') === 'reserved';
  // A credit that brings the balance back to (or above) the auto-top-up threshold re-arms the rule
  // (once per crossing, see settleCall). Debits never re-arm.
  const isCredit = e.amountMicros > 0n;
  const w = await moveWalletHead(tx, { tenantId: e.tenantId, amountMicros: e.amountMicros, releaseMicros: release, isCredit, floorIsReserved, at: e.at });
  if (!w) return null;
  const id = randomUUID();
  const createdAt = e.at.toISOString();
  const payload = ledgerPayload({
    id,
    tenantId: e.tenantId,
    projectId: e.projectId,
    eventType: e.eventType,
    amountMicros: e.amountMicros,
    balanceAfterMicros: w.balance_micros,
    modelId: e.modelId ?? null,
    providerKey: e.providerKey ?? null,
    benchmarkProvider: e.benchmarkProvider ?? null,
    benchmarkMethodologyVersion: e.benchmarkMethodologyVersion ?? null,
    actualCostUsdMicros: e.actualCostUsdMicros ?? null,
    baselineCostUsdMicros: e.baselineCostUsdMicros ?? null,
    benchmarkPricingVersion: e.benchmarkPricingVersion ?? null,
    createdAt,
  });
  const sealHash = sealLedgerEntry(secret, w.last_seal_hash, payload);
  await writeSealedEntry(tx, {
    id,
    tenantId: e.tenantId,
    projectId: e.projectId,
    seq: w.ledger_seq,
    eventType: e.eventType,
    customerLabel: CUSTOMER_LABELS[e.eventType],
    amountMicros: e.amountMicros,
    balanceAfterMicros: w.balance_micros,
    modelId: payload.modelId,
    providerKey: payload.providerKey,
    benchmarkProvider: payload.benchmarkProvider,
    benchmarkMethodologyVersion: payload.benchmarkMethodologyVersion,
    actualCostUsdMicros: payload.actualCostUsdMicros,
    baselineCostUsdMicros: payload.baselineCostUsdMicros,
    benchmarkPricingVersion: payload.benchmarkPricingVersion,
    callId: e.callId ?? null,
    memo: e.memo ?? null,
    sealHash,
    prevHash: w.last_seal_hash,
    createdAt,
  });
  const autoTopup =
    w.auto_topup_threshold_micros !== null && w.auto_topup_amount_micros !== null
      ? { thresholdMicros: w.auto_topup_threshold_micros, amountMicros: w.auto_topup_amount_micros, armed: w.auto_topup_armed }
      : null;
  return {
    id,
    seq: w.ledger_seq,
    balanceAfterMicros: w.balance_micros,
    reservedAfterMicros: w.reserved_micros,
    sealHash,
    createdAt,
    autoTopup,
  };
}

/** Append one sealed entry in the caller's transaction; 402 insufficient_balance when the wallet cannot take it. */
export async function appendLedgerEntry(tx: Tx, secret: Buffer, e: LedgerAppend): Promise<AppendedEntry> {
  const entry = await tryAppendLedgerEntry(tx, secret, e);
  if (!entry) throw appError('insufficient_balance', 'The wallet cannot cover this movement');
  return entry;
}

// Appending to a tenant's ledger (D8): every wallet movement is one sealed entry written in the
// caller's transaction. The wallet row is the chain head and the per-tenant lock: the UPDATE that
// moves the balance also takes the row lock, so appends for one tenant are serialised while other
// tenants never wait. Seal = HMAC-SHA256(secret, prevHash || RFC 8785 JSON of the payload).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Tx } from '../../store/db.ts';
import { sealLedgerEntry } from '../../core/ledger/seal.ts';
import { CUSTOMER_LABELS, ledgerPayloadOf, type LedgerPayload } from '../../core/ledger/payload.ts';
import { appError } from '../../core/errors.ts';

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

/** A wallet row as a chain head: balance, holds, sequence, last seal and the auto-top-up rule. */
export interface WalletHead {
  balance_micros: bigint;
  reserved_micros: bigint;
  ledger_seq: bigint;
  last_seal_hash: string;
  auto_topup_threshold_micros: bigint | null;
  auto_topup_amount_micros: bigint | null;
  auto_topup_armed: boolean;
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
  const head = await sql<WalletHead>`
    update wallets
       set balance_micros = balance_micros + ${e.amountMicros}::bigint,
           reserved_micros = reserved_micros - ${release}::bigint,
           ledger_seq = ledger_seq + 1,
           auto_topup_armed = auto_topup_armed or (${isCredit}::boolean and (auto_topup_threshold_micros is null
                              or balance_micros + ${e.amountMicros}::bigint >= auto_topup_threshold_micros)),
           updated_at = ${e.at}
     where tenant_id = ${e.tenantId}
       and balance_micros + ${e.amountMicros}::bigint >= case when ${floorIsReserved}::boolean then reserved_micros - ${release}::bigint else 0 end
       and reserved_micros - ${release}::bigint >= 0
    returning balance_micros, reserved_micros, ledger_seq, last_seal_hash,
              auto_topup_threshold_micros, auto_topup_amount_micros, auto_topup_armed`.execute(tx);
  const w = head.rows[0];
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
  await sql`
    with head as (update wallets set last_seal_hash = ${sealHash} where tenant_id = ${e.tenantId})
    insert into ledger_entries (id, tenant_id, project_id, seq, event_type, customer_label, amount_micros,
      balance_after_micros, model_id, provider_key, benchmark_provider, benchmark_methodology_version,
      actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, call_id, memo,
      seal_hash, prev_hash, created_at)
    values (${id}, ${e.tenantId}, ${e.projectId}, ${w.ledger_seq}, ${e.eventType}, ${CUSTOMER_LABELS[e.eventType]},
      ${e.amountMicros}, ${w.balance_micros}, ${payload.modelId}, ${payload.providerKey}, ${payload.benchmarkProvider},
      ${payload.benchmarkMethodologyVersion}, ${payload.actualCostUsdMicros}, ${payload.baselineCostUsdMicros},
      ${payload.benchmarkPricingVersion}, ${e.callId ?? null}, ${e.memo ?? null}, ${sealHash}, ${w.last_seal_hash}, ${createdAt})`.execute(tx);
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

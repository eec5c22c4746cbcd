// Reading the ledger (D8, D9): filtered, cursor-paginated listing with a server-computed running
// balance, and chain verification streamed in batches.
//
// Running balance: the wallet's balance after each entry, i.e. the sum of every amount of the
// tenant's chain up to that entry. It is computed from the chain, seeded from the first row of the
// page's seq span (its sealed balance before = balanceAfter − amount) plus a running sum over every
// entry of the span, filtered out or not. So a row's running balance never depends on the filters
// or the page it appears on, and equals its sealed balanceAfterMicros on an untampered ledger.
import type { Db } from '../../store/db.ts';
import { GENESIS_HASH, verifyChain, type ChainVerification } from '../../core/ledger/seal.ts';
import type { SealedLedgerRow } from '../../core/ledger/payload.ts';
import { ledgerPayload, type LedgerEventType } from './ledger.ts';
import { decodeCursor, toPage, type Page, type PageQuery } from '../shared/index.ts';
import type { SealedEntryValues } from './ledger.repo.ts';
import { entriesInSpan, ledgerPageWithRunningBalance, walletChainHead, type LedgerDbRow, type LedgerFilters } from './ledger-view.repo.ts';

export type { LedgerDbRow, LedgerFilters } from './ledger-view.repo.ts';

export const LEDGER_EVENT_TYPES = ['WALLET_TOPUP', 'AI_USAGE', 'REFUND', 'ADJUSTMENT'] as const satisfies readonly LedgerEventType[];

/** A sealed entry as the ledger screen and API show it: the sealed values plus the running balance. */
export interface LedgerRow extends Omit<SealedEntryValues, 'eventType'> {
  eventType: LedgerEventType;
  runningBalanceMicros: bigint;
}

const toRow = (r: LedgerDbRow & { running_balance_micros: bigint }): LedgerRow => ({
  id: r.id,
  tenantId: r.tenant_id,
  projectId: r.project_id,
  seq: r.seq,
  eventType: r.event_type,
  customerLabel: r.customer_label,
  amountMicros: r.amount_micros,
  balanceAfterMicros: r.balance_after_micros,
  runningBalanceMicros: r.running_balance_micros,
  modelId: r.model_id,
  providerKey: r.provider_key,
  benchmarkProvider: r.benchmark_provider,
  benchmarkMethodologyVersion: r.benchmark_methodology_version,
  actualCostUsdMicros: r.actual_cost_usd_micros,
  baselineCostUsdMicros: r.baseline_cost_usd_micros,
  benchmarkPricingVersion: r.benchmark_pricing_version,
  callId: r.call_id,
  memo: r.memo,
  sealHash: r.seal_hash,
  prevHash: r.prev_hash,
  createdAt: r.created_at.toISOString(),
});

/** Newest first. Every column; the customer route projects away the internal ones (D8). */
export async function listLedger(db: Db, tenantId: string, filters: LedgerFilters, page: PageQuery): Promise<Page<LedgerRow>> {
  const c = decodeCursor(page.cursor, ['seq']);
  const rows = await ledgerPageWithRunningBalance(db, tenantId, filters, c ? BigInt(c.seq) : null, page.limit + 1);
  return toPage(rows, page.limit, toRow, (r) => ({ seq: r.seq.toString() }));
}

export interface LedgerVerdict extends ChainVerification {
  /** Why verification failed, in words; null when verified. */
  reason: string | null;
}

/** A stored ledger row as the seal sees it: its sealed columns plus the chain links. */
export function sealedRowOf(r: LedgerDbRow): SealedLedgerRow {
  return {
    prevHash: r.prev_hash,
    sealHash: r.seal_hash,
    ...ledgerPayload({
      id: r.id,
      tenantId: r.tenant_id,
      projectId: r.project_id,
      eventType: r.event_type,
      amountMicros: r.amount_micros,
      balanceAfterMicros: r.balance_after_micros,
      modelId: r.model_id,
      providerKey: r.provider_key,
      benchmarkProvider: r.benchmark_provider,
      benchmarkMethodologyVersion: r.benchmark_methodology_version,
      actualCostUsdMicros: r.actual_cost_usd_micros,
      baselineCostUsdMicros: r.baseline_cost_usd_micros,
      benchmarkPricingVersion: r.benchmark_pricing_version,
      createdAt: r.created_at.toISOString(),
    }),
  };
}

/**
 * Recompute HMAC-SHA256(secret, prevHash || canonical payload) over the tenant's whole chain (D8),
 * in seq order, `batch` rows at a time so memory stays flat however long the chain is. Then the
 * wallet's chain head must match the last entry: a truncated tail breaks no link but shows here.
 */
export async function verifyLedger(db: Db, secret: Buffer, tenantId: string, batch = 1000): Promise<LedgerVerdict> {
  const head = await walletChainHead(db, tenantId);
  if (!head) return { verified: true, firstBroken: null, checked: 0, reason: null };
  let prev = GENESIS_HASH;
  let after = 0n;
  let checked = 0;
  let last: LedgerDbRow | null = null;
  for (;;) {
    const rows = await entriesInSpan(db, tenantId, after, head.ledger_seq, batch);
    if (rows.length === 0) break;
    const verdict = verifyChain(
      rows.map(sealedRowOf),
      secret,
      prev,
    );
    if (!verdict.verified) {
      return { verified: false, firstBroken: verdict.firstBroken, checked: checked + verdict.checked, reason: 'the entry does not carry the seal of its contents and predecessor' };
    }
    checked += rows.length;
    last = rows[rows.length - 1];
    prev = last.seal_hash;
    after = last.seq;
    if (rows.length < batch) break;
  }
  const headMatches =
    BigInt(checked) === head.ledger_seq &&
    (last === null ? head.last_seal_hash === GENESIS_HASH : last.seal_hash === head.last_seal_hash && last.seq === head.ledger_seq);
  if (!headMatches) {
    return { verified: false, firstBroken: null, checked, reason: 'the wallet chain head does not match the last entry: entries are missing' };
  }
  // The wallet moves only with its ledger, so its balance must be the last entry's balance after.
  if ((last?.balance_after_micros ?? 0n) !== head.balance_micros) {
    return { verified: false, firstBroken: null, checked, reason: 'the wallet balance does not match the ledger' };
  }
  return { verified: true, firstBroken: null, checked, reason: null };
}

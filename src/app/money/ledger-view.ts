// Reading the ledger (D8, D9): filtered, cursor-paginated listing with a server-computed running
// balance, and chain verification streamed in batches.
//
// Running balance: the wallet's balance after each entry, i.e. the sum of every amount of the
// tenant's chain up to that entry. It is computed from the chain, seeded from the first row of the
// page's seq span (its sealed balance before = balanceAfter − amount) plus a running sum over every
// entry of the span, filtered out or not. So a row's running balance never depends on the filters
// or the page it appears on, and equals its sealed balanceAfterMicros on an untampered ledger.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { LedgerEntriesTable } from '../../store/schema.ts';
import type { Db } from '../../store/db.ts';
import { GENESIS_HASH, verifyChain, type ChainVerification } from '../../core/ledger/seal.ts';
import type { SealedLedgerRow } from '../../core/ledger/payload.ts';
import { ledgerPayload, type LedgerEventType } from './ledger.ts';
import { decodeCursor, toPage, type Page, type PageQuery } from '../shared/pagination.ts';

export const LEDGER_EVENT_TYPES = ['WALLET_TOPUP', 'AI_USAGE', 'REFUND', 'ADJUSTMENT'] as const satisfies readonly LedgerEventType[];

export interface LedgerFilters {
  types?: LedgerEventType[];
  projectId?: string;
  /** Inclusive lower bound on createdAt. */
  from?: Date;
  /** Exclusive upper bound on createdAt. */
  to?: Date;
  /** Bounds (inclusive) on the size of the movement, |amountMicros|: the direction is chosen with `types`. */
  minAmount?: bigint;
  maxAmount?: bigint;
}

export interface LedgerRow {
  id: string;
  tenantId: string;
  projectId: string | null;
  seq: bigint;
  eventType: LedgerEventType;
  customerLabel: string;
  amountMicros: bigint;
  balanceAfterMicros: bigint;
  runningBalanceMicros: bigint;
  modelId: string | null;
  providerKey: string | null;
  benchmarkProvider: string | null;
  benchmarkMethodologyVersion: string | null;
  actualCostUsdMicros: bigint | null;
  baselineCostUsdMicros: bigint | null;
  benchmarkPricingVersion: string | null;
  callId: string | null;
  memo: string | null;
  sealHash: string;
  prevHash: string;
  createdAt: string;
}

/** A ledger_entries row as the database returns it (the table type, not a copy of it). */
export type LedgerDbRow = Selectable<LedgerEntriesTable>;

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
  const conds: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`];
  if (filters.types?.length) conds.push(sql`event_type in (${sql.join(filters.types)})`);
  if (filters.projectId) conds.push(sql`project_id = ${filters.projectId}`);
  if (filters.from) conds.push(sql`created_at >= ${filters.from}`);
  if (filters.to) conds.push(sql`created_at < ${filters.to}`);
  if (filters.minAmount !== undefined) conds.push(sql`abs(amount_micros) >= ${filters.minAmount}::bigint`);
  if (filters.maxAmount !== undefined) conds.push(sql`abs(amount_micros) <= ${filters.maxAmount}::bigint`);
  if (c) conds.push(sql`seq < ${BigInt(c.seq)}::bigint`);
  const rows = await sql<LedgerDbRow & { running_balance_micros: bigint }>`
    with page as (
      select * from ledger_entries where ${sql.join(conds, sql` and `)}
      order by seq desc limit ${page.limit + 1}),
    span as (select min(seq) as lo, max(seq) as hi from page),
    seed as (
      select f.balance_after_micros - f.amount_micros as before
        from ledger_entries f, span where f.tenant_id = ${tenantId} and f.seq = span.lo),
    run as (
      select l.seq, (seed.before + sum(l.amount_micros) over (order by l.seq))::bigint as running_balance_micros
        from ledger_entries l, span, seed
       where l.tenant_id = ${tenantId} and l.seq between span.lo and span.hi)
    select page.*, run.running_balance_micros from page join run on run.seq = page.seq
    order by page.seq desc`.execute(db);
  return toPage(rows.rows, page.limit, toRow, (r) => ({ seq: r.seq.toString() }));
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
  const head = await db
    .selectFrom('wallets')
    .select(['ledger_seq', 'last_seal_hash', 'balance_micros'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!head) return { verified: true, firstBroken: null, checked: 0, reason: null };
  let prev = GENESIS_HASH;
  let after = 0n;
  let checked = 0;
  let last: LedgerDbRow | null = null;
  for (;;) {
    const rows = await db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('seq', '>', after)
      .where('seq', '<=', head.ledger_seq)
      .orderBy('seq', 'asc')
      .limit(batch)
      .execute();
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

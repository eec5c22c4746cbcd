// The money domain's statements that read the ledger (docs/layout.md: SQL in *.repo.ts;
// ledger-view.ts keeps the paging, the row shape and the chain verdict).
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { LedgerEntriesTable } from '../../store/schema.ts';
import type { Executor } from '../../store/db.ts';
import type { LedgerEventType } from './ledger.ts';

/** A ledger_entries row as the database returns it (the table type, not a copy of it). */
export type LedgerDbRow = Selectable<LedgerEntriesTable>;

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

/**
 * Up to `limit` entries below `beforeSeq` (newest first) matching the filters, each with the
 * running balance computed over its page's whole seq span (filtered out or not), seeded from the
 * sealed balance before the span's first row.
 */
export async function ledgerPageWithRunningBalance(db: Executor, tenantId: string, filters: LedgerFilters, beforeSeq: bigint | null, limit: number) {
  const conds: RawBuilder<unknown>[] = [sql`tenant_id = ${tenantId}`];
  if (filters.types?.length) conds.push(sql`event_type in (${sql.join(filters.types)})`);
  if (filters.projectId) conds.push(sql`project_id = ${filters.projectId}`);
  if (filters.from) conds.push(sql`created_at >= ${filters.from}`);
  if (filters.to) conds.push(sql`created_at < ${filters.to}`);
  if (filters.minAmount !== undefined) conds.push(sql`abs(amount_micros) >= ${filters.minAmount}::bigint`);
  if (filters.maxAmount !== undefined) conds.push(sql`abs(amount_micros) <= ${filters.maxAmount}::bigint`);
  if (beforeSeq !== null) conds.push(sql`seq < ${beforeSeq}::bigint`);
  const rows = await sql<LedgerDbRow & { running_balance_micros: bigint }>`
    with page as (
      select * from ledger_entries where ${sql.join(conds, sql` and `)}
      order by seq desc limit ${limit}),
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
  return rows.rows;
}

export async function walletChainHead(db: Executor, tenantId: string) {
  return db.selectFrom('wallets').select(['ledger_seq', 'last_seal_hash', 'balance_micros']).where('tenant_id', '=', tenantId).executeTakeFirst();
}

/** Whole rows in (after, upTo], in sequence order, at most `limit`. */
export async function entriesInSpan(db: Executor, tenantId: string, after: bigint, upTo: bigint, limit: number): Promise<LedgerDbRow[]> {
  return db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

// The money domain's statements on ledger checkpoints and the export's reads of the chain
// (docs/layout.md: SQL in *.repo.ts; checkpoints.ts keeps the digest, the signing and the export).
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { LedgerEntriesTable } from '../../store/schema.ts';

export type EntryRow = Pick<
  Selectable<LedgerEntriesTable>,
  'seq' | 'id' | 'created_at' | 'customer_label' | 'project_id' | 'amount_micros' | 'balance_after_micros' | 'benchmark_provider' | 'prev_hash' | 'seal_hash'
>;
const ENTRY_COLUMNS = ['seq', 'id', 'created_at', 'customer_label', 'project_id', 'amount_micros', 'balance_after_micros', 'benchmark_provider', 'prev_hash', 'seal_hash'] as const;

/** The exported columns of the tenant's rows in (after, upTo], in sequence order, at most `limit`. */
export async function exportRowsInSpan(db: Executor, tenantId: string, after: bigint, upTo: bigint, limit: number): Promise<EntryRow[]> {
  return db
    .selectFrom('ledger_entries')
    .select(ENTRY_COLUMNS)
    .where('tenant_id', '=', tenantId)
    .where('seq', '>', after)
    .where('seq', '<=', upTo)
    .orderBy('seq', 'asc')
    .limit(limit)
    .execute();
}

/** The highest committed sequence number of the tenant's chain. */
export async function highestSeq(db: Executor, tenantId: string) {
  return db.selectFrom('ledger_entries').select(['seq']).where('tenant_id', '=', tenantId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

/** The newest checkpoint at or below `seq`. */
export async function checkpointAtOrBelow(db: Executor, tenantId: string, seq: bigint) {
  return db
    .selectFrom('ledger_checkpoints')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('sequence', '<=', seq)
    .orderBy('sequence', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Stores a signed checkpoint; a concurrent one at the same (tenant, sequence) wins silently. */
export async function insertCheckpoint(
  db: Executor,
  v: { tenantId: string; sequence: bigint; sealHash: string; balanceMicros: bigint; chainDigest: string; keyId: string; signature: string; at: Date },
): Promise<void> {
  await db
    .insertInto('ledger_checkpoints')
    .values({
      tenant_id: v.tenantId,
      sequence: v.sequence,
      seal_hash: v.sealHash,
      balance_micros: v.balanceMicros,
      chain_digest: v.chainDigest,
      key_id: v.keyId,
      signature: v.signature,
      created_at: v.at,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'sequence']).doNothing())
    .execute();
}

export async function checkpointAt(db: Executor, tenantId: string, sequence: bigint) {
  return db.selectFrom('ledger_checkpoints').selectAll().where('tenant_id', '=', tenantId).where('sequence', '=', sequence).executeTakeFirstOrThrow();
}

/** Tenants whose ledger moved past their last checkpoint. */
export async function tenantsWithUncheckpointedEntries(db: Executor): Promise<{ tenant_id: string }[]> {
  const moved = await sql<{ tenant_id: string }>`
    select w.tenant_id from wallets w
     where w.ledger_seq > coalesce((select max(c.sequence) from ledger_checkpoints c where c.tenant_id = w.tenant_id), 0)`.execute(db);
  return moved.rows;
}

/** Newest first, below `beforeSeq` when given, at most `limit`. */
export async function checkpointsPage(db: Executor, tenantId: string, beforeSeq: bigint | null, limit: number) {
  let q = db.selectFrom('ledger_checkpoints').selectAll().where('tenant_id', '=', tenantId);
  if (beforeSeq !== null) q = q.where('sequence', '<', beforeSeq);
  return q.orderBy('sequence', 'desc').limit(limit).execute();
}

/** Every checkpoint up to `upTo`, oldest first. */
export async function checkpointsUpTo(db: Executor, tenantId: string, upTo: bigint) {
  return db.selectFrom('ledger_checkpoints').selectAll().where('tenant_id', '=', tenantId).where('sequence', '<=', upTo).orderBy('sequence', 'asc').execute();
}

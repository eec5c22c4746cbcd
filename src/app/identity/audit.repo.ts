// The security audit's statements (docs/layout.md: SQL in *.repo.ts; audit.ts keeps the sealing).
import { sql, type Insertable } from 'kysely';
import type { SecurityAuditTable } from '../../store/schema.ts';
import type { Executor } from '../../store/db.ts';

/** Appends to one user's chain run one after the other: this lock lasts until the transaction ends. */
export async function lockUserChain(tx: Executor, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${'audit:' + userId}, 0))`.execute(tx);
}

export async function chainHead(tx: Executor, userId: string) {
  return tx.selectFrom('security_audit').select(['seq', 'seal_hash']).where('user_id', '=', userId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

export async function insertAuditRow(tx: Executor, row: Insertable<SecurityAuditTable>): Promise<void> {
  await tx.insertInto('security_audit').values(row).execute();
}

/** One page of a user's audit, newest first, below `beforeSeq`. */
export async function auditPage(db: Executor, userId: string, beforeSeq: bigint | null, limit: number) {
  let q = db.selectFrom('security_audit').selectAll().where('user_id', '=', userId);
  if (beforeSeq !== null) q = q.where('seq', '<', beforeSeq);
  return q.orderBy('seq', 'desc').limit(limit).execute();
}

export async function auditChain(db: Executor, userId: string) {
  return db.selectFrom('security_audit').selectAll().where('user_id', '=', userId).orderBy('seq', 'asc').execute();
}

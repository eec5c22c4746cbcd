// The money domain's statements on invoices (docs/layout.md: SQL in *.repo.ts; invoices.ts keeps
// the view and the PDF).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

const base = (db: Executor, tenantId: string) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('topups as t', 't.id', 'i.topup_id')
    .select(['i.id', 'i.number', 'i.topup_id', 'i.amount_micros', 'i.currency', 'i.description', 'i.billed_to', 'i.payment_ref', 't.processor', 'i.issued_at'])
    .where('i.tenant_id', '=', tenantId);

/** Newest first, after the invoice `afterId` when given, at most `limit`. */
export async function invoicesPage(db: Executor, tenantId: string, afterId: string | null, limit: number) {
  let q = base(db, tenantId);
  if (afterId !== null) q = q.where(sql<boolean>`(i.issued_at, i.id) < (select issued_at, id from invoices where id = ${afterId}::uuid)`);
  return q.orderBy('i.issued_at', 'desc').orderBy('i.id', 'desc').limit(limit).execute();
}

export async function invoiceById(db: Executor, tenantId: string, id: string) {
  return base(db, tenantId).where('i.id', '=', id).executeTakeFirst();
}

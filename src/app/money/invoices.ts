// Invoices (D11): one per credited top-up, listed per tenant and rendered as a PDF on request.
import { sql } from 'kysely';
import type { Db } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { renderInvoicePdf } from '../../infra/pdf/invoice-pdf.ts';
import { decodeCursor, toPage, type Page, type PageQuery } from '../shared/pagination.ts';

export interface InvoiceView {
  id: string;
  number: string;
  topupId: string;
  amountMicros: bigint;
  currency: string;
  description: string;
  billedTo: string;
  processor: string;
  issuedAt: string;
}

type Row = {
  id: string;
  number: string;
  topup_id: string;
  amount_micros: bigint;
  currency: string;
  description: string;
  billed_to: string;
  payment_ref: string | null;
  processor: string;
  issued_at: Date;
};

const toView = (r: Row): InvoiceView => ({
  id: r.id,
  number: r.number,
  topupId: r.topup_id,
  amountMicros: r.amount_micros,
  currency: r.currency,
  description: r.description,
  billedTo: r.billed_to,
  processor: r.processor,
  issuedAt: r.issued_at.toISOString(),
});

const base = (db: Db, tenantId: string) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('topups as t', 't.id', 'i.topup_id')
    .select(['i.id', 'i.number', 'i.topup_id', 'i.amount_micros', 'i.currency', 'i.description', 'i.billed_to', 'i.payment_ref', 't.processor', 'i.issued_at'])
    .where('i.tenant_id', '=', tenantId);

/** Newest first. */
export async function listInvoices(db: Db, tenantId: string, page: PageQuery): Promise<Page<InvoiceView>> {
  const c = decodeCursor(page.cursor, ['id']);
  let q = base(db, tenantId);
  if (c) q = q.where(sql<boolean>`(i.issued_at, i.id) < (select issued_at, id from invoices where id = ${c.id}::uuid)`);
  const rows = await q.orderBy('i.issued_at', 'desc').orderBy('i.id', 'desc').limit(page.limit + 1).execute();
  return toPage(rows as Row[], page.limit, toView, (r) => ({ id: r.id }));
}

export async function invoicePdf(db: Db, tenantId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
  const r = (await base(db, tenantId).where('i.id', '=', id).executeTakeFirst()) as Row | undefined;
  if (!r) throw appError('not_found', 'Invoice not found');
  const pdf = await renderInvoicePdf({
    number: r.number,
    issuedAt: r.issued_at,
    billedTo: r.billed_to,
    description: r.description,
    amountMicros: r.amount_micros,
    currency: r.currency,
    processor: r.processor,
    paymentRef: r.payment_ref,
  });
  return { number: r.number, pdf };
}

// Invoices (D11): one per credited top-up, listed per tenant and rendered as a PDF on request.
import type { Db } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { renderInvoicePdf } from '../../infra/pdf/invoice-pdf.ts';
import { decodeCursor, toPage, type Page, type PageQuery } from '../shared/index.ts';
import { invoiceById, invoicesPage } from './invoices.repo.ts';

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

/** Newest first. */
export async function listInvoices(db: Db, tenantId: string, page: PageQuery): Promise<Page<InvoiceView>> {
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await invoicesPage(db, tenantId, c ? c.id : null, page.limit + 1);
  return toPage(rows as Row[], page.limit, toView, (r) => ({ id: r.id }));
}

export async function invoicePdf(db: Db, tenantId: string, id: string): Promise<{ number: string; pdf: Buffer }> {
  const r = (await invoiceById(db, tenantId, id)) as Row | undefined;
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

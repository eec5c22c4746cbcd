// One invoice per top-up, rendered on request from the invoice row with pdfkit. Content streams
// are left uncompressed: the documents are tiny, and plain streams stay greppable and diffable.
import { formatMicrosAsUsd } from '../../core/pricing/cost.ts';
import { formatUsd2 } from '../../core/money.ts';

export interface InvoiceDocument {
  number: string;
  issuedAt: Date;
  billedTo: string;
  description: string;
  amountMicros: bigint;
  currency: string;
  processor: string;
  paymentRef: string | null;
}

export async function renderInvoicePdf(inv: InvoiceDocument): Promise<Buffer> {
  // Loaded on the first invoice, not at start-up: pdfkit and its font tables are megabytes of
  // memory that a serving process needs only when someone downloads an invoice.
  const { default: PDFDocument } = await import('pdfkit');
  const usd = formatUsd2(inv.amountMicros);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    compress: false,
    info: {
      Title: `Invoice ${inv.number}`,
      Subject: `Switchboard wallet top-up, ${inv.currency} ${usd}`,
      Author: 'Switchboard',
      CreationDate: inv.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(22).text('Switchboard');
  doc.font('Helvetica').fontSize(10).fillColor('#555').text('AI delivery middleware');
  doc.moveDown(2);
  doc.fillColor('#000').font('Helvetica-Bold').fontSize(16).text(`Invoice ${inv.number}`);
  doc.font('Helvetica').fontSize(11);
  doc.text(`Issued: ${inv.issuedAt.toISOString().slice(0, 10)}`);
  doc.text(`Billed to: ${inv.billedTo}`);
  doc.moveDown(1.5);
  doc.font('Helvetica-Bold').text('Description');
  doc.font('Helvetica').text(inv.description);
  doc.text(`Wallet tokens credited: ${inv.amountMicros.toString()} (1 token = 1 USD micro)`);
  doc.moveDown(1);
  doc.font('Helvetica-Bold').fontSize(14).text(`Total paid: ${inv.currency} ${usd}`);
  doc.font('Helvetica').fontSize(10).text(`Exact amount: ${inv.currency} ${formatMicrosAsUsd(inv.amountMicros)}`);
  doc.moveDown(1);
  doc.fontSize(10).text(`Payment: ${inv.processor === 'sandbox' ? 'Sandbox payment — no real money' : 'Card via Stripe'}`);
  if (inv.paymentRef) doc.text(`Payment reference: ${inv.paymentRef}`);
  doc.end();
  return done;
}

// GET /api/tenant/invoices (paginated, newest first) and GET /api/tenant/invoices/:id/pdf (D11).
// Any member reads. The PDF route answers application/pdf bytes, so it has no JSON response schema.
import { z } from 'zod';
import { invoicePdf, listInvoices } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, idParams, microsString, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

export const invoice = z.object({
  id: z.string(),
  number: z.string(),
  topupId: z.string(),
  amountMicros: microsString,
  currency: z.string(),
  description: z.string(),
  billedTo: z.string(),
  processor: z.string(),
  issuedAt: z.string(),
  pdfUrl: z.string(),
});

const route: RouteModule = (app, s) => {
  app.get('/api/tenant/invoices', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(invoice)) } }, onRequest: requireAuth(s) }, async (req) => {
    const page = await listInvoices(s.db, authOf(req).tenantId, req.query);
    return ok({
      items: page.items.map((i) => ({ ...i, amountMicros: i.amountMicros.toString(), pdfUrl: `/api/tenant/invoices/${i.id}/pdf` })),
      nextCursor: page.nextCursor,
    });
  });
  app.get('/api/tenant/invoices/:id/pdf', { schema: { params: idParams }, onRequest: requireAuth(s) }, async (req, reply) => {
    const { number, pdf } = await invoicePdf(s.db, authOf(req).tenantId, req.params.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${number}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  });
};
export default route;

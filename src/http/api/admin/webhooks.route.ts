// The admin console's webhook dashboard (spec §6, issue 18 item 8): deliveries across tenants with
// their attempts, and a summary of the last 24 hours. Platform admins only; read-only (replay is
// the tenant admins' own action, D10a).
import { z } from 'zod';
import { deliverySummary, getAnyDelivery, listAllDeliveries } from '../../../app/events/index.ts';
import { appError } from '../../../core/errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { deliveryDetail, eventTypeSchema } from '../webhooks/schemas.ts';

const status = z.enum(['pending', 'succeeded', 'failed']);
const deliveriesQuery = pageQuerySchema.extend({
  status: status.optional(),
  tenantId: z.uuid({ message: 'must be a UUID' }).optional(),
  eventType: eventTypeSchema.optional(),
});
const summaryQuery = z.strictObject({ hours: z.coerce.number().int().min(1).max(24 * 90).default(24) });

const adminDelivery = z.object({
  id: z.string(),
  tenantId: z.string(),
  tenantName: z.string(),
  webhookId: z.string(),
  webhookUrl: z.string().nullable(),
  eventType: z.string(),
  status,
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});
const adminDeliveryDetail = adminDelivery.extend({ body: deliveryDetail.shape.body, attemptLog: deliveryDetail.shape.attemptLog });
const summary = z.object({
  since: z.string(),
  byStatus: z.object({ pending: z.number(), succeeded: z.number(), failed: z.number() }),
  failingTenants: z.array(z.object({ tenantId: z.string(), tenantName: z.string(), failed: z.number(), lastFailedAt: z.string() })),
});

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { platformAdmin: true });
  app.get('/api/admin/webhooks/deliveries', { schema: { querystring: deliveriesQuery, response: { 200: envelope(pageOf(adminDelivery)) } }, onRequest: admin }, async (req) => {
    const { limit, cursor, ...filters } = req.query;
    return ok(await listAllDeliveries(s.db, filters, { limit, cursor }));
  });
  app.get('/api/admin/webhooks/deliveries/:id', { schema: { params: idParams, response: { 200: envelope(adminDeliveryDetail) } }, onRequest: admin }, async (req) => {
    const d = await getAnyDelivery(s.db, req.params.id);
    if (!d) throw appError('not_found', 'No webhook delivery has this id');
    return ok(d);
  });
  app.get('/api/admin/webhooks/summary', { schema: { querystring: summaryQuery, response: { 200: envelope(summary) } }, onRequest: admin }, async (req) =>
    ok(await deliverySummary(s.db, new Date(s.clock.now().getTime() - req.query.hours * 3_600_000))),
  );
};
export default route;

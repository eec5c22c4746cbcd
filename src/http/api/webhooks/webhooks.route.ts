// Webhooks (spec §4, D10): registration and management (admins and owners), the delivery log
// (any member), replay (admins and owners). The secret appears only in the answers to creation
// and rotation.
import {
  createWebhook,
  deleteWebhook,
  getDelivery,
  getWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from '../../../app/events/index.ts';
import { replayAnyDelivery } from '../../../app/events/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { createWebhookBody, delivery, deliveryDetail, patchWebhookBody, webhook, webhookWithSecret, withSecret } from './schemas.ts';

const route: RouteModule = (app, s) => {
  const admin = requireAuth(s, { role: 'admin' });
  const member = requireAuth(s);

  app.get('/api/webhooks', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(webhook)) } }, onRequest: member }, async (req) =>
    ok(await listWebhooks(s, authOf(req).tenantId, req.query)),
  );
  app.post('/api/webhooks', { schema: { body: createWebhookBody, response: { 201: envelope(webhookWithSecret) } }, onRequest: admin }, async (req, reply) =>
    reply.status(201).send(ok(withSecret(await createWebhook(s, authOf(req), req.body)))),
  );
  app.get('/api/webhooks/:id', { schema: { params: idParams, response: { 200: envelope(webhook) } }, onRequest: member }, async (req) =>
    ok(await getWebhook(s, authOf(req).tenantId, req.params.id)),
  );
  app.patch('/api/webhooks/:id', { schema: { params: idParams, body: patchWebhookBody, response: { 200: envelope(webhook) } }, onRequest: admin }, async (req) =>
    ok(await updateWebhook(s, authOf(req).tenantId, req.params.id, req.body)),
  );
  app.delete('/api/webhooks/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: admin }, async (req) => {
    await deleteWebhook(s, authOf(req).tenantId, req.params.id);
    return ok({});
  });
  app.post('/api/webhooks/:id/rotate-secret', { schema: { params: idParams, response: { 200: envelope(webhookWithSecret) } }, onRequest: admin }, async (req) =>
    ok(withSecret(await rotateWebhookSecret(s, authOf(req).tenantId, req.params.id))),
  );
  app.get(
    '/api/webhooks/:id/deliveries',
    { schema: { params: idParams, querystring: pageQuerySchema, response: { 200: envelope(pageOf(delivery)) } }, onRequest: member },
    async (req) => ok(await listDeliveries(s, authOf(req).tenantId, req.params.id, req.query)),
  );
  app.get('/api/webhooks/deliveries/:id', { schema: { params: idParams, response: { 200: envelope(deliveryDetail) } }, onRequest: member }, async (req) =>
    ok(await getDelivery(s, authOf(req).tenantId, req.params.id)),
  );
  // Admins and owners replay the tenant's webhook deliveries; any member their own alert webhook's.
  app.post('/api/webhooks/deliveries/:id/replay', { schema: { params: idParams, response: { 202: envelope(delivery) } }, onRequest: member }, async (req, reply) =>
    reply.status(202).send(ok(await replayAnyDelivery(s, authOf(req), req.params.id))),
  );
};
export default route;

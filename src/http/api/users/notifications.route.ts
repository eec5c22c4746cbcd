// GET/PATCH /api/users/me/notifications: the signed-in user's alert and digest settings for the
// session's tenant (spec §1 /notifications). Setting a webhook URL returns its signing secret once.
// POST /api/users/me/notifications/test sends a test alert on the chosen channel, and
// GET /api/users/me/notifications/deliveries lists the user's alert-webhook deliveries with their
// attempts (replayed through POST /api/webhooks/deliveries/:id/replay, D10a).
import { getNotificationSettings, updateNotificationSettings } from '../../../app/events/index.ts';
import { listAlertDeliveries, sendTestAlert } from '../../../app/events/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { alertDelivery, notificationPatch, notificationSettings, testAlertResult } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/users/me/notifications', { schema: { response: { 200: envelope(notificationSettings) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(await getNotificationSettings(s, a.tenantId, a.userId));
  });
  app.patch('/api/users/me/notifications', { schema: { body: notificationPatch, response: { 200: envelope(notificationSettings) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(await updateNotificationSettings(s, a.tenantId, a.userId, req.body));
  });
  app.post('/api/users/me/notifications/test', { schema: { response: { 202: envelope(testAlertResult) } }, onRequest: requireAuth(s) }, async (req, reply) =>
    reply.status(202).send(ok(await sendTestAlert(s, authOf(req)))),
  );
  app.get(
    '/api/users/me/notifications/deliveries',
    { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(alertDelivery)) } }, onRequest: requireAuth(s) },
    async (req) => ok(await listAlertDeliveries(s, authOf(req), req.query)),
  );
};
export default route;

// GET/PATCH /api/users/me/notifications: the signed-in user's alert and digest settings for the
// session's tenant (spec §1 /notifications). Setting a webhook URL returns its signing secret once.
import { z } from 'zod';
import { ALERT_CHANNELS, DIGEST_CADENCES, getNotificationSettings, updateNotificationSettings } from '../../../app/events/notifications.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, nonNegativeMicros, ok, type RouteModule } from '../common.ts';

export const notificationSettings = z.object({
  balanceThresholdMicros: z.string().nullable(),
  runwayThresholdDays: z.number().nullable(),
  escalationAlert: z.boolean(),
  digestCadence: z.enum(DIGEST_CADENCES),
  webhookUrl: z.string().nullable(),
  channel: z.enum(ALERT_CHANNELS),
  /** Only right after webhookUrl was set or changed: the alert webhook's signing secret. */
  webhookSecret: z.string().optional(),
});

export const notificationPatch = z
  .strictObject({
    balanceThresholdMicros: nonNegativeMicros.nullable(),
    runwayThresholdDays: z.int().min(1).max(3650).nullable(),
    escalationAlert: z.boolean(),
    digestCadence: z.enum(DIGEST_CADENCES),
    webhookUrl: z.string().trim().min(1).max(2048).nullable(),
    channel: z.enum(ALERT_CHANNELS),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one field is required');

const route: RouteModule = (app, s) => {
  app.get('/api/users/me/notifications', { schema: { response: { 200: envelope(notificationSettings) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(await getNotificationSettings(s, a.tenantId, a.userId));
  });
  app.patch('/api/users/me/notifications', { schema: { body: notificationPatch, response: { 200: envelope(notificationSettings) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(await updateNotificationSettings(s, a.tenantId, a.userId, req.body));
  });
};
export default route;

// The /notifications screen's "send a test alert" button and the signed-in user's alert-webhook
// delivery log (issue 16 item 3). A test alert takes the very path of a real one (queueAlerts: the
// alerts.send mail job, or a signed delivery with the usual retries), so a green test means the
// real alerts arrive too. Its frame has type `alert.test` and never goes on a project stream.
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { TEST_ALERT_TYPE, type AlertChannel } from '../../core/notifications.ts';
import type { EventFrame } from './events.ts';
import { kickOutbox } from './events.ts';
import { defaultProjectOf } from './events.repo.ts';
import { getNotificationSettings, queueAlerts } from './notifications.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import * as repo from './alerts.repo.ts';
import { attemptsOfMany } from './webhooks.repo.ts';
import { toAttemptView } from './webhooks.ts';
import { replayDelivery, type AttemptView, type DeliveryView } from './webhooks.ts';

export interface TestAlertResult {
  channel: AlertChannel;
  /** The e-mail address or the webhook URL the alert went to. */
  to: string;
  /** The webhook delivery, to follow in the delivery log; null for e-mail. */
  deliveryId: string | null;
}

export async function sendTestAlert(s: Services, ctx: { tenantId: string; userId: string }): Promise<TestAlertResult> {
  const settings = await getNotificationSettings(s, ctx.tenantId, ctx.userId);
  const email = await repo.emailOfUser(s.db, ctx.userId);
  if (settings.channel === 'webhook' && !settings.webhookUrl) throw appError('validation', 'Set a webhook URL first, or choose e-mail as the channel', { field: 'webhookUrl' });
  const at = s.clock.now();
  const frame: EventFrame = {
    type: TEST_ALERT_TYPE,
    projectId: await defaultProjectOf(s.db, ctx.tenantId),
    tenantId: ctx.tenantId,
    actorUserId: ctx.userId,
    at: at.toISOString(),
    payload: { test: true, id: randomUUID(), message: 'A test alert from the Switchboard Notifications page.' },
  };
  const before = at;
  await s.db.transaction().execute((tx) => queueAlerts(s, tx, frame, [{ userId: ctx.userId, channel: settings.channel }]));
  kickOutbox(s);
  if (settings.channel === 'email') return { channel: 'email', to: email, deliveryId: null };
  const d = await repo.latestAlertDelivery(s.db, ctx.tenantId, ctx.userId, TEST_ALERT_TYPE, before);
  return { channel: 'webhook', to: settings.webhookUrl!, deliveryId: d?.id ?? null };
}

export type AlertDeliveryView = Omit<DeliveryView, 'webhookId'> & { attemptLog: AttemptView[] };

/** The user's alert-webhook deliveries in this tenant, newest first, each with its attempts. */
export async function listAlertDeliveries(s: Services, ctx: { tenantId: string; userId: string }, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await repo.alertDeliveryPage(s.db, ctx.tenantId, ctx.userId, c ? c.id : null, page.limit + 1);
  const ids = rows.map((r) => r.id);
  const attempts = ids.length ? await attemptsOfMany(s.db, ids) : [];
  return toPage(
    rows,
    page.limit,
    (r): AlertDeliveryView => ({
      id: r.id,
      eventType: r.event_type,
      event: r.event_type,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
      lastStatusCode: r.last_status_code,
      lastError: r.last_error,
      signature: r.signature,
      createdAt: r.created_at.toISOString(),
      completedAt: r.completed_at?.toISOString() ?? null,
      attemptLog: attempts
        .filter((a) => a.delivery_id === r.id)
        .map(toAttemptView),
    }),
    (r) => ({ id: r.id }),
  );
}

/**
 * POST /api/webhooks/deliveries/:id/replay for any member: a tenant webhook's delivery needs an
 * admin or owner (as before); a member's own alert-webhook delivery is theirs to replay (D10a).
 */
export async function replayAnyDelivery(s: Services, ctx: { tenantId: string; userId: string; role: string }, id: string): Promise<DeliveryView> {
  const d = await repo.deliveryOwner(s.db, ctx.tenantId, id);
  if (d && d.webhook_id === null && d.user_id === ctx.userId) return replayDelivery(s, ctx.tenantId, id, ctx.userId);
  if (d && d.webhook_id !== null && ctx.role !== 'owner' && ctx.role !== 'admin') throw appError('forbidden', 'Only owners and admins can replay webhook deliveries');
  return replayDelivery(s, ctx.tenantId, id);
}

// Webhooks (spec §6, D10): registration with a `whsec_` secret shown once, the delivery log and
// replay (D10a). Sending, retries and retention are in webhook-delivery.ts.
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { encryptSecret } from '../../core/secret-box.ts';
import { generateWebhookSecret } from '../../core/webhooks/signature.ts';
import { checkWebhookUrl } from '../../infra/webhook-client.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import { webhookSecretKey } from '../shared/index.ts';
import type { EventType } from './events.ts';
import * as repo from './webhooks.repo.ts';
import { DELIVERY_COLS, WEBHOOK_COLS } from './webhooks.repo.ts';

export const MAX_WEBHOOKS_PER_TENANT = 20;

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  /** The first characters of the secret, to tell secrets apart; the secret itself is shown once. */
  secretHint: string;
  createdAt: string;
  updatedAt: string;
}

type WebhookRow = {
  id: string;
  url: string;
  events: string[];
  description: string;
  enabled: boolean;
  secret_hint: string;
  created_at: Date;
  updated_at: Date;
};

const toWebhookView = (r: WebhookRow): WebhookView => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  enabled: r.enabled,
  secretHint: r.secret_hint,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const hintOf = (secret: string) => `${secret.slice(0, 10)}…`;
export const webhookAad = (id: string) => `webhook:${id}`;
export const userWebhookAad = (tenantId: string, userId: string) => `user-webhook:${tenantId}:${userId}`;

/** The URL rules of D10 at registration; every delivery checks the connected address again. */
export async function assertWebhookUrl(s: Services, url: string, field: string): Promise<void> {
  const reason = await checkWebhookUrl(url, s.config.ALLOW_PRIVATE_WEBHOOK_TARGETS);
  if (reason) throw appError('validation', `${field} ${reason}`, { field });
}

export interface WebhookInput {
  url: string;
  events: EventType[];
  description?: string;
}

export async function createWebhook(s: Services, ctx: { tenantId: string; userId: string }, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
  await assertWebhookUrl(s, input.url, 'url');
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const now = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    // The tenant row serialises concurrent creations, so the limit cannot be overshot.
    if ((await repo.lockTenantAndCountWebhooks(tx, ctx.tenantId)) >= MAX_WEBHOOKS_PER_TENANT) {
      throw appError('limit_reached', `A tenant can have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks`);
    }
    const row = await repo.insertWebhook(tx, {
      id,
      tenant_id: ctx.tenantId,
      url: input.url,
      events: [...new Set(input.events)],
      description: input.description ?? '',
      secret_enc: encryptSecret(webhookSecretKey(s.secrets), secret, webhookAad(id)),
      secret_hint: hintOf(secret),
      created_by: ctx.userId,
      created_at: now,
      updated_at: now,
    });
    return { webhook: toWebhookView(row), secret };
  });
}

export async function listWebhooks(s: Services, tenantId: string, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await repo.webhookPage(s.db, tenantId, c ? c.id : null, page.limit + 1);
  return toPage(rows, page.limit, toWebhookView, (r) => ({ id: r.id }));
}

export async function getWebhook(s: Services, tenantId: string, id: string): Promise<WebhookView> {
  const row = await repo.webhookRow(s.db, tenantId, id);
  if (!row) throw appError('not_found', 'Webhook not found');
  return toWebhookView(row);
}

export async function updateWebhook(
  s: Services,
  tenantId: string,
  id: string,
  input: Partial<WebhookInput> & { enabled?: boolean },
): Promise<WebhookView> {
  if (input.url !== undefined) await assertWebhookUrl(s, input.url, 'url');
  const set: Record<string, unknown> = { updated_at: s.clock.now() };
  if (input.url !== undefined) set.url = input.url;
  if (input.events !== undefined) set.events = [...new Set(input.events)];
  if (input.description !== undefined) set.description = input.description;
  if (input.enabled !== undefined) set.enabled = input.enabled;
  const row = await repo.updateWebhookRow(s.db, tenantId, id, set);
  if (!row) throw appError('not_found', 'Webhook not found');
  return toWebhookView(row);
}

/** Deleting a webhook deletes its delivery log and cancels its pending deliveries. */
export async function deleteWebhook(s: Services, tenantId: string, id: string): Promise<void> {
  if (!(await repo.deleteWebhookRow(s.db, tenantId, id))) throw appError('not_found', 'Webhook not found');
}

/** A new secret, effective at once for every later attempt (pending retries included). */
export async function rotateWebhookSecret(s: Services, tenantId: string, id: string): Promise<{ webhook: WebhookView; secret: string }> {
  const secret = generateWebhookSecret();
  const row = await repo.updateWebhookRow(s.db, tenantId, id, {
    secret_enc: encryptSecret(webhookSecretKey(s.secrets), secret, webhookAad(id)),
    secret_hint: hintOf(secret),
    updated_at: s.clock.now(),
  });
  if (!row) throw appError('not_found', 'Webhook not found');
  return { webhook: toWebhookView(row), secret };
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export interface DeliveryView {
  id: string;
  webhookId: string;
  eventType: string;
  /** The event name again, under the spec's word for it (§2 Webhook delivery: "event name"). */
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** X-Service-Signature of the latest attempt. */
  signature: string | null;
  createdAt: string;
  completedAt: string | null;
}

export interface AttemptView {
  attempt: number;
  trigger: 'scheduled' | 'replay';
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  succeeded: boolean;
}

/** One attempt of a delivery as every delivery view shows it (tenant, alert and admin views). */
export const toAttemptView = (a: {
  attempt: number;
  trigger: 'scheduled' | 'replay';
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  succeeded: boolean;
}): AttemptView => ({
  attempt: a.attempt,
  trigger: a.trigger,
  startedAt: a.started_at.toISOString(),
  durationMs: a.duration_ms,
  statusCode: a.status_code,
  error: a.error,
  responseExcerpt: a.response_excerpt,
  succeeded: a.succeeded,
});


type DeliveryRow = {
  id: string;
  webhook_id: string | null;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  signature: string | null;
  created_at: Date;
  completed_at: Date | null;
};

const toDeliveryView = (r: DeliveryRow): DeliveryView => ({
  id: r.id,
  webhookId: r.webhook_id ?? '',
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
});

export async function listDeliveries(s: Services, tenantId: string, webhookId: string, page: PageQuery) {
  await getWebhook(s, tenantId, webhookId);
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await repo.deliveryPage(s.db, tenantId, webhookId, c ? c.id : null, page.limit + 1);
  return toPage(rows, page.limit, toDeliveryView, (r) => ({ id: r.id }));
}

export async function getDelivery(s: Services, tenantId: string, id: string): Promise<DeliveryView & { body: string; attemptLog: AttemptView[] }> {
  const row = await repo.webhookDeliveryWithBody(s.db, tenantId, id);
  if (!row) throw appError('not_found', 'Delivery not found');
  const attempts = await repo.attemptsOf(s.db, id);
  return {
    ...toDeliveryView(row),
    body: row.body,
    attemptLog: attempts.map(toAttemptView),
  };
}

/**
 * D10a: replay any delivery whose latest attempt failed, at once, including one still waiting for
 * its next scheduled retry. The replay is a new attempt now (with the webhook's current URL and
 * secret). If it succeeds, the delivery is done and its pending retries are cancelled; if it
 * fails, a delivery that was still being retried keeps retrying on its schedule, and one that had
 * been dropped stays dropped. Replaying a delivery that succeeded, or one not attempted yet, is 409.
 */
export async function replayDelivery(s: Services, tenantId: string, id: string, alertOf?: string): Promise<DeliveryView> {
  const now = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    // A tenant webhook's delivery, or (alertOf) one of that user's own alert-webhook deliveries.
    const current = await repo.lockDeliveryForReplay(tx, tenantId, id, alertOf);
    if (!current) throw appError('not_found', 'Delivery not found');
    if (current.status === 'succeeded') throw appError('conflict', 'The delivery succeeded; there is nothing to replay');
    if (current.attempts === 0) throw appError('conflict', 'The delivery has not been attempted yet; it is sent shortly');
    // A dropped delivery keeps its completed_at until the replay's attempt: that is how the
    // attempt knows not to schedule retries after a failed replay.
    const row = await repo.markReplayRequested(tx, id, now);
    await s.jobs.deliverWebhooks(tx, [{ deliveryId: id }]);
    return toDeliveryView(row);
  });
}

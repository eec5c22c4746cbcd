// Webhooks (spec §6, D10): registration with a `whsec_` secret shown once, signed deliveries with
// retries at 1 m, 5 m, 30 m, 2 h and 12 h after the previous attempt (6 attempts, then dropped),
// every attempt logged, deliveries kept 30 days, and replay. The delivery row is the source of
// truth: a pg-boss job per due attempt makes it prompt, and a sweep every minute catches whatever
// a job missed (crash, clock skew). An attempt claims its row with a short lease, so a job and the
// sweep never send the same attempt twice.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Services } from '../shared/services.ts';
import type { Executor } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { decryptSecret, encryptSecret } from '../../core/secret-box.ts';
import { generateWebhookSecret, signDelivery } from '../../core/webhooks/signature.ts';
import { checkWebhookUrl, WEBHOOK_MAX_BODY_BYTES, WEBHOOK_TIMEOUT_MS } from '../../infra/webhook-client.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/pagination.ts';
import { webhookSecretKey } from '../shared/secrets.ts';
import type { EventType } from './events.ts';

export const MAX_WEBHOOKS_PER_TENANT = 20;
export const MAX_ATTEMPTS = 6;
/** Delay before attempt n+1 after attempt n failed (spec §6 and §8). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
/** Published outbox rows are only kept for inspection a little while. */
export const OUTBOX_RETENTION_MS = 24 * 3_600_000;
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 30_000;

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
const WEBHOOK_COLS = ['id', 'url', 'events', 'description', 'enabled', 'secret_hint', 'created_at', 'updated_at'] as const;

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
    await tx.selectFrom('tenants').select('id').where('id', '=', ctx.tenantId).forUpdate().executeTakeFirstOrThrow();
    const { n } = await tx.selectFrom('webhooks').select((eb) => eb.fn.countAll<string>().as('n')).where('tenant_id', '=', ctx.tenantId).executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOKS_PER_TENANT) {
      throw appError('limit_reached', `A tenant can have at most ${MAX_WEBHOOKS_PER_TENANT} webhooks`);
    }
    const row = await tx
      .insertInto('webhooks')
      .values({
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
      })
      .returning(WEBHOOK_COLS)
      .executeTakeFirstOrThrow();
    return { webhook: toWebhookView(row), secret };
  });
}

export async function listWebhooks(s: Services, tenantId: string, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  let q = s.db.selectFrom('webhooks').select(WEBHOOK_COLS).where('tenant_id', '=', tenantId);
  if (c) q = q.where(sql<boolean>`(created_at, id) > (select created_at, id from webhooks where id = ${c.id}::uuid)`);
  const rows = await q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(page.limit + 1).execute();
  return toPage(rows, page.limit, toWebhookView, (r) => ({ id: r.id }));
}

export async function getWebhook(s: Services, tenantId: string, id: string): Promise<WebhookView> {
  const row = await s.db.selectFrom('webhooks').select(WEBHOOK_COLS).where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
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
  const row = await s.db.updateTable('webhooks').set(set).where('id', '=', id).where('tenant_id', '=', tenantId).returning(WEBHOOK_COLS).executeTakeFirst();
  if (!row) throw appError('not_found', 'Webhook not found');
  return toWebhookView(row);
}

/** Deleting a webhook deletes its delivery log and cancels its pending deliveries. */
export async function deleteWebhook(s: Services, tenantId: string, id: string): Promise<void> {
  const r = await s.db.deleteFrom('webhooks').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (r.numDeletedRows === 0n) throw appError('not_found', 'Webhook not found');
}

/** A new secret, effective at once for every later attempt (pending retries included). */
export async function rotateWebhookSecret(s: Services, tenantId: string, id: string): Promise<{ webhook: WebhookView; secret: string }> {
  const secret = generateWebhookSecret();
  const row = await s.db
    .updateTable('webhooks')
    .set({ secret_enc: encryptSecret(webhookSecretKey(s.secrets), secret, webhookAad(id)), secret_hint: hintOf(secret), updated_at: s.clock.now() })
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .returning(WEBHOOK_COLS)
    .executeTakeFirst();
  if (!row) throw appError('not_found', 'Webhook not found');
  return { webhook: toWebhookView(row), secret };
}

// ---------------------------------------------------------------------------------------------
// Deliveries

export interface DeliveryView {
  id: string;
  webhookId: string;
  eventType: string;
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

const DELIVERY_COLS = [
  'd.id',
  'd.webhook_id',
  'd.event_type',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_status_code',
  'd.last_error',
  'd.signature',
  'd.created_at',
  'd.completed_at',
] as const;

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
  let q = s.db.selectFrom('webhook_deliveries as d').select(DELIVERY_COLS).where('d.webhook_id', '=', webhookId).where('d.tenant_id', '=', tenantId);
  if (c) q = q.where(sql<boolean>`(d.created_at, d.id) < (select created_at, id from webhook_deliveries where id = ${c.id}::uuid)`);
  const rows = await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(page.limit + 1).execute();
  return toPage(rows, page.limit, toDeliveryView, (r) => ({ id: r.id }));
}

export async function getDelivery(s: Services, tenantId: string, id: string): Promise<DeliveryView & { body: string; attemptLog: AttemptView[] }> {
  const row = await s.db
    .selectFrom('webhook_deliveries as d')
    .select([...DELIVERY_COLS, 'd.body'])
    .where('d.id', '=', id)
    .where('d.tenant_id', '=', tenantId)
    .where('d.webhook_id', 'is not', null)
    .executeTakeFirst();
  if (!row) throw appError('not_found', 'Delivery not found');
  const attempts = await s.db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', id).orderBy('attempt').execute();
  return {
    ...toDeliveryView(row),
    body: row.body,
    attemptLog: attempts.map((a) => ({
      attempt: a.attempt,
      trigger: a.trigger,
      startedAt: a.started_at.toISOString(),
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      responseExcerpt: a.response_excerpt,
      succeeded: a.succeeded,
    })),
  };
}

/**
 * D10a: replay any delivery whose latest attempt failed, at once, including one still waiting for
 * its next scheduled retry. The replay is a new attempt now (with the webhook's current URL and
 * secret). If it succeeds, the delivery is done and its pending retries are cancelled; if it
 * fails, a delivery that was still being retried keeps retrying on its schedule, and one that had
 * been dropped stays dropped. Replaying a delivery that succeeded, or one not attempted yet, is 409.
 */
export async function replayDelivery(s: Services, tenantId: string, id: string): Promise<DeliveryView> {
  const now = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    const current = await tx
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .where('webhook_id', 'is not', null)
      .forUpdate()
      .executeTakeFirst();
    if (!current) throw appError('not_found', 'Delivery not found');
    if (current.status === 'succeeded') throw appError('conflict', 'The delivery succeeded; there is nothing to replay');
    if (current.attempts === 0) throw appError('conflict', 'The delivery has not been attempted yet; it is sent shortly');
    // A dropped delivery keeps its completed_at until the replay's attempt: that is how the
    // attempt knows not to schedule retries after a failed replay.
    const row = await tx
      .updateTable('webhook_deliveries as d')
      .set({ status: 'pending', replay_requested: true, next_attempt_at: now })
      .where('d.id', '=', id)
      .returning(DELIVERY_COLS)
      .executeTakeFirstOrThrow();
    await s.jobs.deliverWebhooks(tx, [{ deliveryId: id }]);
    return toDeliveryView(row);
  });
}

/** When the attempt after `attempt` failed ones is due, or null when the delivery is dropped. */
export function nextAttemptAt(attempt: number, finishedAt: Date): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return new Date(finishedAt.getTime() + RETRY_DELAYS_MS[attempt - 1]);
}

async function targetOf(s: Services, d: { tenant_id: string; webhook_id: string | null; user_id: string | null }): Promise<{ url: string; secret: string } | string> {
  const key = webhookSecretKey(s.secrets);
  if (d.webhook_id) {
    const w = await s.db.selectFrom('webhooks').select(['url', 'secret_enc', 'enabled']).where('id', '=', d.webhook_id).executeTakeFirst();
    if (!w) return 'the webhook was deleted';
    if (!w.enabled) return 'the webhook is disabled';
    return { url: w.url, secret: decryptSecret(key, w.secret_enc, webhookAad(d.webhook_id)) };
  }
  const n = await s.db
    .selectFrom('notification_settings')
    .select(['webhook_url', 'webhook_secret_enc'])
    .where('tenant_id', '=', d.tenant_id)
    .where('user_id', '=', d.user_id!)
    .executeTakeFirst();
  if (!n?.webhook_url || !n.webhook_secret_enc) return 'the alert webhook URL was removed';
  return { url: n.webhook_url, secret: decryptSecret(key, n.webhook_secret_enc, userWebhookAad(d.tenant_id, d.user_id!)) };
}

type AttemptResult = { ok: boolean; statusCode: number | null; error: string | null; durationMs: number; excerpt: string | null };
const failure = (error: string): AttemptResult => ({ ok: false, statusCode: null, error, durationMs: 0, excerpt: null });

/** Sign and send one attempt; `permanent` failures end the delivery without retries. */
async function send(
  s: Services,
  d: { id: string; tenant_id: string; webhook_id: string | null; user_id: string | null; event_type: string; body: string },
  at: Date,
): Promise<{ result: AttemptResult; signature: string | null; permanent: boolean }> {
  let target: Awaited<ReturnType<typeof targetOf>>;
  try {
    target = await targetOf(s, d);
  } catch {
    // Retried, not final: a replica started with another LEDGER_SECRET must not drop deliveries.
    return { result: failure('the signing secret cannot be decrypted (was LEDGER_SECRET changed?)'), signature: null, permanent: false };
  }
  if (typeof target === 'string') return { result: failure(`dropped: ${target}`), signature: null, permanent: true };
  const headers = signDelivery({ secret: target.secret, deliveryId: d.id, eventType: d.event_type, body: d.body, at });
  return {
    result: await s.webhookClient.send(target.url, { ...headers }, d.body),
    signature: headers['x-service-signature'],
    permanent: Buffer.byteLength(d.body) > WEBHOOK_MAX_BODY_BYTES,
  };
}

/**
 * Make the attempt that is due on delivery `id`, if any (not due, leased by another worker, or
 * finished: nothing happens). Returns the delivery's status afterwards, or null when nothing was done.
 */
export async function attemptDelivery(s: Services, id: string): Promise<'pending' | 'succeeded' | 'failed' | null> {
  const startedAt = s.clock.now();
  const d = await s.db
    .updateTable('webhook_deliveries')
    .set({ lease_until: new Date(startedAt.getTime() + LEASE_MS) })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', startedAt)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', startedAt)]))
    .returning(['id', 'tenant_id', 'webhook_id', 'user_id', 'event_type', 'body', 'attempts', 'replay_requested', 'completed_at'])
    .executeTakeFirst();
  if (!d) return null;
  const attempt = d.attempts + 1;
  const { result, signature, permanent } = await send(s, d, startedAt);
  const finishedAt = s.clock.now();
  // A failed replay of a dropped delivery (completed_at set) is not retried; one of a delivery
  // still being retried leaves its retries in place (D10a).
  const dropped = d.replay_requested && d.completed_at !== null;
  const next = result.ok || permanent || dropped ? null : nextAttemptAt(attempt, finishedAt);
  const status = result.ok ? 'succeeded' : next ? 'pending' : 'failed';
  await s.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('webhook_delivery_attempts')
      .values({
        delivery_id: d.id,
        attempt,
        trigger: d.replay_requested ? 'replay' : 'scheduled',
        started_at: startedAt,
        duration_ms: result.durationMs,
        status_code: result.statusCode,
        error: result.error,
        response_excerpt: result.excerpt,
        succeeded: result.ok,
      })
      .execute();
    await tx
      .updateTable('webhook_deliveries')
      .set({
        status,
        attempts: attempt,
        next_attempt_at: next,
        lease_until: null,
        last_status_code: result.statusCode,
        last_error: result.error,
        signature: signature ?? undefined,
        replay_requested: false,
        completed_at: status === 'pending' ? null : finishedAt,
      })
      .where('id', '=', d.id)
      .execute();
    if (next) await s.jobs.deliverWebhooks(tx, [{ deliveryId: d.id, delayMs: next.getTime() - finishedAt.getTime() }]);
  });
  // One structured line per failed attempt (issue 14): enough to find the delivery and see why.
  if (!result.ok) {
    s.log.warn(
      {
        event: 'webhook.attempt_failed',
        tenantId: d.tenant_id,
        webhookId: d.webhook_id,
        userId: d.user_id,
        deliveryId: d.id,
        eventType: d.event_type,
        attempt,
        statusCode: result.statusCode,
        error: result.error,
        durationMs: result.durationMs,
        outcome: status,
        nextAttemptAt: next?.toISOString() ?? null,
      },
      'webhook delivery attempt failed',
    );
  }
  return status;
}

/** Attempt every delivery that is due (the sweep; also how tests drive the schedule with a moved clock). */
export async function deliverDue(s: Services, limit = 100): Promise<number> {
  const now = s.clock.now();
  const due = await s.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
  let done = 0;
  const queue = [...due];
  const worker = async () => {
    for (let d = queue.shift(); d; d = queue.shift()) if ((await attemptDelivery(s, d.id)) !== null) done++;
  };
  await Promise.all(Array.from({ length: Math.min(8, queue.length) }, worker));
  return done;
}

/** Retention: deliveries (and their attempt logs) after 30 days, relayed outbox rows after a day. */
export async function purgeExpired(s: Services, ex: Executor = s.db): Promise<{ deliveries: number; outbox: number }> {
  const now = s.clock.now().getTime();
  const d = await ex.deleteFrom('webhook_deliveries').where('created_at', '<', new Date(now - DELIVERY_RETENTION_MS)).executeTakeFirst();
  const o = await ex.deleteFrom('event_outbox').where('published_at', '<', new Date(now - OUTBOX_RETENTION_MS)).executeTakeFirst();
  return { deliveries: Number(d.numDeletedRows), outbox: Number(o.numDeletedRows) };
}

// Webhook delivery (spec §6, D10): signed deliveries with retries at 1 m, 5 m, 30 m, 2 h and 12 h
// after the previous attempt (6 attempts, then dropped), every attempt logged, deliveries kept 30
// days. The delivery row is the source of truth: a pg-boss job per due attempt makes it prompt,
// and a sweep every minute catches whatever a job missed (crash, clock skew). An attempt claims
// its row with a short lease, so a job and the sweep never send the same attempt twice.
import type { Services } from '../shared/index.ts';
import type { Executor } from '../../store/db.ts';
import { decryptSecret } from '../../core/secret-box.ts';
import { signDelivery } from '../../core/webhooks/signature.ts';
import { WEBHOOK_MAX_BODY_BYTES, WEBHOOK_TIMEOUT_MS } from '../../infra/webhook-client.ts';
import { webhookSecretKey } from '../shared/index.ts';
import { userWebhookAad, webhookAad } from './webhooks.ts';
import * as repo from './webhooks.repo.ts';

export const MAX_ATTEMPTS = 6;
/** Delay before attempt n+1 after attempt n failed (spec §6 and §8). */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;
export const DELIVERY_RETENTION_MS = 30 * 24 * 3_600_000;
/** Published outbox rows are only kept for inspection a little while. */
export const OUTBOX_RETENTION_MS = 24 * 3_600_000;
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 30_000;

/** When the attempt after `attempt` failed ones is due, or null when the delivery is dropped. */
export function nextAttemptAt(attempt: number, finishedAt: Date): Date | null {
  if (attempt >= MAX_ATTEMPTS) return null;
  return new Date(finishedAt.getTime() + RETRY_DELAYS_MS[attempt - 1]);
}

async function targetOf(s: Services, d: { tenant_id: string; webhook_id: string | null; user_id: string | null }): Promise<{ url: string; secret: string } | string> {
  const key = webhookSecretKey(s.secrets);
  if (d.webhook_id) {
    const w = await repo.webhookTarget(s.db, d.webhook_id);
    if (!w) return 'the webhook was deleted';
    if (!w.enabled) return 'the webhook is disabled';
    return { url: w.url, secret: decryptSecret(key, w.secret_enc, webhookAad(d.webhook_id)) };
  }
  const n = await repo.alertWebhookTarget(s.db, d.tenant_id, d.user_id!);
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
  const d = await repo.leaseDueDelivery(s.db, id, startedAt, new Date(startedAt.getTime() + LEASE_MS));
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
    await repo.insertAttempt(tx, {
      delivery_id: d.id,
      attempt,
      trigger: d.replay_requested ? 'replay' : 'scheduled',
      started_at: startedAt,
      duration_ms: result.durationMs,
      status_code: result.statusCode,
      error: result.error,
      response_excerpt: result.excerpt,
      succeeded: result.ok,
    });
    await repo.recordAttemptOutcome(tx, d.id, {
      status,
      attempts: attempt,
      next_attempt_at: next,
      lease_until: null,
      last_status_code: result.statusCode,
      last_error: result.error,
      signature: signature ?? undefined,
      replay_requested: false,
      completed_at: status === 'pending' ? null : finishedAt,
    });
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
  const due = await repo.dueDeliveryIds(s.db, now, limit);
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
  return repo.purgeBefore(ex, new Date(now - DELIVERY_RETENTION_MS), new Date(now - OUTBOX_RETENTION_MS));
}

// The webhooks' statements (docs/layout.md: SQL in *.repo.ts; webhooks.ts, webhook-delivery.ts and
// alert-test.ts keep the rules: limits, replay per D10a, retries).
import { sql, type Insertable, type Updateable } from 'kysely';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable, WebhooksTable } from '../../store/schema.ts';
import type { Executor } from '../../store/db.ts';

export const WEBHOOK_COLS = ['id', 'url', 'events', 'description', 'enabled', 'secret_hint', 'created_at', 'updated_at'] as const;

export const DELIVERY_COLS = [
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

/** Locks the tenant's row (creations run one after the other) and counts its webhooks. */
export async function lockTenantAndCountWebhooks(tx: Executor, tenantId: string): Promise<number> {
  await tx.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirstOrThrow();
  const { n } = await tx.selectFrom('webhooks').select((eb) => eb.fn.countAll<string>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return Number(n);
}

export async function insertWebhook(tx: Executor, row: Insertable<WebhooksTable>) {
  return tx.insertInto('webhooks').values(row).returning(WEBHOOK_COLS).executeTakeFirstOrThrow();
}

/** One page of the tenant's webhooks, oldest first, after the cursor's webhook. */
export async function webhookPage(db: Executor, tenantId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('webhooks').select(WEBHOOK_COLS).where('tenant_id', '=', tenantId);
  if (afterId) q = q.where(sql<boolean>`(created_at, id) > (select created_at, id from webhooks where id = ${afterId}::uuid)`);
  return q.orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

export async function webhookRow(db: Executor, tenantId: string, id: string) {
  return db.selectFrom('webhooks').select(WEBHOOK_COLS).where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function updateWebhookRow(db: Executor, tenantId: string, id: string, set: Record<string, unknown>) {
  return db.updateTable('webhooks').set(set).where('id', '=', id).where('tenant_id', '=', tenantId).returning(WEBHOOK_COLS).executeTakeFirst();
}

/** Deletes the webhook (its deliveries go with it); false when the tenant has no such webhook. */
export async function deleteWebhookRow(db: Executor, tenantId: string, id: string): Promise<boolean> {
  const r = await db.deleteFrom('webhooks').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/** One page of a webhook's deliveries, newest first, after the cursor's delivery. */
export async function deliveryPage(db: Executor, tenantId: string, webhookId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('webhook_deliveries as d').select(DELIVERY_COLS).where('d.webhook_id', '=', webhookId).where('d.tenant_id', '=', tenantId);
  if (afterId) q = q.where(sql<boolean>`(d.created_at, d.id) < (select created_at, id from webhook_deliveries where id = ${afterId}::uuid)`);
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
}

export async function webhookDeliveryWithBody(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .select([...DELIVERY_COLS, 'd.body'])
    .where('d.id', '=', id)
    .where('d.tenant_id', '=', tenantId)
    .where('d.webhook_id', 'is not', null)
    .executeTakeFirst();
}

export async function attemptsOf(db: Executor, deliveryId: string) {
  return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
}

export async function attemptsOfMany(db: Executor, deliveryIds: string[]) {
  return db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('attempt').execute();
}

/** Locks a tenant webhook's delivery, or (alertOf) one of that user's own alert-webhook deliveries. */
export async function lockDeliveryForReplay(tx: Executor, tenantId: string, id: string, alertOf?: string) {
  return tx
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where((eb) => (alertOf ? eb('user_id', '=', alertOf) : eb('webhook_id', 'is not', null)))
    .forUpdate()
    .executeTakeFirst();
}

export async function markReplayRequested(tx: Executor, id: string, now: Date) {
  return tx
    .updateTable('webhook_deliveries as d')
    .set({ status: 'pending', replay_requested: true, next_attempt_at: now })
    .where('d.id', '=', id)
    .returning(DELIVERY_COLS)
    .executeTakeFirstOrThrow();
}

// Sending (webhook-delivery.ts).

export async function webhookTarget(db: Executor, webhookId: string) {
  return db.selectFrom('webhooks').select(['url', 'secret_enc', 'enabled']).where('id', '=', webhookId).executeTakeFirst();
}

export async function alertWebhookTarget(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('notification_settings')
    .select(['webhook_url', 'webhook_secret_enc'])
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Leases a delivery whose attempt is due and not leased by another worker; undefined otherwise. */
export async function leaseDueDelivery(db: Executor, id: string, now: Date, leaseUntil: Date) {
  return db
    .updateTable('webhook_deliveries')
    .set({ lease_until: leaseUntil })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .returning(['id', 'tenant_id', 'webhook_id', 'user_id', 'event_type', 'body', 'attempts', 'replay_requested', 'completed_at'])
    .executeTakeFirst();
}

export async function insertAttempt(tx: Executor, row: Insertable<WebhookDeliveryAttemptsTable>): Promise<void> {
  await tx.insertInto('webhook_delivery_attempts').values(row).execute();
}

export async function recordAttemptOutcome(tx: Executor, id: string, set: Updateable<WebhookDeliveriesTable>): Promise<void> {
  await tx.updateTable('webhook_deliveries').set(set).where('id', '=', id).execute();
}

export async function dueDeliveryIds(db: Executor, now: Date, limit: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .limit(limit)
    .execute();
}

/** Deletes deliveries created and outbox rows relayed before the given times; how many of each. */
export async function purgeBefore(ex: Executor, deliveriesBefore: Date, outboxBefore: Date): Promise<{ deliveries: number; outbox: number }> {
  const d = await ex.deleteFrom('webhook_deliveries').where('created_at', '<', deliveriesBefore).executeTakeFirst();
  const o = await ex.deleteFrom('event_outbox').where('published_at', '<', outboxBefore).executeTakeFirst();
  return { deliveries: Number(d.numDeletedRows), outbox: Number(o.numDeletedRows) };
}

// Notification settings and alerts: their statements (docs/layout.md: SQL in *.repo.ts;
// notifications.ts and alert-test.ts keep the rules: thresholds fire once per crossing, channels).
// Events sit below identity, projects and money in the domain order, so the few reads of users,
// projects, wallets and ledger rows an alert needs are made here rather than through those domains.
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

export async function settingsRow(db: Executor, tenantId: string, userId: string) {
  return db.selectFrom('notification_settings').selectAll().where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
}

/** Inserts the user's settings or updates the given columns. */
export async function upsertSettings(db: Executor, tenantId: string, userId: string, cols: Record<string, unknown>): Promise<void> {
  await db
    .insertInto('notification_settings')
    .values({ tenant_id: tenantId, user_id: userId, ...cols } as never)
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet(cols as never))
    .execute();
}

/** Whether anyone in the tenant has a balance or runway threshold (no membership join: see the caller). */
export async function anyThreshold(db: Executor, tenantId: string): Promise<boolean> {
  const r = await db
    .selectFrom('notification_settings')
    .select('user_id')
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('balance_threshold_micros', 'is not', null), eb('runway_threshold_days', 'is not', null)]))
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

export async function walletBalance(db: Executor, tenantId: string): Promise<bigint> {
  const w = await db.selectFrom('wallets').select('balance_micros').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
  return w.balance_micros;
}

/** AI usage burnt in (since, until], in micros. */
export async function usageBurn(db: Executor, tenantId: string, since: Date, until: Date): Promise<bigint> {
  const b = await db
    .selectFrom('ledger_entries')
    .select(sql<string>`coalesce(sum(-amount_micros), 0)::text`.as('burn'))
    .where('tenant_id', '=', tenantId)
    .where('event_type', '=', 'AI_USAGE')
    .where('created_at', '>', since)
    .where('created_at', '<=', until)
    .executeTakeFirstOrThrow();
  return BigInt(b.burn);
}

/** The members of the tenant with a balance or runway threshold. */
export async function thresholdSubscribers(db: Executor, tenantId: string) {
  return db
    .selectFrom('notification_settings as n')
    .innerJoin('memberships as m', (j) => j.onRef('m.tenant_id', '=', 'n.tenant_id').onRef('m.user_id', '=', 'n.user_id'))
    .select(['n.user_id', 'n.channel', 'n.balance_threshold_micros', 'n.runway_threshold_days'])
    .where('n.tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('n.balance_threshold_micros', 'is not', null), eb('n.runway_threshold_days', 'is not', null)]))
    .execute();
}

/** Flips an alert's armed flag from `!to` to `to`; true when this call flipped it. */
export async function setArmed(
  db: Executor,
  tenantId: string,
  userId: string,
  armed: 'balance_alert_armed' | 'runway_alert_armed',
  to: boolean,
): Promise<boolean> {
  const r = await db.updateTable('notification_settings').set({ [armed]: to }).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where(armed, '=', !to).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** The members of the tenant who asked for escalation alerts. */
export async function escalationSubscribers(db: Executor, tenantId: string) {
  return db
    .selectFrom('notification_settings as n')
    .innerJoin('memberships as m', (j) => j.onRef('m.tenant_id', '=', 'n.tenant_id').onRef('m.user_id', '=', 'n.user_id'))
    .select(['n.user_id', 'n.channel'])
    .where('n.tenant_id', '=', tenantId)
    .where('n.escalation_alert', '=', true)
    .execute();
}

export async function recipientOf(db: Executor, userId: string) {
  return db.selectFrom('users').select(['email', 'name']).where('id', '=', userId).executeTakeFirst();
}

export async function emailOfUser(db: Executor, userId: string): Promise<string> {
  const u = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  return u.email;
}

export async function projectName(db: Executor, projectId: string) {
  return db.selectFrom('projects').select('name').where('id', '=', projectId).executeTakeFirst();
}

/** The newest alert delivery of this type to the user made at or after `since`. */
export async function latestAlertDelivery(db: Executor, tenantId: string, userId: string, eventType: string, since: Date) {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('event_type', '=', eventType)
    .where('created_at', '>=', since)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** One page of the user's alert-webhook deliveries in the tenant, newest first, after the cursor's. */
export async function alertDeliveryPage(db: Executor, tenantId: string, userId: string, afterId: string | null, limit: number) {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .select(['d.id', 'd.event_type', 'd.status', 'd.attempts', 'd.next_attempt_at', 'd.last_status_code', 'd.last_error', 'd.signature', 'd.created_at', 'd.completed_at'])
    .where('d.tenant_id', '=', tenantId)
    .where('d.user_id', '=', userId);
  if (afterId) q = q.where(sql<boolean>`(d.created_at, d.id) < (select created_at, id from webhook_deliveries where id = ${afterId}::uuid)`);
  return q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(limit).execute();
}

export async function deliveryOwner(db: Executor, tenantId: string, id: string) {
  return db.selectFrom('webhook_deliveries').select(['webhook_id', 'user_id']).where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
}

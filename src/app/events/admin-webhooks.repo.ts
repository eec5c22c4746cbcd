// The platform admins' webhook dashboard (spec §6: "failures can be inspected in the admin console
// webhook dashboard"): deliveries across every tenant, filterable by status, tenant and event type
// (D9 pagination), a count by status for a time window, and the tenants whose deliveries fail most.
// Read-only: replay stays with each tenant's own admins (D10a), so a platform admin never sends a
// tenant's event to a target on their behalf.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../store/schema.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import { toAttemptView } from './webhooks.ts';

export interface AdminDeliveryFilters {
  status?: 'pending' | 'succeeded' | 'failed';
  tenantId?: string;
  eventType?: string;
}

const COLS = [
  'd.id',
  'd.tenant_id',
  't.name as tenant_name',
  'd.webhook_id',
  'w.url as webhook_url',
  'd.event_type',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_status_code',
  'd.last_error',
  'd.created_at',
  'd.completed_at',
] as const;

interface Row {
  id: string;
  tenant_id: string;
  tenant_name: string;
  webhook_id: string | null;
  webhook_url: string | null;
  event_type: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AdminDeliveryView {
  id: string;
  tenantId: string;
  tenantName: string;
  webhookId: string;
  webhookUrl: string | null;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  completedAt: string | null;
}

const view = (r: Row): AdminDeliveryView => ({
  id: r.id,
  tenantId: r.tenant_id,
  tenantName: r.tenant_name,
  webhookId: r.webhook_id ?? '',
  webhookUrl: r.webhook_url,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at?.toISOString() ?? null,
  lastStatusCode: r.last_status_code,
  lastError: r.last_error,
  createdAt: r.created_at.toISOString(),
  completedAt: r.completed_at?.toISOString() ?? null,
});

const base = (db: Kysely<DB>) =>
  db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('tenants as t', 't.id', 'd.tenant_id')
    .leftJoin('webhooks as w', 'w.id', 'd.webhook_id')
    // Deliveries without a webhook are e-mail-channel alerts kept in the same table: not webhooks.
    .where('d.webhook_id', 'is not', null);

export async function listAllDeliveries(db: Kysely<DB>, f: AdminDeliveryFilters, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  let q = base(db).select(COLS);
  if (f.status) q = q.where('d.status', '=', f.status);
  if (f.tenantId) q = q.where('d.tenant_id', '=', f.tenantId);
  if (f.eventType) q = q.where('d.event_type', '=', f.eventType);
  if (c) q = q.where(sql<boolean>`(d.created_at, d.id) < (select created_at, id from webhook_deliveries where id = ${c.id}::uuid)`);
  const rows = (await q.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(page.limit + 1).execute()) as Row[];
  return toPage(rows, page.limit, view, (r) => ({ id: r.id }));
}

export async function getAnyDelivery(db: Kysely<DB>, id: string) {
  const row = (await base(db).select([...COLS, 'd.body']).where('d.id', '=', id).executeTakeFirst()) as (Row & { body: string }) | undefined;
  if (!row) return null;
  const attempts = await db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', id).orderBy('attempt').execute();
  return {
    ...view(row),
    body: row.body,
    attemptLog: attempts.map(toAttemptView),
  };
}

/** Counts by status of the deliveries created since `since`, and the ten tenants with the most failures. */
export async function deliverySummary(db: Kysely<DB>, since: Date) {
  const counts = await base(db)
    .select(['d.status', sql<number>`count(*)::int`.as('n')])
    .where('d.created_at', '>=', since)
    .groupBy('d.status')
    .execute();
  const byStatus = { pending: 0, succeeded: 0, failed: 0 };
  for (const r of counts) byStatus[r.status] = r.n;
  const failing = await base(db)
    .select(['d.tenant_id', 't.name', sql<number>`count(*)::int`.as('failed'), sql<Date>`max(coalesce(d.completed_at, d.created_at))`.as('last_failed_at')])
    .where('d.created_at', '>=', since)
    .where('d.status', '=', 'failed')
    .groupBy(['d.tenant_id', 't.name'])
    .orderBy('failed', 'desc')
    .limit(10)
    .execute();
  return {
    since: since.toISOString(),
    byStatus,
    failingTenants: failing.map((r) => ({ tenantId: r.tenant_id, tenantName: r.name, failed: r.failed, lastFailedAt: new Date(r.last_failed_at).toISOString() })),
  };
}

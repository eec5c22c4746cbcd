// The events domain's own reads. Events sit below projects in the domain order (docs/layout.md),
// so the project a tenant-wide event is filed under is read here rather than through projects/.
import { appError } from '../../core/errors.ts';
import { CompiledQuery, sql, type Insertable } from 'kysely';
import type { EventOutboxTable, WebhookDeliveriesTable } from '../../store/schema.ts';
import { namedStatement, type Executor } from '../../store/db.ts';
import type { EventFrame } from '../../infra/bus/bus.ts';

/** The tenant's default project (the same rule as projects' getDefaultProjectId). */
export async function defaultProjectOf(db: Executor, tenantId: string): Promise<string> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw appError('not_found', 'The tenant has no project');
  return row.id;
}

export async function insertOutboxRow(tx: Executor, row: Insertable<EventOutboxTable>): Promise<void> {
  await tx.insertInto('event_outbox').values(row).execute();
}

/** The live projects of these tenants (a tenant-wide frame goes on each one's stream). */
export async function liveProjectsOf(db: Executor, tenantIds: string[]) {
  return db.selectFrom('projects').select(['id', 'tenant_id']).where('tenant_id', 'in', tenantIds).where('deleted_at', 'is', null).execute();
}

/** The enabled webhooks of these tenants subscribed to at least one of these event types. */
export async function subscribedWebhooks(ex: Executor, tenantIds: string[], types: string[]) {
  return ex
    .selectFrom('webhooks')
    .select(['id', 'tenant_id', 'events'])
    .where('tenant_id', 'in', tenantIds)
    .where('enabled', '=', true)
    .where(sql<boolean>`events && ${types}::text[]`)
    .execute();
}

export async function insertDeliveryRows(ex: Executor, rows: Array<Insertable<WebhookDeliveriesTable>>): Promise<void> {
  await ex.insertInto('webhook_deliveries').values(rows).execute();
}

/**
 * Notes that a source was seen (one connector_heartbeats row per project and source, keeping the
 * later time); returns the time it was last seen before, or null when it never was.
 */
export async function upsertHeartbeat(
  db: Executor,
  v: { tenantId: string; projectId: string; source: string; keyId: string | null; sessionId: string | null; now: Date },
): Promise<Date | null> {
  const r = await sql<{ was: Date | null }>`
    with prev as (select last_seen_at from connector_heartbeats where project_id = ${v.projectId} and channel = ${v.source})
    insert into connector_heartbeats (project_id, tenant_id, channel, key_id, session_id, last_seen_at)
    values (${v.projectId}, ${v.tenantId}, ${v.source}, ${v.keyId}, ${v.sessionId}, ${v.now})
    on conflict (project_id, channel) do update
      set key_id = excluded.key_id, session_id = excluded.session_id, last_seen_at = greatest(connector_heartbeats.last_seen_at, excluded.last_seen_at)
    returning (select last_seen_at from prev) as was`.execute(db);
  return r.rows[0]?.was ?? null;
}

// The outbox relay's claim (outbox.ts).

/**
 * Claim and mark a batch ($1 the time, $2 its size), saying of each row whether an enabled webhook
 * of its tenant subscribes to its type. Relaying is at-least-once, not money: a pass lost in a
 * database crash is simply run again (its rows are still unpublished), so its commit need not
 * wait for the disk (set_config(…, true) is SET LOCAL); the settlement that wrote the rows did.
 */
const OUTBOX_CLAIM = namedStatement(
  'sb_outbox_claim',
  `with relax as (select set_config('synchronous_commit', 'off', true)),
   c as (
     select id from event_outbox where published_at is null
      order by id limit $2 for update skip locked)
   update event_outbox o set published_at = $1
     from c cross join relax where o.id = c.id
   returning o.id, o.frame, o.tenant_wide,
     exists (select 1 from webhooks w
              where w.tenant_id = o.tenant_id and w.enabled and o.frame->>'type' = any(w.events)) as hooked`,
);

/** Claims and marks up to `limit` unpublished outbox rows (published_at = `now`), in the caller's transaction. */
export async function claimOutboxBatch(tx: Executor, now: Date, limit: number) {
  const r = await tx.executeQuery<{ id: bigint; frame: EventFrame; tenant_wide: boolean; hooked: boolean }>(CompiledQuery.raw(OUTBOX_CLAIM, [now, limit]));
  return r.rows;
}

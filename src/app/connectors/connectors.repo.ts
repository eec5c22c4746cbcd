// The connectors domain's statements on projects' integrations, heartbeats and keys
// (docs/layout.md: SQL in *.repo.ts; integrations.ts, connector-status.ts and connector-views.ts
// keep the rules: tile status, connection tests, what a key may read). Advisory imports have
// theirs in advisory.repo.ts.
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** The project's newest key that still works at `now` (revoked keys and expired ones left out). */
export async function newestLiveKey(db: Executor, tenantId: string, projectId: string, now: Date) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'environment'])
    .where('tenant_id', '=', tenantId)
    .where('project_id', '=', projectId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Adds the tool to the project's integrations (once). */
export async function addIntegrationTool(db: Executor, tenantId: string, projectId: string, tool: string, now: Date): Promise<void> {
  await sql`update projects set integrations = (select jsonb_agg(distinct v) from jsonb_array_elements_text(integrations || ${JSON.stringify([tool])}::jsonb) v), updated_at = ${now}
             where id = ${projectId} and tenant_id = ${tenantId}`.execute(db);
}

/** Takes the tool out of the project's integrations. */
export async function dropIntegrationTool(db: Executor, tenantId: string, projectId: string, tool: string, now: Date): Promise<void> {
  await sql`update projects set integrations = coalesce((select jsonb_agg(v) from jsonb_array_elements_text(integrations) v where v <> ${tool}), '[]'::jsonb), updated_at = ${now}
             where id = ${projectId} and tenant_id = ${tenantId}`.execute(db);
}

/** The project's heartbeat rows, each with whether its key and session still work at `now`. */
export async function heartbeatEvidence(db: Executor, tenantId: string, projectId: string, now: Date) {
  const r = await sql<{ channel: string; last_seen_at: Date; credential_ok: boolean }>`
    select h.channel, h.last_seen_at,
           (h.key_id is null or (k.revoked_at is null or k.revoked_at > ${now}) and (k.expires_at is null or k.expires_at > ${now}))
           and (h.session_id is null or (ss.revoked_at is null and ss.expires_at > ${now})) as credential_ok
      from connector_heartbeats h
      left join api_keys k on k.id = h.key_id
      left join sessions ss on ss.id = h.session_id
     where h.project_id = ${projectId} and h.tenant_id = ${tenantId}`.execute(db);
  return r.rows;
}

export async function heartbeatChannels(db: Executor, tenantId: string, projectId: string) {
  return db.selectFrom('connector_heartbeats').select('channel').where('project_id', '=', projectId).where('tenant_id', '=', tenantId).execute();
}

export async function deleteHeartbeats(db: Executor, projectId: string, channels: string[]): Promise<void> {
  await db.deleteFrom('connector_heartbeats').where('project_id', '=', projectId).where('channel', 'in', channels).execute();
}

/** The names of the tenant's project and of the tenant. */
export async function projectAndTenantNames(db: Executor, tenantId: string, projectId: string) {
  return db
    .selectFrom('projects')
    .innerJoin('tenants', 'tenants.id', 'projects.tenant_id')
    .select(['projects.name as project_name', 'tenants.name as tenant_name'])
    .where('projects.id', '=', projectId)
    .where('projects.tenant_id', '=', tenantId)
    .executeTakeFirstOrThrow();
}

/**
 * The project's calls (first attempts), burn and benchmark savings in [since, now], connection
 * tests left out; through one channel (and its surfaces) when `channel` is set. Sums as text.
 */
export async function callTotalsSince(db: Executor, v: { tenantId: string; projectId: string; since: Date; now: Date; channel: string | null }) {
  const r = await sql<{ calls: string; burn: string; saved: string }>`
      select count(*) filter (where parent_call_id is null)::text as calls,
             coalesce(sum(debited_micros), 0)::text as burn,
             coalesce(sum(baseline_cost_usd_micros - actual_cost_usd_micros) filter (where baseline_cost_usd_micros is not null and actual_cost_usd_micros is not null), 0)::text as saved
        from call_logs
       where tenant_id = ${v.tenantId} and project_id = ${v.projectId} and created_at >= ${v.since} and created_at <= ${v.now}
         and channel not like '%:connection-test'
         and (${v.channel}::text is null or channel = ${v.channel} or channel like ${(v.channel ?? '') + ':%'})`.execute(db);
  return r.rows[0];
}

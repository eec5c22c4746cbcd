// The call log's daily rollups for the usage and audit insights (issue 15 item 8), next to the
// ledger's (025): succeeded calls by (UTC day, project, task family, model class, escalated, first
// attempt) and by delivery path, filled by the same job from the same ledger-sequence watermark
// (every succeeded call has exactly one AI_USAGE entry). Failed attempts, unscored and below-floor
// attempts are few and read live through partial indexes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table insights_calls_daily (
      tenant_id uuid not null references tenants (id) on delete cascade,
      day date not null,
      project_id uuid not null,
      task_family text not null,
      model_class text not null,
      escalated boolean not null,
      first_attempt boolean not null,
      attempts bigint not null,
      tokens bigint not null,
      debited_micros bigint not null,
      primary key (tenant_id, day, project_id, task_family, model_class, escalated, first_attempt)
    );
    create table insights_paths_daily (
      tenant_id uuid not null references tenants (id) on delete cascade,
      day date not null,
      provider_key text not null,
      model_id text not null,
      region text not null,
      attempts bigint not null,
      primary key (tenant_id, day, provider_key, model_id, region)
    );
    create index call_logs_failed_time on call_logs (tenant_id, created_at) where status = 'failed';
    create index call_logs_no_qa_time on call_logs (tenant_id, created_at) where qa is null;
    create index call_logs_below_floor_time on call_logs (tenant_id, created_at) where (qa->>'belowFloor')::boolean;
  `.execute(db);
  // Entries already in the ledger's buckets are not in these: start both from zero again.
  await sql`truncate insights_ledger_daily; truncate insights_rollup_state;`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index call_logs_below_floor_time; drop index call_logs_no_qa_time; drop index call_logs_failed_time;
    drop table insights_paths_daily; drop table insights_calls_daily;
    truncate insights_ledger_daily; truncate insights_rollup_state;
  `.execute(db);
}

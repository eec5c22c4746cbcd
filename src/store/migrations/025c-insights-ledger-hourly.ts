// The ledger's rollup buckets become hourly (issue 15 item 8): a range's partial edges are then at
// most an hour each instead of a day, so "the last 24 hours", today's summary and the wallet's
// runway read a few hundred raw entries at most, whatever the customer's size. The daily table of
// 025 goes; every bucket table starts from zero with the watermark, and the job refills them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table insights_ledger_daily;
    create table insights_ledger_hourly (
      tenant_id uuid not null references tenants (id) on delete cascade,
      hour timestamptz not null,
      project_id uuid not null,
      burn_micros bigint not null,
      compared_burn_micros bigint not null,
      baseline_micros bigint not null,
      actual_micros bigint not null,
      calls bigint not null,
      escalations bigint not null,
      primary key (tenant_id, hour, project_id)
    );
    truncate insights_calls_daily, insights_paths_daily, insights_rollup_state;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table insights_ledger_hourly;
    create table insights_ledger_daily (
      tenant_id uuid not null references tenants (id) on delete cascade, day date not null, project_id uuid not null,
      burn_micros bigint not null, compared_burn_micros bigint not null, baseline_micros bigint not null, actual_micros bigint not null,
      calls bigint not null, escalations bigint not null, primary key (tenant_id, day, project_id));
    truncate insights_calls_daily, insights_paths_daily, insights_rollup_state;
  `.execute(db);
}

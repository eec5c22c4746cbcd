// The hourly ledger buckets also count attempts and tokens (issue 15 item 8), so the usage tab's
// last-48-hours chart reads them instead of the call log. Buckets and watermark start from zero
// again; the rollup job refills them.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    truncate insights_ledger_hourly, insights_calls_daily, insights_paths_daily, insights_rollup_state;
    alter table insights_ledger_hourly add column attempts bigint not null default 0, add column tokens bigint not null default 0;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    truncate insights_ledger_hourly, insights_calls_daily, insights_paths_daily, insights_rollup_state;
    alter table insights_ledger_hourly drop column attempts, drop column tokens;
  `.execute(db);
}

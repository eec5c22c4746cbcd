// Daily rollups of the ledger for the insights (issue 15 item 8): a customer with a million calls
// must see /overview, /summary and the savings chart in well under 150 ms. Each AI_USAGE entry is
// added once to its tenant's (UTC day, project) bucket by a worker job that follows the tenant's
// ledger sequence (insights_rollup_state.last_seq): entries are immutable and a tenant's sequence
// numbers commit in order (the wallet row lock), so everything at or below last_seq is in the
// buckets and everything above it is read from the ledger itself. Nothing on the request path
// writes these tables.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table insights_ledger_daily (
      tenant_id uuid not null references tenants (id) on delete cascade,
      day date not null,
      project_id uuid not null,
      burn_micros bigint not null,
      compared_burn_micros bigint not null,
      baseline_micros bigint not null,
      actual_micros bigint not null,
      calls bigint not null,
      escalations bigint not null,
      primary key (tenant_id, day, project_id)
    );
    create table insights_rollup_state (
      tenant_id uuid primary key references tenants (id) on delete cascade,
      last_seq bigint not null default 0,
      updated_at timestamptz not null default now()
    );
    -- The activity feed's wallet rows (top-ups, refunds, adjustments) without walking every AI_USAGE entry.
    create index ledger_tenant_wallet_time on ledger_entries (tenant_id, created_at desc) where event_type in ('WALLET_TOPUP', 'REFUND', 'ADJUSTMENT');
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index ledger_tenant_wallet_time; drop table insights_rollup_state; drop table insights_ledger_daily;`.execute(db);
}

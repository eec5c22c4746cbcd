// The export log of the analytics Audit tab (spec §1 /analytics): every data export a tenant takes.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table export_log (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      user_id uuid references users(id) on delete set null,
      kind text not null,
      filters jsonb not null default '{}',
      row_count integer not null,
      created_at timestamptz not null
    );
    create index export_log_tenant_time on export_log (tenant_id, created_at desc);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table export_log`.execute(db);
}

// Ledger checkpoints (D17): each tenant's chain head, signed with the server's Ed25519 key, taken
// every hour by the worker and on demand (an owner's POST, and every verifiable export). A
// checkpoint also carries the public chain digest over the exported columns up to its sequence
// (core/ledger/checkpoint.ts), so the next one extends it from here instead of re-reading the
// whole chain. Rows are written once and never changed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table ledger_checkpoints (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants (id) on delete cascade,
      sequence bigint not null check (sequence > 0),
      seal_hash text not null,
      balance_micros bigint not null,
      chain_digest text not null,
      key_id text not null,
      signature text not null,
      created_at timestamptz not null,
      unique (tenant_id, sequence)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ledger_checkpoints`.execute(db);
}

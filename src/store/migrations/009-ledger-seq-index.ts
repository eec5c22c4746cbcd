// Two indexes of ledger_entries had the same key, (tenant_id, seq): the unique constraint that keeps
// one chain position per tenant, and ledger_tenant_seq_amount, which includes amount_micros so that
// running balances are index-only scans. One unique index with the included column does both, and
// every ledger row (and every update of one) maintains one index entry fewer.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table ledger_entries
      drop constraint ledger_entries_tenant_id_seq_key,
      add constraint ledger_entries_tenant_id_seq_key unique (tenant_id, seq) include (amount_micros);
    drop index ledger_tenant_seq_amount;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index ledger_tenant_seq_amount on ledger_entries (tenant_id, seq) include (amount_micros);
    alter table ledger_entries
      drop constraint ledger_entries_tenant_id_seq_key,
      add constraint ledger_entries_tenant_id_seq_key unique (tenant_id, seq);
  `.execute(db);
}

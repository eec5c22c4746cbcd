// Foreign keys whose referenced row the settlement inserts in the same statement (issue 20).
//
// The settlement writes a call's ledger entry, call log and learning-outbox row in one statement,
// each an INSERT … SELECT over the same CTE row (settlement.repo.ts, rowsSql): the call log's
// ledger_entry_id is the ledger entry's id and the outbox row's call_id is the call log's id, read
// from the same column of the same row. A data-modifying CTE always runs to completion and the
// statement is atomic, so either all three rows commit or none does: those two keys can never fail
// for a row the settlement writes, and no other code writes either column (a failed call's log has
// no ledger entry, the outbox is written by the settlement alone). Yet each key was checked per row
// (a SELECT … FOR KEY SHARE through SPI), and each check locked a row inserted a moment before,
// which writes a lock record to the WAL: the two were the dearest of a settlement's six checks
// (docs/performance.md, session 9).
//
// Dropped: call_logs.ledger_entry_id → ledger_entries and learning_outbox.call_id → call_logs.
// What they also did and what replaces it (docs/decisions.md, "Keys of the call rows"):
// - they refused a ledger entry's delete while a call log named it, and cascaded a call log's
//   delete to its outbox row: nothing in the product deletes ledger entries or call logs (the
//   ledger is append-only and verify reports a missing entry);
// - the learning plane joins the outbox to the call log by id, as it does everywhere (D15: no key
//   from plane tables to request-path tables).
// The other four checks stay: each guards something the statement does not (the tenant and
// project rows of every other ledger writer, a project that belongs to the call's tenant, the
// service key).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table call_logs drop constraint call_logs_ledger_entry_id_fkey;
    alter table learning_outbox drop constraint learning_outbox_call_id_fkey;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table call_logs add constraint call_logs_ledger_entry_id_fkey foreign key (ledger_entry_id) references ledger_entries (id);
    alter table learning_outbox add constraint learning_outbox_call_id_fkey foreign key (call_id) references call_logs (id) on delete cascade;
  `.execute(db);
}

// Every settlement updates a wallet and a lease (a reservations row) and upserts a project's
// monthly spend. Two costs of those writes did not depend on the rows written:
//
// 1. Table CHECK constraints. PostgreSQL prepares every CHECK constraint of a table (parses its
//    stored expression, plans and compiles it) once per statement that writes a row of the table,
//    whichever columns the statement sets: eight constraints on the three tables, about 80 µs of a
//    one-call settlement's 560 µs of execution (bench/statements.ts, A/B run, docs/performance.md).
//    The same rules as domains are checked where a value is assigned to a column of the domain, and
//    a domain's compiled constraint is cached per connection. Same rules, same SQLSTATE (23514).
// 2. The lease update was never a heap-only (HOT) update: reservations_project_open included
//    amount_micros, the column the update changes, so each settlement inserted a new entry into
//    every index of reservations. The sum it served (open reservations of one project, for the
//    budget check in sb_lease and sb_reserve) reads the few open rows from the heap instead, and
//    pages keep room for the new row versions (fillfactor).
//
// No table is rewritten: the columns first become constraint-less domains over the same type
// (binary-coercible), then ALTER DOMAIN ADD CONSTRAINT checks the existing rows.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create domain money_micros as bigint;
    create domain positive_micros as bigint;
    create domain reservation_kind as text;
    create domain reservation_status as text;

    alter table wallets
      drop constraint wallets_balance_micros_check,
      drop constraint wallets_reserved_micros_check,
      drop constraint wallets_auto_topup_threshold_micros_check,
      drop constraint wallets_auto_topup_amount_micros_check,
      alter column balance_micros type money_micros,
      alter column reserved_micros type money_micros,
      alter column auto_topup_threshold_micros type money_micros,
      alter column auto_topup_amount_micros type positive_micros,
      set (fillfactor = 50);
    alter table reservations
      drop constraint reservations_kind_check,
      drop constraint reservations_status_check,
      drop constraint reservations_amount_micros_check,
      alter column kind type reservation_kind,
      alter column status type reservation_status,
      alter column amount_micros type money_micros,
      set (fillfactor = 70);
    alter table project_spend
      drop constraint project_spend_spent_micros_check,
      alter column spent_micros type money_micros;

    alter domain money_micros add constraint money_micros_check check (value >= 0);
    alter domain positive_micros add constraint positive_micros_check check (value > 0);
    alter domain reservation_kind add constraint reservation_kind_check check (value in ('call', 'lease'));
    alter domain reservation_status add constraint reservation_status_check
      check (value in ('reserved', 'settled', 'released', 'swept'));

    drop index reservations_project_open;
    create index reservations_project_open on reservations (project_id) where status = 'reserved';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop index reservations_project_open;
    create index reservations_project_open on reservations (project_id) include (amount_micros) where status = 'reserved';

    alter table wallets
      alter column balance_micros type bigint,
      alter column reserved_micros type bigint,
      alter column auto_topup_threshold_micros type bigint,
      alter column auto_topup_amount_micros type bigint,
      add constraint wallets_balance_micros_check check (balance_micros >= 0),
      add constraint wallets_reserved_micros_check check (reserved_micros >= 0),
      add constraint wallets_auto_topup_threshold_micros_check
        check (auto_topup_threshold_micros is null or auto_topup_threshold_micros >= 0),
      add constraint wallets_auto_topup_amount_micros_check
        check (auto_topup_amount_micros is null or auto_topup_amount_micros > 0),
      reset (fillfactor);
    alter table reservations
      alter column kind type text,
      alter column status type text,
      alter column amount_micros type bigint,
      add constraint reservations_kind_check check (kind in ('call', 'lease')),
      add constraint reservations_status_check check (status in ('reserved', 'settled', 'released', 'swept')),
      add constraint reservations_amount_micros_check check (amount_micros >= 0),
      reset (fillfactor);
    alter table project_spend
      alter column spent_micros type bigint,
      add constraint project_spend_spent_micros_check check (spent_micros >= 0);

    drop domain money_micros;
    drop domain positive_micros;
    drop domain reservation_kind;
    drop domain reservation_status;
  `.execute(db);
}

// Lock 6 held by the database (D15): the learning plane's transactions run under
// `SET LOCAL ROLE switchboard_learning`, a role that may read call logs, the outbox and project
// floors and write only learning_* tables. Routing tables, call logs, wallets, the ledger and
// everything else the request path reads get no grant at all, so a write there fails with
// "permission denied" whatever the code tries.
//
// Roles are cluster-wide and creating one needs CREATEROLE (or superuser). On an external
// PostgreSQL where the service's user cannot create it, this migration still succeeds: it raises
// a NOTICE, and the worker logs a clear line at start and keeps the plane switched off until an
// operator runs the two statements in docs/learning-plane.md ("The database role"). Grants are
// per database and are given whenever the role exists.
import { sql, type Kysely } from 'kysely';
import { APPEND_ONLY_TABLES } from './017-learning-plane.ts';

export const LEARNING_ROLE = 'switchboard_learning';

/** Tables the plane updates in place (aggregates, pointers, batch status, budgets). */
const MUTABLE = [
  'learning_evidence',
  'learning_patterns',
  'learning_endpoint_windows',
  'learning_proposals',
  'learning_synthetic_batches',
  'learning_proposal_validation_costs',
  'learning_plane_budgets',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    do $$
    begin
      if not exists (select 1 from pg_roles where rolname = 'switchboard_learning') then
        begin
          create role switchboard_learning nologin;
        exception
          when duplicate_object or unique_violation then null; -- another database of this cluster made it meanwhile
          when insufficient_privilege then
            raise notice 'learning plane: cannot create role switchboard_learning (needs CREATEROLE); the plane stays off until an operator creates it, see docs/learning-plane.md';
            return;
        end;
      end if;
      -- The service's user must be able to SET ROLE to it (superusers always can).
      begin
        execute format('grant switchboard_learning to %I', current_user);
      exception when others then
        raise notice 'learning plane: cannot grant switchboard_learning to %: %', current_user, sqlerrm;
      end;
    end $$;
  `.execute(db);
  await grantLearningRole(db);
}

/**
 * The role's privileges, granted whenever the role exists. Idempotent: the worker runs it again at
 * start (jobs/learning.job.ts), so a role an operator created after this migration gets them too.
 */
export async function grantLearningRole(db: Kysely<any>): Promise<boolean> {
  const exists = await sql<{ n: number }>`select count(*)::int as n from pg_roles where rolname = ${LEARNING_ROLE}`.execute(db);
  if (exists.rows[0].n === 0) return false;
  await sql`
    revoke all on all tables in schema public from switchboard_learning;
    grant usage on schema public to switchboard_learning;
    grant select on call_logs, learning_outbox, learning_outbox_events, projects to switchboard_learning;
    grant update (consumed_at, request, response, request_sha256, response_sha256, evidence_id, bodies_dropped_at)
      on learning_outbox to switchboard_learning;
    grant select on learning_synthetic_generation_policies to switchboard_learning;
  `.execute(db);
  for (const t of MUTABLE) await sql`grant select, insert, update on ${sql.table(t)} to switchboard_learning`.execute(db);
  for (const t of APPEND_ONLY_TABLES) await sql`grant select, insert on ${sql.table(t)} to switchboard_learning`.execute(db);
  await sql`
    grant usage on sequence learning_evidence_id_seq, learning_patterns_id_seq, learning_endpoint_windows_id_seq, learning_coverage_snapshots_id_seq,
      learning_signals_cost_id_seq, learning_signals_quality_id_seq, learning_signals_latency_id_seq,
      learning_signals_drift_id_seq, learning_signals_coverage_id_seq, learning_signals_escalation_id_seq
      to switchboard_learning;
  `.execute(db);
  return true;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const exists = await sql<{ n: number }>`select count(*)::int as n from pg_roles where rolname = ${LEARNING_ROLE}`.execute(db);
  if (exists.rows[0].n === 0) return;
  await sql`revoke all on all tables in schema public from switchboard_learning; revoke all on all sequences in schema public from switchboard_learning; revoke usage on schema public from switchboard_learning`.execute(db);
}

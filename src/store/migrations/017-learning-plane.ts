// The learning plane, Phase 2 (spec §2 "Learning-plane resources", §3 locks, D15): every table of
// the plane. Field names follow the spec (snake_case here, camelCase at the API edge).
//
// What the database itself holds, so no code path can break it:
// - append-only rows (signals, coverage snapshots, synthetic cases and their scores, replay runs
//   and results, gate results, budget withdrawals and budget changes): a trigger refuses UPDATE,
//   DELETE and TRUNCATE for every role, owner included;
// - locks 1, 2 and 4: proposal.status is 'minted' and manifestId, approvedByUserId, rejectReason,
//   approvedAt are null, as CHECK constraints;
// - lock 8's first refusal: a policy's `enabled` defaults to false (the seeded Tier A and Tier B
//   policies say true explicitly; Tier C is seeded with the default).
// Nothing here references a request-path table by foreign key: a foreign-key check would lock the
// referenced call-log or tenant row, and the plane must never contend with live traffic.
import { sql, type Kysely } from 'kysely';

export const APPEND_ONLY_TABLES = [
  'learning_coverage_snapshots',
  'learning_signals_cost',
  'learning_signals_quality',
  'learning_signals_latency',
  'learning_signals_drift',
  'learning_signals_coverage',
  'learning_signals_escalation',
  'learning_synthetic_cases',
  'learning_synthetic_quality_scores',
  'learning_replay_runs',
  'learning_replay_results',
  'learning_proposal_gate_results',
  'learning_plane_budget_withdrawals',
  'learning_plane_budget_changes',
] as const;

export const SIGNAL_TABLES = ['cost', 'quality', 'latency', 'drift', 'coverage', 'escalation'].map((d) => `learning_signals_${d}`);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- The outbox keeps its hashes when its bodies are dropped after the retention window (D15);
    -- evidence_id links a consumed row to the evidence it became. Nullable columns without a
    -- default: adding them rewrites nothing, and the settlement's insert does not change.
    alter table learning_outbox
      alter column request drop not null,
      add column request_sha256 text,
      add column response_sha256 text,
      add column evidence_id bigint,
      add column bodies_dropped_at timestamptz;
    -- Partial indexes whose predicates are false for a freshly inserted row: the settlement's
    -- insert never touches them.
    create index learning_outbox_bodies_due on learning_outbox (created_at)
      where consumed_at is not null and bodies_dropped_at is null;
    create index learning_outbox_request_sha on learning_outbox (request_sha256) where request_sha256 is not null;

    create function learning_append_only() returns trigger language plpgsql as $fn$
    begin
      raise exception 'learning plane: % is append-only (% refused)', tg_table_name, tg_op
        using errcode = 'insufficient_privilege';
    end $fn$;

    create table learning_evidence (
      id bigint generated always as identity primary key,
      content_hash text not null unique,
      tenant_id uuid not null,
      project_id uuid not null,
      first_call_id uuid not null,
      last_call_id uuid not null,
      task_family text not null,
      complexity text not null,
      floor_band text not null,
      response_shape text not null,
      model_class text,
      occurrences integer not null,
      input_tokens_sum bigint not null,
      output_tokens_sum bigint not null,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null
    );

    create table learning_patterns (
      id bigint generated always as identity primary key,
      window_start timestamptz not null,
      task_family text not null,
      complexity text not null,
      response_shape text not null,
      floor_band text not null,
      model_class text not null,
      call_count integer not null,
      evidence_count integer not null,
      scored_count integer not null,
      quality_sum double precision not null,
      below_floor_count integer not null,
      escalated_count integer not null,
      input_tokens_sum bigint not null,
      output_tokens_sum bigint not null,
      latency_ms_sum bigint not null,
      updated_at timestamptz not null,
      unique (window_start, task_family, complexity, response_shape, floor_band, model_class)
    );

    -- Per endpoint and hour: a latency histogram (fixed bucket bounds, LATENCY_BOUNDS_MS in
    -- app/learning/detectors.ts), so the latency detector's p95 never rescans call logs.
    create table learning_endpoint_windows (
      id bigint generated always as identity primary key,
      window_start timestamptz not null,
      provider_key text not null,
      model_id text not null,
      region text not null,
      model_class text not null,
      call_count integer not null,
      latency_buckets integer[] not null,
      updated_at timestamptz not null,
      unique (window_start, provider_key, model_id, region, model_class)
    );

    create table learning_coverage_snapshots (
      id bigint generated always as identity primary key,
      taken_at timestamptz not null,
      task_family text not null,
      evidence_count integer not null,
      call_count integer not null,
      scored_count integer not null,
      complexities jsonb not null,
      signals_ready jsonb not null,
      unique (taken_at, task_family)
    );
  `.execute(db);

  for (const t of SIGNAL_TABLES) {
    await sql`
      create table ${sql.table(t)} (
        id bigint generated always as identity primary key,
        subject_key text not null,
        bucket_start timestamptz not null,
        fired_at timestamptz not null,
        task_family text,
        complexity text,
        floor_band text,
        model_class text,
        provider_key text,
        observed jsonb not null,
        unique (subject_key, bucket_start)
      )
    `.execute(db);
  }

  await sql`
    create table learning_proposals (
      id uuid primary key,
      status text not null default 'minted' check (status = 'minted'),
      priority text not null check (priority in ('high', 'medium', 'low')),
      source_signal text not null check (source_signal in ('cost', 'quality', 'latency', 'drift', 'coverage', 'escalation')),
      subject_key text not null,
      override jsonb not null,
      title text not null,
      fires integer not null,
      gate1_result_id uuid,
      gate2_result_id uuid,
      validation_cost_micros bigint not null default 0,
      last_validated_at timestamptz,
      manifest_id uuid check (manifest_id is null),
      approved_by_user_id uuid check (approved_by_user_id is null),
      reject_reason text check (reject_reason is null),
      approved_at timestamptz check (approved_at is null),
      created_at timestamptz not null,
      unique (source_signal, subject_key)
    );
    create index learning_proposals_created on learning_proposals (created_at desc, id desc);

    create table learning_synthetic_generation_policies (
      id uuid primary key,
      name text not null unique,
      tier text not null check (tier in ('A', 'B', 'C')),
      max_cases_per_batch integer not null check (max_cases_per_batch > 0),
      max_cost_per_batch_micros bigint not null default 0 check (max_cost_per_batch_micros >= 0),
      min_quality_threshold double precision not null check (min_quality_threshold >= 0 and min_quality_threshold <= 1),
      generator_template text not null,
      model_id text,
      enabled boolean not null default false,
      approved_at timestamptz,
      created_at timestamptz not null default now()
    );
    insert into learning_synthetic_generation_policies
      (id, name, tier, max_cases_per_batch, max_cost_per_batch_micros, min_quality_threshold, generator_template, model_id, enabled, approved_at)
    values
      ('0a000000-0000-4000-8000-00000000000a', 'tier-a-templates', 'A', 24, 0, 0.5, 'permute-v1', null, true, now()),
      ('0b000000-0000-4000-8000-00000000000b', 'tier-b-cheap-model', 'B', 12, 20000, 0.5, 'paraphrase-v1', 'economy', true, now());
    insert into learning_synthetic_generation_policies
      (id, name, tier, max_cases_per_batch, max_cost_per_batch_micros, min_quality_threshold, generator_template, model_id)
    values ('0c000000-0000-4000-8000-00000000000c', 'tier-c-frontier', 'C', 8, 500000, 0.5, 'frontier-v1', 'frontier');

    create table learning_synthetic_batches (
      id uuid primary key,
      proposal_id uuid not null references learning_proposals(id),
      policy_id uuid not null references learning_synthetic_generation_policies(id),
      window_key text not null,
      status text not null default 'generating' check (status in ('generating', 'scored', 'rejected')),
      case_count integer not null default 0,
      accepted_count integer not null default 0,
      estimated_cost_micros bigint not null default 0,
      actual_cost_micros bigint not null default 0,
      withdrawal_id uuid,
      rejection_reason text,
      created_at timestamptz not null,
      finished_at timestamptz,
      unique (proposal_id, policy_id, window_key)
    );

    create table learning_synthetic_cases (
      id uuid primary key,
      batch_id uuid not null references learning_synthetic_batches(id),
      proposal_id uuid not null references learning_proposals(id),
      input_blob jsonb not null,
      expected_blob jsonb,
      tags jsonb not null default '[]',
      case_hash text not null check (case_hash ~ '^[0-9a-f]{64}$'),
      generation_method text not null check (generation_method in ('template', 'cheap_model', 'frontier', 'fixture')),
      created_at timestamptz not null,
      unique (batch_id, case_hash)
    );
    create index learning_synthetic_cases_hash on learning_synthetic_cases (proposal_id, case_hash);

    create table learning_synthetic_quality_scores (
      case_id uuid primary key references learning_synthetic_cases(id),
      duplication_score double precision not null,
      novelty_score double precision not null,
      discriminative_power double precision not null,
      coverage_contribution double precision not null,
      accepted boolean not null,
      rejection_reason text,
      created_at timestamptz not null
    );

    create table learning_replay_runs (
      id uuid primary key,
      proposal_id uuid not null references learning_proposals(id),
      batch_id uuid not null references learning_synthetic_batches(id),
      case_count integer not null,
      passed_count integer not null,
      failed_count integer not null,
      cost_micros bigint not null default 0,
      created_at timestamptz not null,
      unique (proposal_id, batch_id)
    );

    create table learning_replay_results (
      id uuid primary key,
      run_id uuid not null references learning_replay_runs(id),
      case_id uuid not null references learning_synthetic_cases(id),
      actual_output jsonb not null,
      expected_output jsonb,
      passed boolean not null,
      divergence_reason text,
      unique (run_id, case_id)
    );

    create table learning_proposal_gate_results (
      id uuid primary key,
      proposal_id uuid not null references learning_proposals(id),
      gate_id text not null check (gate_id in ('synthetic', 'replay')),
      passed boolean not null,
      numerator integer not null,
      denominator integer not null,
      threshold double precision not null,
      batch_id uuid references learning_synthetic_batches(id),
      replay_run_id uuid references learning_replay_runs(id),
      reason text not null,
      evaluated_at timestamptz not null
    );
    create index learning_gate_results_proposal on learning_proposal_gate_results (proposal_id, evaluated_at desc);

    create table learning_proposal_validation_costs (
      proposal_id uuid primary key references learning_proposals(id),
      total_validation_cost_micros bigint not null,
      case_count_synthetic integer not null,
      case_count_replay integer not null,
      run_count integer not null,
      computed_at timestamptz not null
    );

    create table learning_plane_budgets (
      id uuid primary key,
      category text not null check (category in ('synthgen', 'replay')),
      window_key text not null check (window_key ~ '^[0-9]{4}-[0-9]{2}$'),
      budget_micros bigint not null check (budget_micros >= 0),
      spent_micros bigint not null default 0 check (spent_micros >= 0),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (category, window_key)
    );

    create table learning_plane_budget_withdrawals (
      id uuid primary key,
      budget_id uuid not null references learning_plane_budgets(id),
      category text not null,
      window_key text not null,
      amount_micros bigint not null check (amount_micros > 0),
      idempotency_key text not null unique,
      proposal_id uuid,
      policy_id uuid,
      reason text not null,
      created_at timestamptz not null
    );

    create table learning_plane_budget_changes (
      id uuid primary key,
      budget_id uuid not null references learning_plane_budgets(id),
      previous_budget_micros bigint not null,
      budget_micros bigint not null,
      changed_by_user_id uuid not null,
      created_at timestamptz not null
    );
  `.execute(db);

  for (const t of APPEND_ONLY_TABLES) {
    await sql`create trigger append_only before update or delete on ${sql.table(t)} for each row execute function learning_append_only()`.execute(db);
    await sql`create trigger append_only_truncate before truncate on ${sql.table(t)} for each statement execute function learning_append_only()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table learning_plane_budget_changes, learning_plane_budget_withdrawals, learning_plane_budgets,
      learning_proposal_validation_costs, learning_proposal_gate_results, learning_replay_results, learning_replay_runs,
      learning_synthetic_quality_scores, learning_synthetic_cases, learning_synthetic_batches,
      learning_synthetic_generation_policies, learning_proposals, learning_coverage_snapshots, learning_patterns,
      learning_endpoint_windows, learning_evidence;
  `.execute(db);
  for (const t of SIGNAL_TABLES) await sql`drop table ${sql.table(t)}`.execute(db);
  await sql`
    drop function learning_append_only();
    drop index learning_outbox_bodies_due, learning_outbox_request_sha;
    alter table learning_outbox drop column request_sha256, drop column response_sha256, drop column evidence_id,
      drop column bodies_dropped_at;
  `.execute(db);
}

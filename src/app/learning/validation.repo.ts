// SQL of validation (spec §4 "Learning-plane behaviours"): synthetic batches, cases and their
// scores, replay runs and results, the two gates, and refreshValidationCost. Every function takes
// the transaction it runs in; the orchestrator opens them as the learning role.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Executor, Tx } from '../../store/db.ts';
import type { RoutingOverride } from '../../core/routing/override.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import type { GeneratedCase } from './generators.ts';
import { gateVerdict, replayCase, scoreCases, type GateVerdict } from './validation.ts';

export interface ProposalRef {
  id: string;
  override: RoutingOverride;
  lastValidatedAt: Date | null;
}

/** Proposals due for validation: never validated, or validated before `staleBefore`; oldest first. */
export async function proposalsDue(ex: Executor, staleBefore: Date, limit: number): Promise<ProposalRef[]> {
  const r = await sql<{ id: string; override: RoutingOverride; last_validated_at: Date | null }>`
    select id, override, last_validated_at from learning_proposals
     where last_validated_at is null or last_validated_at < ${staleBefore}
     order by last_validated_at nulls first, created_at limit ${limit}`.execute(ex);
  return r.rows.map((x) => ({ id: x.id, override: x.override, lastValidatedAt: x.last_validated_at }));
}

export interface BatchRow {
  id: string;
  status: 'generating' | 'scored' | 'rejected';
  withdrawalId: string | null;
  estimatedCostMicros: bigint;
}

/** One batch per (proposal, policy, evidence window): made once, found again on every later call. */
export async function openBatch(tx: Tx, b: { proposalId: string; policyId: string; windowKey: string; estimatedCostMicros: bigint; withdrawalId: string | null; now: Date }): Promise<BatchRow> {
  await sql`
    insert into learning_synthetic_batches (id, proposal_id, policy_id, window_key, estimated_cost_micros, withdrawal_id, created_at)
    values (${randomUUID()}, ${b.proposalId}, ${b.policyId}, ${b.windowKey}, ${b.estimatedCostMicros}, ${b.withdrawalId}, ${b.now})
    on conflict (proposal_id, policy_id, window_key) do nothing`.execute(tx);
  const r = await sql<{ id: string; status: BatchRow['status']; withdrawal_id: string | null; estimated_cost_micros: bigint }>`
    select id, status, withdrawal_id, estimated_cost_micros from learning_synthetic_batches
     where proposal_id = ${b.proposalId} and policy_id = ${b.policyId} and window_key = ${b.windowKey} for update`.execute(tx);
  const x = r.rows[0];
  return { id: x.id, status: x.status, withdrawalId: x.withdrawal_id, estimatedCostMicros: x.estimated_cost_micros };
}

export async function findBatch(ex: Executor, proposalId: string, policyId: string, windowKey: string): Promise<BatchRow | null> {
  const r = await sql<{ id: string; status: BatchRow['status']; withdrawal_id: string | null; estimated_cost_micros: bigint }>`
    select id, status, withdrawal_id, estimated_cost_micros from learning_synthetic_batches
     where proposal_id = ${proposalId} and policy_id = ${policyId} and window_key = ${windowKey}`.execute(ex);
  const x = r.rows[0];
  return x ? { id: x.id, status: x.status, withdrawalId: x.withdrawal_id, estimatedCostMicros: x.estimated_cost_micros } : null;
}

/**
 * Write the batch's cases and their scores, and end the batch: 'scored' when at least one case was
 * accepted, 'rejected' when none was (or generation produced nothing), with its actual cost.
 */
export async function finishBatch(tx: Tx, batchId: string, proposalId: string, cases: readonly GeneratedCase[], actualCostMicros: bigint, now: Date, failure: string | null = null): Promise<{ caseCount: number; acceptedCount: number }> {
  const earlier = (await sql<{ case_hash: string; input_blob: CanonicalRequest }>`
    select case_hash, input_blob from learning_synthetic_cases where proposal_id = ${proposalId} and batch_id <> ${batchId}`.execute(tx)).rows
    .map((r) => ({ caseHash: r.case_hash, inputBlob: r.input_blob }));
  // Same inputBlob twice in one batch is one case (caseHash is the de-duplication key).
  const unique = [...new Map(cases.map((c) => [c.caseHash, c])).values()];
  const scores = scoreCases(unique, earlier);
  let accepted = 0;
  for (let i = 0; i < unique.length; i++) {
    const c = unique[i];
    const sc = scores[i];
    const id = randomUUID();
    await sql`
      insert into learning_synthetic_cases (id, batch_id, proposal_id, input_blob, expected_blob, tags, case_hash, generation_method, created_at)
      values (${id}, ${batchId}, ${proposalId}, ${JSON.stringify(c.inputBlob)}::jsonb, ${JSON.stringify(c.expectedBlob)}::jsonb,
              ${JSON.stringify(c.tags)}::jsonb, ${c.caseHash}, ${c.generationMethod}, ${now})`.execute(tx);
    await sql`
      insert into learning_synthetic_quality_scores (case_id, duplication_score, novelty_score, discriminative_power, coverage_contribution, accepted, rejection_reason, created_at)
      values (${id}, ${sc.duplicationScore}, ${sc.noveltyScore}, ${sc.discriminativePower}, ${sc.coverageContribution}, ${sc.accepted}, ${sc.rejectionReason}, ${now})`.execute(tx);
    if (sc.accepted) accepted += 1;
  }
  const status = accepted > 0 ? 'scored' : 'rejected';
  const reason = failure ?? (accepted > 0 ? null : unique.length === 0 ? 'no cases were generated' : 'no case was accepted');
  await sql`
    update learning_synthetic_batches set status = ${status}, case_count = ${unique.length}, accepted_count = ${accepted},
           actual_cost_micros = ${actualCostMicros}, rejection_reason = ${reason}, finished_at = ${now}
     where id = ${batchId}`.execute(tx);
  return { caseCount: unique.length, acceptedCount: accepted };
}

/** Replay a batch's accepted cases through the proposal's rule: one run per (proposal, batch), made once. */
export async function replayBatch(tx: Tx, proposalId: string, batchId: string, override: RoutingOverride, now: Date): Promise<string> {
  const existing = await sql<{ id: string }>`select id from learning_replay_runs where proposal_id = ${proposalId} and batch_id = ${batchId}`.execute(tx);
  if (existing.rows[0]) return existing.rows[0].id;
  const cases = (await sql<{ id: string; input_blob: CanonicalRequest; expected_blob: { taskFamily: string; complexity: string; modelClass: string } }>`
    select c.id, c.input_blob, c.expected_blob from learning_synthetic_cases c
      join learning_synthetic_quality_scores q on q.case_id = c.id
     where c.batch_id = ${batchId} and q.accepted order by c.created_at, c.id`.execute(tx)).rows;
  const outcomes = cases.map((c) => ({ caseId: c.id, ...replayCase(c.input_blob, c.expected_blob, override) }));
  const passed = outcomes.filter((o) => o.passed).length;
  const runId = randomUUID();
  // Replay runs Layer 1 in memory: it costs nothing, and says so (cost_micros 0).
  await sql`
    insert into learning_replay_runs (id, proposal_id, batch_id, case_count, passed_count, failed_count, cost_micros, created_at)
    values (${runId}, ${proposalId}, ${batchId}, ${outcomes.length}, ${passed}, ${outcomes.length - passed}, 0, ${now})`.execute(tx);
  for (const o of outcomes) {
    await sql`
      insert into learning_replay_results (id, run_id, case_id, actual_output, expected_output, passed, divergence_reason)
      values (${randomUUID()}, ${runId}, ${o.caseId}, ${JSON.stringify(o.actualOutput)}::jsonb, ${JSON.stringify(o.expectedOutput)}::jsonb, ${o.passed}, ${o.divergenceReason})`.execute(tx);
  }
  return runId;
}

async function writeGate(tx: Tx, proposalId: string, gateId: 'synthetic' | 'replay', v: GateVerdict, refs: { batchId: string | null; runId: string | null }, now: Date): Promise<string> {
  const id = randomUUID();
  await sql`
    insert into learning_proposal_gate_results (id, proposal_id, gate_id, passed, numerator, denominator, threshold, batch_id, replay_run_id, reason, evaluated_at)
    values (${id}, ${proposalId}, ${gateId}, ${v.passed}, ${v.numerator}, ${v.denominator}, ${v.threshold}, ${refs.batchId}, ${refs.runId}, ${v.reason}, ${now})`.execute(tx);
  const col = gateId === 'synthetic' ? sql.ref('gate1_result_id') : sql.ref('gate2_result_id');
  await sql`update learning_proposals set ${col} = ${id} where id = ${proposalId}`.execute(tx);
  return id;
}

/** Gate 1 (synthetic): the latest finished batch; PASS when acceptedCount / caseCount ≥ policy.minQualityThreshold. A new row every time. */
export async function evaluateGate1(tx: Tx, proposalId: string, now: Date): Promise<string> {
  const b = (await sql<{ id: string; case_count: number; accepted_count: number; min_quality_threshold: number }>`
    select b.id, b.case_count, b.accepted_count, p.min_quality_threshold from learning_synthetic_batches b
      join learning_synthetic_generation_policies p on p.id = b.policy_id
     where b.proposal_id = ${proposalId} and b.status <> 'generating'
     order by b.finished_at desc, b.id desc limit 1`.execute(tx)).rows[0];
  const v = b ? gateVerdict(b.accepted_count, b.case_count, b.min_quality_threshold, 'synthetic cases accepted') : gateVerdict(0, 0, 1, 'synthetic batches');
  return writeGate(tx, proposalId, 'synthetic', v, { batchId: b?.id ?? null, runId: null }, now);
}

/** Gate 2 (replay): the latest replay run; PASS when passedCount / caseCount ≥ LEARNING_REPLAY_PASS_RATIO. A new row every time. */
export async function evaluateGate2(tx: Tx, proposalId: string, passRatio: number, now: Date): Promise<string> {
  const r = (await sql<{ id: string; case_count: number; passed_count: number }>`
    select id, case_count, passed_count from learning_replay_runs where proposal_id = ${proposalId}
     order by created_at desc, id desc limit 1`.execute(tx)).rows[0];
  const v = gateVerdict(r?.passed_count ?? 0, r?.case_count ?? 0, passRatio, r ? 'replayed cases passed' : 'replay runs');
  return writeGate(tx, proposalId, 'replay', v, { batchId: null, runId: r?.id ?? null }, now);
}

export interface ValidationCost {
  totalValidationCostMicros: bigint;
  caseCountSynthetic: number;
  caseCountReplay: number;
  runCount: number;
}

/**
 * refreshValidationCost (spec §4): recomputed from source every time, so running it twice gives the
 * same row. Total = budget withdrawals of the proposal + actual cost of its batches that spent
 * without a withdrawal + its replay runs' costs (a batch paid through a withdrawal is counted once,
 * by its withdrawal). Also sets proposal.validationCostMicros and lastValidatedAt.
 */
export async function refreshValidationCost(tx: Tx, proposalId: string, now: Date): Promise<ValidationCost> {
  const r = (await sql<{ total: bigint; synth: number; replay: number; runs: number }>`
    select
      coalesce((select sum(amount_micros) from learning_plane_budget_withdrawals where proposal_id = ${proposalId}), 0)::bigint
      + coalesce((select sum(actual_cost_micros) from learning_synthetic_batches where proposal_id = ${proposalId} and withdrawal_id is null), 0)::bigint
      + coalesce((select sum(cost_micros) from learning_replay_runs where proposal_id = ${proposalId}), 0)::bigint as total,
      (select count(*)::int from learning_synthetic_cases where proposal_id = ${proposalId}) as synth,
      (select count(*)::int from learning_replay_results x join learning_replay_runs y on y.id = x.run_id where y.proposal_id = ${proposalId}) as replay,
      (select count(*)::int from learning_replay_runs where proposal_id = ${proposalId}) as runs`.execute(tx)).rows[0];
  await sql`
    insert into learning_proposal_validation_costs (proposal_id, total_validation_cost_micros, case_count_synthetic, case_count_replay, run_count, computed_at)
    values (${proposalId}, ${r.total}, ${r.synth}, ${r.replay}, ${r.runs}, ${now})
    on conflict (proposal_id) do update set total_validation_cost_micros = excluded.total_validation_cost_micros,
      case_count_synthetic = excluded.case_count_synthetic, case_count_replay = excluded.case_count_replay,
      run_count = excluded.run_count, computed_at = excluded.computed_at`.execute(tx);
  await sql`update learning_proposals set validation_cost_micros = ${r.total}, last_validated_at = ${now} where id = ${proposalId}`.execute(tx);
  return { totalValidationCostMicros: r.total, caseCountSynthetic: r.synth, caseCountReplay: r.replay, runCount: r.runs };
}

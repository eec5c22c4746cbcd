// Reads behind the admin learning-plane endpoints (spec §4): proposals with their filters, a
// proposal's gate history, synthetic batches and cases, replay runs and results, and its cost.
// Read-only by design: the only write of the admin surface is the budget (budget.repo.ts setBudget).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import { decodeCursor, encodeCursor, type Page } from '../shared/index.ts';

export interface ProposalFilters {
  status?: string;
  priority?: string;
  sourceSignal?: string;
}

export interface ProposalView {
  id: string;
  status: 'minted';
  priority: string;
  sourceSignal: string;
  subjectKey: string;
  title: string;
  override: unknown;
  fires: number;
  gate1ResultId: string | null;
  gate2ResultId: string | null;
  validationCostMicros: bigint;
  lastValidatedAt: Date | null;
  validationStale: boolean;
  manifestId: string | null;
  approvedByUserId: string | null;
  rejectReason: string | null;
  approvedAt: Date | null;
  createdAt: Date;
}

type ProposalRaw = {
  id: string; status: 'minted'; priority: string; source_signal: string; subject_key: string; title: string; override: unknown; fires: number;
  gate1_result_id: string | null; gate2_result_id: string | null; validation_cost_micros: bigint; last_validated_at: Date | null;
  manifest_id: string | null; approved_by_user_id: string | null; reject_reason: string | null; approved_at: Date | null; created_at: Date;
};

/** lastValidatedAt older than `staleHours` (or never) is a stale validation (spec §4). */
const toProposal = (r: ProposalRaw, now: Date, staleHours: number): ProposalView => ({
  id: r.id,
  status: r.status,
  priority: r.priority,
  sourceSignal: r.source_signal,
  subjectKey: r.subject_key,
  title: r.title,
  override: r.override,
  fires: r.fires,
  gate1ResultId: r.gate1_result_id,
  gate2ResultId: r.gate2_result_id,
  validationCostMicros: r.validation_cost_micros,
  lastValidatedAt: r.last_validated_at,
  validationStale: r.last_validated_at === null || now.getTime() - r.last_validated_at.getTime() > staleHours * 3_600_000,
  manifestId: r.manifest_id,
  approvedByUserId: r.approved_by_user_id,
  rejectReason: r.reject_reason,
  approvedAt: r.approved_at,
  createdAt: r.created_at,
});

export async function listProposals(ex: Executor, f: ProposalFilters, page: { limit: number; cursor?: string }, now: Date, staleHours: number): Promise<Page<ProposalView>> {
  const after = decodeCursor(page.cursor, ['createdAt', 'id'] as const);
  const rows = (await sql<ProposalRaw>`
    select * from learning_proposals
     where ${f.status ? sql`status = ${f.status}` : sql`true`}
       and ${f.priority ? sql`priority = ${f.priority}` : sql`true`}
       and ${f.sourceSignal ? sql`source_signal = ${f.sourceSignal}` : sql`true`}
       and ${after ? sql`(created_at, id) < (${new Date(after.createdAt)}, ${after.id}::uuid)` : sql`true`}
     order by created_at desc, id desc limit ${page.limit + 1}`.execute(ex)).rows;
  const more = rows.length > page.limit;
  const slice = more ? rows.slice(0, page.limit) : rows;
  const last = slice[slice.length - 1];
  return {
    items: slice.map((r) => toProposal(r, now, staleHours)),
    nextCursor: more && last ? encodeCursor({ createdAt: last.created_at.toISOString(), id: last.id }) : null,
  };
}

export async function getProposal(ex: Executor, id: string, now: Date, staleHours: number): Promise<ProposalView | null> {
  const r = (await sql<ProposalRaw>`select * from learning_proposals where id = ${id}`.execute(ex)).rows[0];
  return r ? toProposal(r, now, staleHours) : null;
}

export async function gateResults(ex: Executor, proposalId: string) {
  const rows = (await sql<{ id: string; gate_id: string; passed: boolean; numerator: number; denominator: number; threshold: number; batch_id: string | null; replay_run_id: string | null; reason: string; evaluated_at: Date }>`
    select * from learning_proposal_gate_results where proposal_id = ${proposalId} order by evaluated_at desc, id desc`.execute(ex)).rows;
  return rows.map((g) => ({
    id: g.id, gateId: g.gate_id, passed: g.passed, numerator: g.numerator, denominator: g.denominator, threshold: g.threshold,
    batchId: g.batch_id, replayRunId: g.replay_run_id, reason: g.reason, evaluatedAt: g.evaluated_at,
  }));
}

export async function batches(ex: Executor, proposalId: string) {
  const rows = (await sql<{ id: string; policy_id: string; policy_name: string; tier: string; window_key: string; status: string; case_count: number; accepted_count: number; estimated_cost_micros: bigint; actual_cost_micros: bigint; withdrawal_id: string | null; rejection_reason: string | null; created_at: Date; finished_at: Date | null }>`
    select b.*, p.name as policy_name, p.tier from learning_synthetic_batches b join learning_synthetic_generation_policies p on p.id = b.policy_id
     where b.proposal_id = ${proposalId} order by b.created_at desc, b.id desc`.execute(ex)).rows;
  return rows.map((b) => ({
    id: b.id, policyId: b.policy_id, policyName: b.policy_name, tier: b.tier, windowKey: b.window_key, status: b.status, caseCount: b.case_count,
    acceptedCount: b.accepted_count, estimatedCostMicros: b.estimated_cost_micros, actualCostMicros: b.actual_cost_micros, withdrawalId: b.withdrawal_id,
    rejectionReason: b.rejection_reason, createdAt: b.created_at, finishedAt: b.finished_at,
  }));
}

export async function cases(ex: Executor, proposalId: string) {
  const rows = (await sql<{ id: string; batch_id: string; input_blob: unknown; expected_blob: unknown; tags: string[]; case_hash: string; generation_method: string; created_at: Date; duplication_score: number; novelty_score: number; discriminative_power: number; coverage_contribution: number; accepted: boolean; rejection_reason: string | null }>`
    select c.*, q.duplication_score, q.novelty_score, q.discriminative_power, q.coverage_contribution, q.accepted, q.rejection_reason
      from learning_synthetic_cases c join learning_synthetic_quality_scores q on q.case_id = c.id
     where c.proposal_id = ${proposalId} order by c.created_at desc, c.id`.execute(ex)).rows;
  return rows.map((c) => ({
    id: c.id, batchId: c.batch_id, inputBlob: c.input_blob, expectedBlob: c.expected_blob, tags: c.tags, caseHash: c.case_hash,
    generationMethod: c.generation_method, createdAt: c.created_at,
    qualityScore: { duplicationScore: c.duplication_score, noveltyScore: c.novelty_score, discriminativePower: c.discriminative_power, coverageContribution: c.coverage_contribution, accepted: c.accepted, rejectionReason: c.rejection_reason },
  }));
}

export async function replay(ex: Executor, proposalId: string) {
  const runs = (await sql<{ id: string; batch_id: string; case_count: number; passed_count: number; failed_count: number; cost_micros: bigint; created_at: Date }>`
    select * from learning_replay_runs where proposal_id = ${proposalId} order by created_at desc, id desc`.execute(ex)).rows;
  const results = (await sql<{ id: string; run_id: string; case_id: string; actual_output: unknown; expected_output: unknown; passed: boolean; divergence_reason: string | null }>`
    select x.* from learning_replay_results x join learning_replay_runs r on r.id = x.run_id where r.proposal_id = ${proposalId} order by x.id`.execute(ex)).rows;
  return runs.map((r) => ({
    id: r.id, batchId: r.batch_id, caseCount: r.case_count, passedCount: r.passed_count, failedCount: r.failed_count, costMicros: r.cost_micros, createdAt: r.created_at,
    results: results.filter((x) => x.run_id === r.id).map((x) => ({ id: x.id, caseId: x.case_id, actualOutput: x.actual_output, expectedOutput: x.expected_output, passed: x.passed, divergenceReason: x.divergence_reason })),
  }));
}

export async function costSummary(ex: Executor, proposalId: string) {
  const c = (await sql<{ total_validation_cost_micros: bigint; case_count_synthetic: number; case_count_replay: number; run_count: number; computed_at: Date }>`
    select * from learning_proposal_validation_costs where proposal_id = ${proposalId}`.execute(ex)).rows[0];
  const withdrawals = (await sql<{ id: string; category: string; window_key: string; amount_micros: bigint; idempotency_key: string; policy_id: string | null; reason: string; created_at: Date }>`
    select * from learning_plane_budget_withdrawals where proposal_id = ${proposalId} order by created_at desc, id`.execute(ex)).rows;
  const byBatch = await batches(ex, proposalId);
  const runs = (await sql<{ id: string; batch_id: string; cost_micros: bigint }>`select id, batch_id, cost_micros from learning_replay_runs where proposal_id = ${proposalId}`.execute(ex)).rows;
  return {
    totalValidationCostMicros: c?.total_validation_cost_micros ?? 0n,
    caseCountSynthetic: c?.case_count_synthetic ?? 0,
    caseCountReplay: c?.case_count_replay ?? 0,
    runCount: c?.run_count ?? 0,
    computedAt: c?.computed_at ?? null,
    breakdown: {
      withdrawals: withdrawals.map((w) => ({ id: w.id, category: w.category, windowKey: w.window_key, amountMicros: w.amount_micros, idempotencyKey: w.idempotency_key, policyId: w.policy_id, reason: w.reason, createdAt: w.created_at })),
      syntheticBatches: byBatch.map((b) => ({ id: b.id, policyName: b.policyName, tier: b.tier, actualCostMicros: b.actualCostMicros, withdrawalId: b.withdrawalId })),
      replayRuns: runs.map((r) => ({ id: r.id, batchId: r.batch_id, costMicros: r.cost_micros })),
    },
  };
}

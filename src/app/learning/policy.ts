// Synthetic generation policies and the orchestrator's refusals (lock 8). Tier C is refused four
// independent ways, each of which would hold on its own:
//   1. the schema: a policy's `enabled` defaults to false (migration 017), and only enabled
//      policies are ever loaded (loadEnabledPolicies);
//   2. the orchestrator's approval check: a policy runs only once approved, and Phase 2 has no
//      approval path for Tier C (checkApproval);
//   3. the orchestrator's hard error on tier C, whatever the policy's flags (assertTierAllowed);
//   4. the Tier C generator itself fails unconditionally (generators.ts generateTierC).
import type { Executor } from '../../store/db.ts';
import { enabledPolicyRows, policyRow, type PolicyRow } from './policy.repo.ts';

export type Tier = 'A' | 'B' | 'C';

export interface Policy {
  id: string;
  name: string;
  tier: Tier;
  maxCasesPerBatch: number;
  maxCostPerBatchMicros: bigint;
  minQualityThreshold: number;
  generatorTemplate: string;
  modelId: string | null;
  enabled: boolean;
  approvedAt: Date | null;
}

export const toPolicy = (r: PolicyRow): Policy => ({
  id: r.id,
  name: r.name,
  tier: r.tier,
  maxCasesPerBatch: r.max_cases_per_batch,
  maxCostPerBatchMicros: r.max_cost_per_batch_micros,
  minQualityThreshold: r.min_quality_threshold,
  generatorTemplate: r.generator_template,
  modelId: r.model_id,
  enabled: r.enabled,
  approvedAt: r.approved_at,
});

/** Refusal 1 in effect: a policy nobody enabled (Tier C's schema default) is never loaded. */
export async function loadEnabledPolicies(ex: Executor): Promise<Policy[]> {
  return (await enabledPolicyRows(ex)).map(toPolicy);
}

export async function loadPolicy(ex: Executor, id: string): Promise<Policy | null> {
  const r = await policyRow(ex, id);
  return r ? toPolicy(r) : null;
}

export type Approval = { approved: true } | { approved: false; reason: string };

/** Refusal 2: an enabled policy still needs an approval; Tier C has no way to get one in Phase 2. */
export function checkApproval(p: Policy): Approval {
  if (!p.enabled) return { approved: false, reason: `policy ${p.name} is not enabled` };
  if (p.tier === 'C') return { approved: false, reason: `policy ${p.name}: Tier C needs an approval that Phase 2 cannot give` };
  if (p.approvedAt === null) return { approved: false, reason: `policy ${p.name} has not been approved` };
  return { approved: true };
}

export class TierCRefusedError extends Error {
  readonly code = 'tier_c_refused';
}

/** Refusal 3: the orchestrator stops hard on Tier C, before any budget or generator is touched. */
export function assertTierAllowed(p: Pick<Policy, 'tier' | 'name'>): void {
  if (p.tier === 'C') throw new TierCRefusedError(`policy ${p.name}: Tier C synthetic generation is refused in Phase 2 (lock 8)`);
}

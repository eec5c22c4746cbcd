// The statements on synthetic generation policies (docs/layout.md: SQL in *.repo.ts; policy.ts
// keeps the refusals of lock 8).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

export type PolicyRow = {
  id: string; name: string; tier: 'A' | 'B' | 'C'; max_cases_per_batch: number; max_cost_per_batch_micros: bigint; min_quality_threshold: number;
  generator_template: string; model_id: string | null; enabled: boolean; approved_at: Date | null;
};

/** The enabled policies, by tier then name. */
export async function enabledPolicyRows(ex: Executor): Promise<PolicyRow[]> {
  const r = await sql<PolicyRow>`select * from learning_synthetic_generation_policies where enabled order by tier, name`.execute(ex);
  return r.rows;
}

export async function policyRow(ex: Executor, id: string): Promise<PolicyRow | undefined> {
  const r = await sql<PolicyRow>`select * from learning_synthetic_generation_policies where id = ${id}`.execute(ex);
  return r.rows[0];
}

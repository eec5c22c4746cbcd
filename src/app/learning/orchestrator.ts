// Validation of minted proposals (spec §4, D15): per enabled and approved policy, one synthetic
// batch per (proposal, policy, evidence day), its cases scored, the accepted ones replayed through
// the proposal's rule in memory, both gates evaluated (a new row each), and the validation cost
// recomputed. The proposal itself stays 'minted' whatever the outcome (lock 1).
//
// Tier B spends money: its estimated cost is debited BEFORE the upstream call (or the mock), under
// the key synthgen:synth:<proposalId>:<policyId>:<windowKey>, so a crashed run that comes back debits
// nothing twice. Live mode calls the cheap model directly, never through the proxy's dispatch: no
// call log, no wallet, no ledger entry (lock 7).
import type { Services } from '../shared/index.ts';
import type { Config } from '../../config.ts';
import { isModelClass } from '../../core/model-class.ts';
import { costMicros, referenceModel } from '../../core/pricing/index.ts';
import type { RoutingOverride } from '../../core/routing/override.ts';
import { debitBudget, synthIdempotencyKey } from './budget.repo.ts';
import { generateTierA, generateTierC, mockParaphrases, paraphraseOf, type GeneratedCase } from './generators.ts';
import { dayKey } from './hashing.ts';
import { assertTierAllowed, checkApproval, loadEnabledPolicies, type Policy } from './policy.ts';
import { asLearning } from './role.ts';
import { evaluateGate1, evaluateGate2, findBatch, finishBatch, openBatch, proposalsDue, refreshValidationCost, replayBatch, type ProposalRef } from './validation.repo.ts';

/** Tokens one Tier B paraphrase is priced at before the call: the prompt and a capped answer. */
export const TIER_B_INPUT_TOKENS = 120;
export const TIER_B_MAX_OUTPUT_TOKENS = 160;
export const VALIDATIONS_PER_RUN = 5;

export type PolicyOutcome =
  | { policy: string; ran: true; batchId: string; status: string; caseCount: number; acceptedCount: number }
  | { policy: string; ran: false; reason: string };

const cheapModel = (p: Policy) => {
  const cls = p.modelId && isModelClass(p.modelId) ? p.modelId : 'economy';
  return referenceModel('openai', cls) ?? referenceModel('openai', 'economy')!;
};

/** The estimated cost of one Tier B case, at the cheap model's prices (bigint micros). */
export const tierBCaseMicros = (p: Policy): bigint =>
  costMicros(cheapModel(p), { inputTokens: TIER_B_INPUT_TOKENS, outputTokens: TIER_B_MAX_OUTPUT_TOKENS });

/** Tier B is live only with LEARNING_TIER_B_LIVE=true AND an upstream key (spec §4); mock otherwise. */
export const tierBLive = (cfg: Config): boolean => cfg.LEARNING_TIER_B_LIVE && Boolean(cfg.providers.openai.apiKey);

async function callCheapModel(cfg: Config, p: Policy, seeds: GeneratedCase[], override: RoutingOverride): Promise<{ cases: GeneratedCase[]; costMicros: bigint }> {
  const model = cheapModel(p);
  const base = (cfg.providers.openai.baseUrl ?? 'https://api.openai.com').replace(/\/+$/, '');
  const cases: GeneratedCase[] = [];
  let spent = 0n;
  for (const seed of seeds) {
    const text = (seed.inputBlob.messages[0].content[0] as { text: string }).text;
    const res = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.providers.openai.apiKey}` },
      body: JSON.stringify({
        model: model.id,
        max_tokens: TIER_B_MAX_OUTPUT_TOKENS,
        messages: [{ role: 'user', content: `Rephrase this request once, keeping its task and difficulty. Reply with the rephrased request only.\n\n${text}` }],
      }),
      signal: AbortSignal.timeout(cfg.UPSTREAM_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`Tier B upstream answered ${res.status}`);
    const body = (await res.json()) as { choices?: Array<{ message?: { content?: string } }>; usage?: { prompt_tokens?: number; completion_tokens?: number } };
    const out = body.choices?.[0]?.message?.content?.trim();
    spent += costMicros(model, { inputTokens: body.usage?.prompt_tokens ?? TIER_B_INPUT_TOKENS, outputTokens: body.usage?.completion_tokens ?? TIER_B_MAX_OUTPUT_TOKENS });
    if (out) cases.push(paraphraseOf(out, override));
  }
  return { cases, costMicros: spent };
}

/** One policy for one proposal in this evidence window. */
export async function runPolicy(s: Services, proposal: ProposalRef, p: Policy, now: Date): Promise<PolicyOutcome> {
  const approval = checkApproval(p); // refusal 2
  if (!approval.approved) return { policy: p.name, ran: false, reason: approval.reason };
  assertTierAllowed(p); // refusal 3: throws on tier C
  const windowKey = dayKey(now);
  const done = await findBatch(s.db, proposal.id, p.id, windowKey);
  if (done && done.status !== 'generating') return { policy: p.name, ran: false, reason: `batch ${done.id} of ${windowKey} is already ${done.status}` };
  const seed = `${proposal.id}:${p.id}:${windowKey}`;

  if (p.tier === 'A') {
    const cases = generateTierA(proposal.override, p.maxCasesPerBatch, seed);
    return asLearning(s.db, async (tx) => {
      const b = await openBatch(tx, { proposalId: proposal.id, policyId: p.id, windowKey, estimatedCostMicros: 0n, withdrawalId: null, now });
      if (b.status !== 'generating') return { policy: p.name, ran: false, reason: `batch ${b.id} is already ${b.status}` } as const;
      const r = await finishBatch(tx, b.id, proposal.id, cases, 0n, now);
      await replayBatch(tx, proposal.id, b.id, proposal.override, now);
      return { policy: p.name, ran: true, batchId: b.id, status: r.acceptedCount > 0 ? 'scored' : 'rejected', ...r } as const;
    });
  }
  if (p.tier === 'B') {
    // Bounded by both caps: maxCasesPerBatch, and as many cases as maxCostPerBatchMicros pays for.
    const per = tierBCaseMicros(p);
    const n = Math.min(p.maxCasesPerBatch, per > 0n ? Number(p.maxCostPerBatchMicros / per) : p.maxCasesPerBatch);
    if (n <= 0) return { policy: p.name, ran: false, reason: `maxCostPerBatchMicros ${p.maxCostPerBatchMicros} pays for no case at ${per} micros each` };
    const estimate = per * BigInt(n);
    // Debited before the call (throws BudgetExceededError: nothing spent, nothing written).
    const { withdrawalId } = await debitBudget(s.db, {
      category: 'synthgen', amountMicros: estimate, idempotencyKey: synthIdempotencyKey(proposal.id, p.id, windowKey),
      reason: `Tier B synthetic batch (${n} cases, ${tierBLive(s.config) ? 'live' : 'mock'})`, proposalId: proposal.id, policyId: p.id, now,
    });
    const batch = await asLearning(s.db, (tx) => openBatch(tx, { proposalId: proposal.id, policyId: p.id, windowKey, estimatedCostMicros: estimate, withdrawalId, now }));
    const seeds = generateTierA(proposal.override, n, `tierB:${seed}`);
    let cases: GeneratedCase[];
    let actual: bigint;
    let failure: string | null = null;
    if (tierBLive(s.config)) {
      try {
        const r = await callCheapModel(s.config, p, seeds, proposal.override);
        cases = r.cases;
        actual = r.costMicros < estimate ? r.costMicros : estimate;
      } catch (e) {
        cases = [];
        actual = estimate;
        failure = `Tier B upstream failed: ${e instanceof Error ? e.message : String(e)}`;
      }
    } else {
      // Mock mode costs what live mode was estimated to cost, so the caps behave the same (D15).
      cases = mockParaphrases(seeds, proposal.override);
      actual = estimate;
    }
    return asLearning(s.db, async (tx) => {
      const b = await openBatch(tx, { proposalId: proposal.id, policyId: p.id, windowKey, estimatedCostMicros: estimate, withdrawalId, now });
      if (b.status !== 'generating') return { policy: p.name, ran: false, reason: `batch ${b.id} is already ${b.status}` } as const;
      const r = await finishBatch(tx, batch.id, proposal.id, cases, actual, now, failure);
      await replayBatch(tx, proposal.id, batch.id, proposal.override, now);
      return { policy: p.name, ran: true, batchId: batch.id, status: r.acceptedCount > 0 ? 'scored' : 'rejected', ...r } as const;
    });
  }
  return generateTierC(); // refusal 4: unreachable past refusal 3, and fails on its own if it is ever reached
}

/** Validate one proposal: every enabled policy, then both gates and the cost, in that order. */
export async function validateProposal(s: Services, proposal: ProposalRef, now: Date): Promise<PolicyOutcome[]> {
  const outcomes: PolicyOutcome[] = [];
  for (const p of await loadEnabledPolicies(s.db)) {
    try {
      outcomes.push(await runPolicy(s, proposal, p, now));
    } catch (e) {
      // A refused policy (budget, Tier C) never stops the others; each refusal is reported.
      outcomes.push({ policy: p.name, ran: false, reason: e instanceof Error ? e.message : String(e) });
    }
  }
  await asLearning(s.db, async (tx) => {
    await evaluateGate1(tx, proposal.id, now);
    await evaluateGate2(tx, proposal.id, s.config.LEARNING_REPLAY_PASS_RATIO, now);
    await refreshValidationCost(tx, proposal.id, now);
  });
  return outcomes;
}

/**
 * Validate the proposals that were never validated or whose validation went stale; returns how many
 * were validated. Each proposal is one slice of `pace` (the pacer, pipeline.ts): a slice that gets
 * no turn in time (false) ends this run's validation, and the rest stay due for the next run.
 */
export async function runValidation(
  s: Services,
  now: Date,
  limit = VALIDATIONS_PER_RUN,
  pace: (fn: () => Promise<unknown>) => Promise<boolean> = async (fn) => (await fn(), true),
): Promise<number> {
  const staleBefore = new Date(now.getTime() - s.config.LEARNING_STALE_AFTER_HOURS * 3_600_000);
  const due = await proposalsDue(s.db, staleBefore, limit);
  let validated = 0;
  for (const p of due) {
    const ran = await pace(async () => {
      const outcomes = await validateProposal(s, p, now);
      for (const o of outcomes) if (!o.ran && /refused|Budget|budget/.test(o.reason)) s.log.warn({ proposalId: p.id, policy: o.policy, reason: o.reason }, 'learning plane: synthetic generation refused');
    });
    if (!ran) break;
    validated += 1;
  }
  return validated;
}

// The wallet on the call path (D8): reserve the worst case before going upstream, then either
// settle (debit the real cost and seal its AI_USAGE entry in ONE transaction) or release. The proxy
// reserves through admission.ts (in memory, against a lease held the same way) and every
// settlement goes through settlement.ts (group commit); this module keeps the per-call holds, the
// failure path, the QA score writes and the call context.
//
// Lock order, everywhere money moves: the reservation row first, then the tenant's wallet row (the
// per-tenant lock and chain head), then the project's monthly spend row. Reserve creates its
// reservation row under the wallet lock; release, sweep and settlement claim the reservation and
// then touch the wallet. One order means no deadlock between any two of them, and different
// tenants never share a lock.
import { mapPerServices, type Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { isProviderKey, type ProviderKey } from '../../core/providers.ts';
import type { Admitted } from './admission.ts';
import { callContextRow, insertFailedCallLog, recordQaScores, releaseIn, reserveRow } from './wallet.repo.ts';
import { callLogValues, type FailedCallInput, type SettledCall, type SettlementPlan } from './settlement-plan.ts';
import type { SettleOptions } from './settlement.ts';
// The wallet's statements live in wallet.repo.ts; these are part of the wallet's surface.
export { monthSpentMicros, recordQaScores, releaseIn, walletBalance } from './wallet.repo.ts';
// The settlement plan and its answer (settlement-plan.ts), part of the wallet's surface.
export {
  PROMPT_EXCERPT_CHARS,
  callLogValues,
  type CallRecordBase,
  type FailedCallInput,
  type PricedCall,
  type RoutingRecord,
  type SettledCall,
  type SettledSavings,
  type SettlementInput,
  type SettlementPlan,
} from './settlement-plan.ts';

/** A worst-case hold on the wallet for one call attempt; its id is the attempt's call id. */
export interface Reservation {
  id: string;
  tenantId: string;
  projectId: string;
  amountMicros: bigint;
  createdAt: Date;
  /** Set when the proxy admitted the call against this replica's lease (admission.ts), not a row of its own. */
  admitted?: Admitted;
}

export interface ReserveInput {
  tenantId: string;
  projectId: string;
  /** The attempt's call id (UUID); it becomes the reservation id and the call-log row id. */
  callId: string;
  /** Worst-case cost (core/pricing worstCaseCostMicros), ≥ 0. */
  amountMicros: bigint;
}

const UNIQUE_VIOLATION = '23505';

const pgCode = (e: unknown) => (e as { code?: string }).code;

/**
 * Reserve the worst case for one call (D8), in ONE round trip: the conditional UPDATE on the
 * wallet (`balance - reserved >= amount`), the project's monthly budget check and the reservation
 * row, all inside sb_reserve (migration 002 explains why a function and not CTEs).
 * 402 insufficient_balance / budget_exceeded; 404 for an unknown project; 409 for a reused call id.
 */
export async function reserve(s: Services, input: ReserveInput): Promise<Reservation> {
  if (input.amountMicros < 0n) throw new RangeError('a reservation cannot be negative');
  const at = s.clock.now();
  let result: string | undefined;
  try {
    result = await reserveRow(s.db, input, at);
  } catch (e) {
    if (pgCode(e) === UNIQUE_VIOLATION) throw appError('conflict', `Call ${input.callId} already has a reservation`);
    throw e;
  }
  if (result !== 'ok') throw holdRefused('sb_reserve', result);
  return { id: input.callId, tenantId: input.tenantId, projectId: input.projectId, amountMicros: input.amountMicros, createdAt: at };
}

/** The error for a hold sb_reserve or sb_lease refused: 402 insufficient_balance / budget_exceeded, 404 project. */
export function holdRefused(fn: string, result: string | undefined): Error {
  switch (result) {
    case 'insufficient_balance':
      return appError('insufficient_balance');
    case 'budget_exceeded':
      return appError('budget_exceeded');
    case 'project_not_found':
      return appError('not_found', 'Project not found');
    default:
      return new Error(`${fn} returned ${String(result)}`);
  }
}

/** Failure path: release the hold, debit nothing. Idempotent (a second call, or one after settlement or a sweep, does nothing). */
export async function release(s: Services, reservation: Reservation): Promise<void> {
  if (reservation.admitted) s.admission.released(reservation.admitted);
  else await releaseIn(s.db, reservation.tenantId, reservation.id, s.clock.now());
}

/**
 * Settle a completed call in ONE transaction (D8, CONVENTIONS 8): claim the reservation, debit the
 * real cost while releasing the hold, seal the AI_USAGE entry with every audit column, write the
 * call-log row, the learning-outbox row, the project's monthly spend and the plan's `events`, write
 * its `followUps` through the settler's one follow-up writer, and
 * when the debit crosses the auto-top-up threshold, enqueue the charge in the same transaction.
 * Settlements that arrive together share that transaction and its commit (settlement.ts).
 *
 * Debit rule: the real cost, always. If the wallet cannot cover it (only possible when the real
 * cost exceeds the worst-case reservation), the debit is capped at what the wallet holds beyond
 * other calls' reservations, and the rest is recorded as uncollected on the call-log row; the
 * balance never goes negative and never below what other in-flight calls reserved.
 * Idempotent on the call id: settling a settled call returns the first settlement, debits nothing.
 */
export function settleCall(s: Services, plan: SettlementPlan, opts?: SettleOptions): Promise<SettledCall> {
  return s.settler.settle(plan, opts);
}

/**
 * A call that failed upstream (nothing billable was delivered): release its hold and write a
 * call-log row with status failed and no ledger entry, in one transaction. Idempotent on the call id.
 */
export async function recordFailedCall(s: Services, input: FailedCallInput): Promise<void> {
  const at = s.clock.now();
  const v = callLogValues(input, at);
  await s.db.transaction().execute(async (tx) => {
    if (input.reservation && !input.reservation.admitted) await releaseIn(tx, input.tenantId, input.reservation.id, at);
    await insertFailedCallLog(tx, input, v, at);
  });
  // The admission budget forgets the call's worst case once its failure is on record.
  if (input.reservation?.admitted) s.admission.released(input.reservation.admitted);
}

/**
 * The asynchronous QA score (spec §2 QA score, D5): written after the fact to the call-log row and
 * the call's ledger entry (an unsealed column); the learning outbox shows it through the view
 * `learning_outbox_events` (migration 008). Never on the call path.
 */
export async function recordQaScore(s: Services, input: { tenantId: string; callId: string; qa: Record<string, unknown> }): Promise<void> {
  await recordQaScores(s.db, s.clock.now(), [input]);
}

// ---------------------------------------------------------------------------------------------
// Call context: what the hot path needs about a tenant and project, in one query, cached briefly.

export interface CallContext {
  tenantId: string;
  projectId: string;
  projectName: string;
  /** 0..1 (D5). */
  qualityFloor: number;
  monthlyBudgetMicros: bigint | null;
  /** Residency prefix ('us' | 'eu' | 'asia') or null. */
  region: string | null;
  stage: 'onboarding' | 'connected' | 'live' | 'paused';
  /** The benchmark for new calls: the project's override, else the tenant's baseline (D7). */
  benchmarkProvider: ProviderKey | null;
  tenantBaselineProvider: ProviderKey | null;
  projectBenchmarkOverride: ProviderKey | null;
}

/** Entries live this long, bounding how stale another replica's change can be seen here. */
export const CALL_CONTEXT_TTL_MS = 5_000;
const cacheOf = mapPerServices<{ at: number; ctx: CallContext }>();

/**
 * Tenant benchmark and project settings in one query. Cached for CALL_CONTEXT_TTL_MS unless
 * `fresh`; changes made through this replica's API evict at once (invalidateCallContext).
 */
export async function loadCallContext(s: Services, ids: { tenantId: string; projectId: string }, opts: { fresh?: boolean } = {}): Promise<CallContext> {
  const key = `${ids.tenantId}:${ids.projectId}`;
  const cache = cacheOf(s);
  const now = s.clock.now().getTime();
  const hit = cache.get(key);
  if (!opts.fresh && hit && now - hit.at < CALL_CONTEXT_TTL_MS) return hit.ctx;
  const row = await callContextRow(s.db, ids);
  if (!row) throw appError('not_found', 'Project not found');
  const override = isProviderKey(row.benchmark_override) ? row.benchmark_override : null;
  const baseline = isProviderKey(row.baseline_provider_key) ? row.baseline_provider_key : null;
  const ctx: CallContext = {
    tenantId: ids.tenantId,
    projectId: row.id,
    projectName: row.name,
    // numeric(4,3) → a 0..1 ratio (a score, not money).
    qualityFloor: Number(row.quality_floor),
    monthlyBudgetMicros: row.monthly_budget_micros,
    region: row.region,
    stage: row.stage,
    benchmarkProvider: override ?? baseline,
    tenantBaselineProvider: baseline,
    projectBenchmarkOverride: override,
  };
  if (cache.size > 50_000) cache.clear();
  cache.set(key, { at: now, ctx });
  return ctx;
}

/**
 * A project's stage moved on this replica (committed): its cached context says so at once, so the
 * next call does not take the stage path again. Other replicas see it within CALL_CONTEXT_TTL_MS.
 */
export function noteProjectStage(s: Services, ids: { tenantId: string; projectId: string }, stage: CallContext['stage']): void {
  const key = `${ids.tenantId}:${ids.projectId}`;
  const hit = cacheOf(s).get(key);
  if (hit && hit.ctx.stage !== stage) hit.ctx = { ...hit.ctx, stage };
}

/** Drop cached contexts of a tenant (after its baseline or one of its projects changed). */
export function invalidateCallContext(s: Services, tenantId: string): void {
  // Every replica caches contexts: the message evicts them everywhere (evictCallContexts).
  s.invalidation.publish({ kind: 'context', id: tenantId });
}

/** Drop a tenant's cached call contexts on this replica. */
export function evictCallContexts(s: Services, tenantId: string): void {
  const cache = cacheOf(s);
  for (const k of cache.keys()) if (k.startsWith(`${tenantId}:`)) cache.delete(k);
  // A changed budget or project applies to the next call: no lease taken under the old one admits it.
  s.admission.retireTenant(tenantId);
}

/** The benchmark provider for a new call of this project: its override, else the tenant's baseline, else null (D7). */
export async function resolveBenchmark(s: Services, tenantId: string, projectId: string): Promise<ProviderKey | null> {
  return (await loadCallContext(s, { tenantId, projectId }, { fresh: true })).benchmarkProvider;
}

// Stage 8 of a call attempt (pipeline.ts): after the settlement committed, what follows from it
// in this process, none of it awaited by the answer: the cached project stage updated when a
// follow-up moved it, the event relay kicked (the `llm.call` row and any follow-up's events leave
// at once), wallet thresholds re-checked (debounced), the call's source noted for the D14 tile,
// and the QA scorer nudged when the settlement did not carry the call's full score.
import type { Services } from '../shared/index.ts';
import { noteProjectStage } from '../money/index.ts';
import { kickOutbox } from '../events/index.ts';
import { checkWalletThresholds } from '../events/index.ts';
import { noteCallSource } from '../events/index.ts';
import type { CallContext } from './context.ts';
import type { Settled } from './settle.ts';

/** Threshold alerts are re-evaluated at most this often per tenant and process (a job does the work). */
const THRESHOLD_CHECK_EVERY_MS = 1_000;
const lastThresholdCheck = new Map<string, number>();
function maybeCheckThresholds(s: Services, tenantId: string): void {
  const now = Date.now();
  if (now - (lastThresholdCheck.get(tenantId) ?? 0) < THRESHOLD_CHECK_EVERY_MS) return;
  if (lastThresholdCheck.size > 100_000) lastThresholdCheck.clear();
  lastThresholdCheck.set(tenantId, now);
  checkWalletThresholds(s, tenantId).catch((e) => s.log.warn(e, 'threshold check failed'));
}

export function afterSettlement(s: Services, ctx: CallContext, channel: string, done: Settled): void {
  // Committed: later calls see the project live without reading it again (a duplicate settlement
  // wrote no follow-ups, so nothing moved then).
  const stage = done.settled.followedUp?.projectStage;
  if (stage) noteProjectStage(s, ctx, stage);
  kickOutbox(s);
  maybeCheckThresholds(s, ctx.tenantId);
  // D14 tile status: the call's channel was seen (throttled, not awaited).
  noteCallSource(s, { tenantId: ctx.tenantId, projectId: ctx.projectId, keyId: ctx.keyId, channel });
  // Otherwise the full QA score is written after the fact by the worker (never in the request path).
  if (!done.qaSettled) s.jobs.nudgeQaScoring();
}

// Stage 4 of a call attempt (pipeline.ts): Layer 2 picks the endpoints to try for the model class
// Layer 1 (or an escalation) chose, the conversation's pinned endpoint first, at most MAX_FAILOVER
// of them; the attempt's worst case is the dearest of them (D8), which admission reserves.
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest, ClientShape } from '../../core/canonical/types.ts';
import { appError } from '../../core/errors.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import { chooseEndpoints, requiredCapabilities, type RankedEndpoint } from '../../core/routing/layer2.ts';
import type { ModelClass } from '../../core/model-class.ts';
import { estimateInputTokens } from '../../core/pricing/estimate.ts';
import { findModel } from '../../core/pricing/price-book.ts';
import { worstCaseCostMicros } from '../../core/pricing/cost.ts';
import type { CallContext } from './context.ts';
import type { CallDeps } from './deps.ts';
import type { CallRequest } from './call-request.ts';
import { pinnedFirst, type ConversationPin } from './conversations.ts';

/** Default output cap for reservations when the client sets none and the book knows none. */
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/** Failover tries at most this many endpoints; the reservation covers the dearest of them. */
const MAX_FAILOVER = 3;

export interface Route {
  /** The class Layer 2 serves (a rule may have moved it). */
  modelClass: ModelClass;
  /** Endpoints to try in order; the first is the attempt's until failover moves on. */
  endpoints: RankedEndpoint[];
  /** The attempt's worst case: the dearest endpoint's, at the output cap. */
  worstMicros: bigint;
  /** The endpoint that worst case is priced at (named in a refusal). */
  dearest: RankedEndpoint | null;
  inputTokens: number;
}

function scopeOf(req: CallRequest): 'any' | ClientShape {
  return req.vendorLocked ? req.shape : 'any';
}

export function chooseRoute(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  decision: Layer1Decision,
  modelClass: ModelClass,
  pin: ConversationPin | undefined,
): Route {
  const candidates = deps.candidates[scopeOf(req)];
  if (candidates.length === 0) throw appError('upstream_unconfigured');
  const choice = chooseEndpoints({
    modelClass,
    taskFamily: decision.taskFamily,
    candidates,
    health: deps.health.snapshot(),
    residency: ctx.region,
    requiredCapabilities: requiredCapabilities(call),
    rules: deps.rules(),
    now: s.clock.now().getTime(),
  });
  if (choice.endpoints.length === 0) {
    throw appError('upstream_unconfigured', 'No configured upstream endpoint can serve this request');
  }
  const endpoints = pinnedFirst(choice.endpoints, pin).slice(0, MAX_FAILOVER);
  const inputTokens = estimateInputTokens(call);
  let worst = 0n;
  let dearest: RankedEndpoint | null = null;
  for (const e of endpoints) {
    const m = findModel(e.model);
    // A pass-through asking for several choices (`n`, `candidateCount`) is billed for each.
    const maxOut = (call.maxTokens ?? m?.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS) * (req.vendorLocked ? (call.candidates ?? 1) : 1);
    const c = worstCaseCostMicros(
      { inputMicrosPerMTok: e.inputMicrosPerMTok, outputMicrosPerMTok: e.outputMicrosPerMTok, maxOutputTokens: m?.maxOutputTokens },
      inputTokens,
      maxOut,
    );
    if (c > worst) {
      worst = c;
      dearest = e;
    }
  }
  return { modelClass: choice.modelClass ?? modelClass, endpoints, worstMicros: worst, dearest, inputTokens };
}

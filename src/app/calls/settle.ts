// Stage 7 of a call attempt (pipeline.ts): settlement. The attempt's facts become one plain
// settlement plan (money/settlement-plan.ts): the call-log facts, the hold, the delivery path, the
// usage, the documents for the learning outbox, the `llm.call` event row, and the follow-ups other
// domains do in the same transaction (the project's stage, the escalation event), named as data.
// The money domain settles the plan in one transaction (group-committed, D8) and writes all of it;
// the answer waits for that commit. A failed attempt's plan releases the hold instead.
import type { Services } from '../shared/index.ts';
import type { SettlementFollowUp } from '../shared/index.ts';
import type { CanonicalRequest, CanonicalResponse, ClientShape, Usage } from '../../core/canonical/types.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { ModelClass } from '../../core/model-class.ts';
import { qaDocument, type QaScore } from '../../core/quality/index.ts';
import type { ProviderKey } from '../../core/providers.ts';
import { PROMPT_EXCERPT_CHARS, recordFailedCall, settleCall, type Reservation, type RoutingRecord, type SettledCall, type SettlementPlan } from '../money/index.ts';
import { priceSettlement } from '../money/index.ts';
import { CHANNELS, llmCallFrame } from '../events/index.ts';
import type { CallContext } from './context.ts';
import type { CallRequest } from './call-request.ts';
import type { ProviderEndpoint } from './providers.ts';

/** One attempt of a call (D5: escalations are further attempts): routed, admitted, then delivered. */
export interface Attempt {
  callId: string;
  /** The first attempt's call id for an escalated retry; null for the first. */
  parentCallId: string | null;
  /** 1 for the first attempt. */
  n: number;
  decision: Layer1Decision;
  modelClass: ModelClass;
  /** The endpoints to try (Layer 2); `endpoint` is the one that answered, once one has. */
  endpoints: RankedEndpoint[];
  endpoint: RankedEndpoint;
  provider: ProviderEndpoint;
  reservation: Reservation;
  /** The input-token estimate the worst case was priced with (a stream's usage falls back to it). */
  inputTokens: number;
  startedAt: number;
}

export interface AttemptFacts {
  ctx: CallContext;
  call: CanonicalRequest;
  callId: string;
  /** The first attempt's call id for escalated retries (D5); null for the first attempt. */
  parentCallId: string | null;
  attempt: number;
  decision: Layer1Decision;
  modelClass: ModelClass;
  endpoint: RankedEndpoint;
  reservation: Reservation;
  /** 'proxy:chat' and the like, or 'qa:judge'. */
  channel: string;
  shape: ClientShape;
  latencyMs: number;
}

export interface SettleFacts extends AttemptFacts {
  usage: Usage;
  response: CanonicalResponse;
  qa: QaScore | null;
  /** Overall inline score, when the response was checked inline. */
  qaOverall?: number;
  escalated: boolean;
  /** The rung the next attempt climbs to, when this one escalated. */
  escalatedTo?: ModelClass;
}

/** The facts every settlement or failure of an attempt records. */
export function attemptFacts(req: CallRequest, call: CanonicalRequest, ctx: CallContext, a: Attempt): AttemptFacts {
  return {
    ctx,
    call,
    callId: a.callId,
    parentCallId: a.parentCallId,
    attempt: a.n,
    decision: a.decision,
    modelClass: a.modelClass,
    endpoint: a.endpoint,
    reservation: a.reservation,
    channel: req.channel ?? `proxy:${req.surface}`,
    shape: req.shape,
    latencyMs: Date.now() - a.startedAt,
  };
}

/** What the settlement stage hands on to the stage after it (after-settlement.ts). */
export interface Settled {
  settled: SettledCall;
  /** The full QA score settled with the call (D5a), or null: then the worker scores it later. */
  qaSettled: boolean;
}

const channelOf = (c: string): (typeof CHANNELS)[number] => {
  const head = c.split(':')[0];
  return (CHANNELS as readonly string[]).includes(head) ? (head as (typeof CHANNELS)[number]) : 'proxy';
};

/** Everything a prompt says, for the analytics search excerpt. */
function promptText(call: CanonicalRequest): string {
  let out = call.system ? `${call.system}\n` : '';
  for (const m of call.messages) {
    for (const p of m.content) if (p.type === 'text') out += `${p.text}\n`;
    if (out.length > PROMPT_EXCERPT_CHARS) break;
  }
  return out;
}

function routing(d: Layer1Decision): RoutingRecord {
  return { taskFamily: d.taskFamily, complexity: d.complexity, tableVersion: d.tableVersion, features: d.features, appliedRules: d.appliedRules };
}

/** The call-log fields every attempt records, settled or failed. */
function callRecord(f: AttemptFacts) {
  return {
    tenantId: f.ctx.tenantId,
    projectId: f.ctx.projectId,
    callId: f.callId,
    keyId: f.ctx.keyId,
    channel: f.channel,
    clientShape: f.shape,
    stream: f.call.stream,
    conversationId: f.call.conversationId ?? null,
    routing: routing(f.decision),
    latencyMs: f.latencyMs,
    promptExcerpt: promptText(f.call),
    attempt: f.attempt,
    parentCallId: f.parentCallId,
  };
}

/** The attempt's settlement plan: plain data, priced once (its `llm.call` row carries the price). */
export function settlementPlan(s: Services, f: SettleFacts): SettlementPlan {
  const at = s.clock.now();
  // D5a: with no judge, a non-streamed call's full QA score is the inline check it already passed;
  // it is written by the settlement, and no asynchronous scoring runs for the call.
  const qa = f.qa && !f.call.stream && !s.config.QA_JUDGE_ENABLED ? qaDocument(f.qa, f.qa.reasons, f.ctx.qualityFloor, 'inline') : null;
  const benchmarkProvider = f.ctx.benchmarkProvider;
  const priced = priceSettlement({ model: f.endpoint.model, benchmarkProvider, usage: f.usage });
  // Rare: the project is not live yet (the billed call may move it), or the attempt escalated.
  let followUps: SettlementFollowUp[] | undefined;
  // A live project stays live on a billed call: no follow-up (the context is at most seconds old).
  if (f.ctx.stage !== 'live') (followUps ??= []).push({ kind: 'stage.billed_call', projectId: f.ctx.projectId });
  if (f.escalated && f.escalatedTo) {
    (followUps ??= []).push({
      kind: 'routing.escalated',
      tenantId: f.ctx.tenantId,
      projectId: f.ctx.projectId,
      payload: {
        callId: f.callId,
        fromClass: f.modelClass,
        toClass: f.escalatedTo,
        attempt: f.attempt,
        reason: (f.qa?.reasons.join('; ') || 'below the quality floor').slice(0, 200),
        qualityScore: f.qaOverall ?? null,
      },
    });
  }
  return Object.assign(callRecord(f), {
    escalated: f.escalated,
    reservation: f.reservation,
    provider: f.endpoint.provider as ProviderKey,
    model: f.endpoint.model,
    region: f.endpoint.region,
    modelClass: f.modelClass,
    usage: f.usage,
    benchmarkProvider,
    request: f.call,
    response: f.response,
    qa,
    priced,
    // The llm.call event, a row of the settlement's own statement (D8: same transaction as the debit).
    events: [
      {
        tenantWide: false,
        frame: llmCallFrame({
          tenantId: f.ctx.tenantId,
          projectId: f.ctx.projectId,
          at,
          call: {
            callId: f.callId,
            modelClass: f.modelClass,
            taskFamily: f.decision.taskFamily,
            complexity: f.decision.complexity,
            inputTokens: f.usage.inputTokens,
            outputTokens: f.usage.outputTokens,
            costMicros: priced.sv.actualCostMicros,
            savingsTokens: priced.sv.tokensSavedMicros,
            escalated: f.escalated,
            latencyMs: f.latencyMs,
            channel: channelOf(f.channel),
          },
        }),
      },
    ],
    followUps,
  });
}

/** Settle the attempt: its plan, committed (the answer waits for this). */
export async function settle(s: Services, f: SettleFacts): Promise<Settled> {
  const plan = settlementPlan(s, f);
  return { settled: await settleCall(s, plan), qaSettled: plan.qa != null };
}

/** A failed attempt: its hold released and a failed call-log row, nothing debited. */
export async function fail(s: Services, f: AttemptFacts & { error: string }): Promise<void> {
  await recordFailedCall(s, Object.assign(callRecord(f), {
    reservation: f.reservation,
    provider: f.endpoint.provider as ProviderKey,
    model: f.endpoint.model,
    region: f.endpoint.region,
    modelClass: f.modelClass,
    benchmarkProvider: f.ctx.benchmarkProvider,
    errorCode: f.error,
  }));
}

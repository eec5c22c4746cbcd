// The path of one proxied call (ARCHITECTURE, docs/layout.md), stage by stage, each visited once
// per attempt and each in its own module:
//
//   1. parse          the client's shape into the canonical call            (wire/)
//   2. context        tenant and project settings, cached                    context.ts
//   3. Layer 1        the model class                                        core/routing/layer1.ts
//   then per attempt (a non-streamed answer below the project's floor escalates one rung, D5):
//   4. Layer 2        the endpoints to try, and the attempt's worst case     route.ts
//   5. admission      the worst case reserved against the replica's lease    admit.ts
//   6. delivery       upstream with failover; JSON, or a stream              deliver.ts, stream.ts
//   7. settlement     one plain plan, settled in one transaction (D8)        settle.ts → money/
//   8. after it       relay kick, thresholds, source, QA nudge              after-settlement.ts
//
// A stream's settlement (7, 8) runs inside its delivery, before the held-back last frame (D8).
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest, CanonicalResponse, Usage } from '../../core/canonical/types.ts';
import { appError } from '../../core/errors.ts';
import { WIRES } from '../../wire/index.ts';
import { decideLayer1, type Layer1Decision } from '../../core/routing/layer1.ts';
import { nextRung, type ModelClass } from '../../core/model-class.ts';
import { estimateTokens } from '../../core/pricing/estimate.ts';
import { inlineCheck, overallScore, shouldEscalate, type QaScore } from '../../core/quality/index.ts';
import type { StreamSink } from './stream.ts';
import type { CallContext } from './context.ts';
import { chooseRoute } from './route.ts';
import { deliverJson, deliverStream } from './deliver.ts';
import { attemptFacts, type Attempt, type SettleFacts } from './settle.ts';
import { passThroughBody } from './upstream-request.ts';
import { continuedClass, type ConversationPin } from './conversations.ts';
import type { CallDeps } from './deps.ts';
import type { CallRequest, JsonOutcome, StreamedOutcome } from './call-request.ts';

export type { CallRequest, JsonOutcome, StreamedOutcome, Surface } from './call-request.ts';
export type { CallDeps } from './deps.ts';

/** D5: at most two escalations per call. */
const MAX_ESCALATIONS = 2;

export async function runCall(s: Services, deps: CallDeps, req: CallRequest, sink: () => StreamSink): Promise<JsonOutcome | StreamedOutcome> {
  // 1. Parse.
  const parsed = (req.clientWire ?? WIRES[req.shape]).parseRequest(req.body, req.parseCtx);
  if (!parsed.ok) throw appError('validation', parsed.message, { field: parsed.field });
  const call = parsed.value;
  if (req.conversationId) call.conversationId = req.conversationId;
  // 2. Context.
  const ctx = await deps.stages.loadContext(s, req.principal);
  // 3. Layer 1, continued on the conversation's class when the thread has one.
  const now = s.clock.now().getTime();
  const decision = decideLayer1(call, { qualityFloor: ctx.qualityFloor, rules: deps.rules(), now });
  const pin = req.conversationId ? deps.pins.get(ctx.tenantId, req.conversationId, now) : undefined;
  const modelClass = continuedClass(decision.modelClass, pin);
  return call.stream ? streamCall(s, deps, req, call, ctx, decision, modelClass, pin, sink) : answerCall(s, deps, req, call, ctx, decision, modelClass, pin, now);
}

/** Stages 4 and 5 of an attempt: Layer 2, then admission of its worst case. */
async function startAttempt(
  s: Services,
  deps: CallDeps,
  call: CanonicalRequest,
  req: CallRequest,
  ctx: CallContext,
  decision: Layer1Decision,
  modelClass: ModelClass,
  pin: ConversationPin | undefined,
  parentCallId: string | null,
  n: number,
): Promise<Attempt> {
  const route = chooseRoute(s, deps, req, call, ctx, decision, modelClass, pin);
  const callId = randomUUID();
  const reservation = await deps.stages.admit(s, ctx, callId, route, call);
  const first = route.endpoints[0];
  return {
    callId,
    parentCallId,
    n,
    decision,
    modelClass: route.modelClass,
    endpoints: route.endpoints,
    endpoint: first,
    provider: deps.providers.get(first.provider)!,
    reservation,
    inputTokens: route.inputTokens,
    startedAt: Date.now(),
  };
}

/** A non-streamed call: each attempt checked before the user sees it, escalated one rung at a time. */
async function answerCall(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  decision: Layer1Decision,
  firstClass: ModelClass,
  pin: ConversationPin | undefined,
  now: number,
): Promise<JsonOutcome> {
  const attempts: Array<{ a: Attempt; res: CanonicalResponse; raw: Record<string, unknown> | null; score: number; saved: bigint | null; debited: bigint }> = [];
  let modelClass = firstClass;
  let parentId: string | null = null;
  for (let i = 0; i <= MAX_ESCALATIONS; i++) {
    let a: Attempt;
    let res: Awaited<ReturnType<typeof deliverJson>>;
    try {
      a = await startAttempt(s, deps, call, req, ctx, decision, modelClass, parentId === null ? pin : undefined, parentId, i + 1);
      res = await deliverJson(s, deps, req, call, ctx, a);
    } catch (e) {
      // An escalation that fails (refused by the vendor, upstream down, not affordable) has logged
      // its own failed row and debited nothing; the earlier attempts are settled and paid, so the
      // client gets the best of them rather than an error for a call it was charged for.
      if (attempts.length === 0) throw e;
      s.log.warn({ err: e, callId: attempts.at(-1)!.a.callId, attempt: i + 1 }, 'escalation failed: answering with the best settled attempt');
      break;
    }
    const qa: QaScore = inlineCheck(call, res.response);
    const score = overallScore(qa);
    const up = nextRung(a.modelClass);
    const escalate = shouldEscalate(qa, ctx.qualityFloor) && up !== null && i < MAX_ESCALATIONS;
    // Filled in place rather than `{ ...facts(…), usage, … }`: on Node 20 a spread followed by
    // more properties takes a slow path costing µs per object (measured 4–14 µs here).
    const f = attemptFacts(req, call, ctx, a) as SettleFacts;
    f.usage = res.response.usage;
    f.response = res.response;
    f.qa = qa;
    f.qaOverall = score;
    f.escalated = escalate;
    f.escalatedTo = escalate ? up! : undefined;
    const done = await deps.stages.settle(s, f);
    deps.stages.afterSettlement(s, ctx, f.channel, done);
    attempts.push({ a, res: res.response, raw: res.raw, score, saved: done.settled.savings?.tokensSavedMicros ?? null, debited: done.settled.debitedMicros });
    if (!escalate) break;
    parentId = a.callId;
    modelClass = up!;
  }
  // The user receives the best answer (D5); ties go to the later, higher-class attempt.
  let best = attempts[0];
  let debited = 0n;
  for (const x of attempts) {
    if (x.score >= best.score) best = x;
    debited += x.debited;
  }
  if (req.conversationId) deps.pins.record(ctx.tenantId, req.conversationId, best.a.modelClass, best.a.endpoint.key, now);
  const body = best.raw ? passThroughBody(best.raw, call) : (req.clientWire ?? WIRES[req.shape]).renderResponse(best.res, call);
  if (req.onDelivered) await req.onDelivered(call, best.a.callId, body, { modelClass: best.a.modelClass, endpointKey: best.a.endpoint.key }).catch((e: unknown) => s.log.warn(e, 'after-delivery step failed'));
  return {
    kind: 'json',
    status: 200,
    headers: {
      'x-service-call-id': best.a.callId,
      'x-service-model-class': best.a.modelClass,
      // What the wallet paid for this answer, escalated attempts included (D14: the MCP `ask` tool).
      'x-service-cost-micros': debited.toString(),
      // D11: whatever the simulated upstream produced is labelled as simulated.
      ...(best.a.provider.simulated ? { 'x-service-simulated': 'true' } : {}),
      'x-service-tokens-saved': best.saved !== null ? best.saved.toString() : 'null',
    },
    body,
  };
}

/** A streamed call: one attempt (streamed bytes cannot be taken back, D5), settled before its last frame. */
async function streamCall(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  decision: Layer1Decision,
  modelClass: ModelClass,
  pin: ConversationPin | undefined,
  openSink: () => StreamSink,
): Promise<StreamedOutcome> {
  const a = await startAttempt(s, deps, call, req, ctx, decision, modelClass, pin, null, 1);
  await deliverStream(s, deps, req, call, ctx, a, openSink, async (usage: Partial<Usage>, counted) => {
    const finalUsage: Usage = {
      inputTokens: usage.inputTokens ?? a.inputTokens,
      outputTokens: usage.outputTokens ?? estimateTokens(counted.outputText),
    };
    // No escalation; the score feeds Layer 3 later.
    const response: CanonicalResponse = {
      id: a.callId,
      model: a.endpoint.model,
      content: [{ type: 'text', text: counted.outputText }],
      finishReason: counted.complete ? 'stop' : 'error',
      usage: finalUsage,
    };
    const f = attemptFacts(req, call, ctx, a) as SettleFacts;
    f.usage = finalUsage;
    f.response = response;
    f.qa = null;
    f.escalated = false;
    const done = await deps.stages.settle(s, f);
    deps.stages.afterSettlement(s, ctx, f.channel, done);
    if (req.conversationId) deps.pins.record(ctx.tenantId, req.conversationId, a.modelClass, a.endpoint.key, s.clock.now().getTime());
    if (counted.complete && req.onDelivered) {
      await req.onDelivered(call, a.callId, null, { modelClass: a.modelClass, endpointKey: a.endpoint.key }).catch((e: unknown) => s.log.warn(e, 'after-delivery step failed'));
    }
  });
  return { kind: 'streamed' };
}

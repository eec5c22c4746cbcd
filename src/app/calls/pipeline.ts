// The path of one proxied call (ARCHITECTURE): parse the client's shape into the canonical call,
// Layer 1 (model class), Layer 2 (endpoint failover list), reserve the worst case, call the
// provider through its wire, check the answer inline and escalate up the ladder when it is below
// the project's floor (D5), settle in one transaction, answer in the client's own shape.
// Streams are transcoded event by event (or piped through when client and provider share a
// wire), and their last frame is held back until the call is settled (D8).
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/services.ts';
import type { CanonicalRequest, CanonicalResponse, ClientShape, Usage } from '../../core/canonical/types.ts';
import { appError, AppError } from '../../core/errors.ts';
import { WIRES, type WireFormat } from '../../wire/index.ts';
import { decideLayer1, type Layer1Decision } from '../../core/routing/layer1.ts';
import { chooseEndpoints, requiredCapabilities, type EndpointCandidate, type RankedEndpoint } from '../../core/routing/layer2.ts';
import { nextRung, type ModelClass } from '../../core/model-class.ts';
import { estimateInputTokens, estimateTokens } from '../../core/pricing/estimate.ts';
import { findModel } from '../../core/pricing/price-book.ts';
import { worstCaseCostMicros } from '../../core/pricing/cost.ts';
import { inlineCheck, overallScore, shouldEscalate, type QaScore } from '../../core/quality/index.ts';
import { UpstreamError, type UpstreamResponse } from '../../infra/upstream.ts';
import { upstreamUrl, type ProviderEndpoint } from './providers.ts';
import { pumpStream, type StreamSink } from './stream.ts';
import type { CallContext, Reservation, SettleFacts } from './accounting.ts';
import { explainRefusal } from './affordability.ts';
import { passThroughBody, upstreamRequest } from './upstream-request.ts';
import { continuedClass, pinnedFirst, type ConversationPin, type ConversationPins } from './conversations.ts';
import type { CallRequest, JsonOutcome, StreamedOutcome } from './call-request.ts';

export type { CallRequest, JsonOutcome, StreamedOutcome, Surface } from './call-request.ts';

/** Default output cap for reservations when the client sets none and the book knows none. */
const DEFAULT_MAX_OUTPUT_TOKENS = 4096;
/** Failover tries at most this many endpoints; the reservation covers the dearest of them. */
const MAX_FAILOVER = 3;
/** D5: at most two escalations per call. */
const MAX_ESCALATIONS = 2;

/** Everything the pipeline needs beyond Services, built once at start-up. */
export interface CallDeps {
  providers: Map<string, ProviderEndpoint>;
  /** Endpoint candidates per routing scope: 'any' and one per client wire (vendor-locked). */
  candidates: Record<'any' | ClientShape, EndpointCandidate[]>;
  health: import('./health.ts').HealthTracker;
  upstream: import('../../infra/upstream.ts').UpstreamClient;
  accounting: typeof import('./accounting.ts');
  /** Layer 3 rules in force (read by Layers 1 and 2). */
  rules: () => readonly import('../../core/routing/rules.ts').Layer3Rule[];
  /** Thread continuity: each conversation's class and endpoint (conversations.ts). */
  pins: ConversationPins;
}

interface Attempt {
  callId: string;
  decision: Layer1Decision;
  modelClass: ModelClass;
  endpoint: RankedEndpoint;
  provider: ProviderEndpoint;
  reservation: Reservation;
  startedAt: number;
}

export async function runCall(s: Services, deps: CallDeps, req: CallRequest, sink: () => StreamSink): Promise<JsonOutcome | StreamedOutcome> {
  const client = req.clientWire ?? WIRES[req.shape];
  const parsed = client.parseRequest(req.body, req.parseCtx);
  if (!parsed.ok) throw appError('validation', parsed.message, { field: parsed.field });
  const call = parsed.value;
  if (req.conversationId) call.conversationId = req.conversationId;

  const ctx = await deps.accounting.loadCallContext(s, req.principal);
  const now = s.clock.now().getTime();
  const rules = deps.rules();
  const decision = decideLayer1(call, { qualityFloor: ctx.qualityFloor, rules, now });
  const pin = req.conversationId ? deps.pins.get(ctx.tenantId, req.conversationId, now) : undefined;

  if (call.stream) {
    const attempt = await startAttempt(s, deps, req, call, ctx, decision, continuedClass(decision.modelClass, pin), pin);
    const sent = await deliverStream(s, deps, req, call, ctx, attempt, sink);
    return sent;
  }

  // Non-streamed: the answer is checked before the user sees it, and escalated one rung at a time.
  const attempts: Array<{ a: Attempt; res: CanonicalResponse; raw: Record<string, unknown> | null; qa: QaScore; score: number; saved: bigint | null; debited: bigint }> = [];
  let modelClass: ModelClass = continuedClass(decision.modelClass, pin);
  let parentId: string | null = null;
  for (let i = 0; i <= MAX_ESCALATIONS; i++) {
    const a = await startAttempt(s, deps, req, call, ctx, decision, modelClass, parentId === null ? pin : undefined);
    const res = await deliverJson(s, deps, req, call, ctx, a, parentId, i + 1);
    const qa = inlineCheck(call, res.response);
    const score = overallScore(qa);
    const up = nextRung(a.modelClass);
    const escalate = shouldEscalate(qa, ctx.qualityFloor) && up !== null && i < MAX_ESCALATIONS;
    // Filled in place rather than `{ ...facts(…), usage, … }`: on Node 20 a spread followed by
    // more properties takes a slow path costing µs per object (measured 4–14 µs here).
    const f = facts(req, call, ctx, a, parentId, i + 1) as SettleFacts;
    f.usage = res.response.usage;
    f.response = res.response;
    f.qa = qa;
    f.qaOverall = score;
    f.escalated = escalate;
    f.escalatedTo = escalate ? up! : undefined;
    const settled = await deps.accounting.settleAttempt(s, f);
    attempts.push({ a, res: res.response, raw: res.raw, qa, score, saved: settled.tokensSavedMicros, debited: settled.settled.debitedMicros });
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
  const body = best.raw ? passThroughBody(best.raw, call) : client.renderResponse(best.res, call);
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

/** The facts every settlement or failure of an attempt records. */
function facts(req: CallRequest, call: CanonicalRequest, ctx: CallContext, a: Attempt, parentCallId: string | null, attempt: number) {
  return {
    ctx,
    call,
    callId: a.callId,
    parentCallId,
    attempt,
    decision: a.decision,
    modelClass: a.modelClass,
    endpoint: a.endpoint,
    reservation: a.reservation,
    channel: req.channel ?? `proxy:${req.surface}`,
    shape: req.shape,
    latencyMs: Date.now() - a.startedAt,
  };
}

function scopeOf(req: CallRequest): 'any' | ClientShape {
  return req.vendorLocked ? req.shape : 'any';
}

/** Layer 2 plus the reservation: the endpoints to try, and the wallet covering the dearest. */
async function startAttempt(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  decision: Layer1Decision,
  modelClass: ModelClass,
  pin: ConversationPin | undefined,
): Promise<Attempt & { endpoints: RankedEndpoint[] }> {
  const candidates = deps.candidates[scopeOf(req)];
  if (candidates.length === 0) throw appError('upstream_unconfigured');
  const now = s.clock.now().getTime();
  const choice = chooseEndpoints({
    modelClass,
    taskFamily: decision.taskFamily,
    candidates,
    health: deps.health.snapshot(),
    residency: ctx.region,
    requiredCapabilities: requiredCapabilities(call),
    rules: deps.rules(),
    now,
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
  const callId = randomUUID();
  const reservation = await deps.accounting.reserveCall(s, ctx, callId, worst).catch(async (e: unknown) => {
    throw dearest ? await explainRefusal(s, e, { tenantId: ctx.tenantId, call, modelClass: choice.modelClass ?? modelClass, endpoint: dearest, inputTokens, worst }) : e;
  });
  const first = endpoints[0];
  return {
    callId,
    decision,
    modelClass: choice.modelClass ?? modelClass,
    endpoint: first,
    provider: deps.providers.get(first.provider)!,
    reservation,
    startedAt: Date.now(),
    endpoints,
  };
}

/** Retryable upstream outcomes fail over to the next endpoint; others are final. */
function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

async function drain(res: UpstreamResponse): Promise<string> {
  try {
    return await res.body.text();
  } catch {
    return '';
  }
}

/**
 * Walk the failover list until one endpoint answers 2xx. Failover happens only before any byte
 * reached the client, which is always true here: nothing is sent until an upstream has answered.
 */
async function sendUpstream(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  attempt: Attempt & { endpoints: RankedEndpoint[] },
): Promise<{ res: UpstreamResponse; endpoint: RankedEndpoint; provider: ProviderEndpoint; wire: WireFormat }> {
  // Built only when an endpoint fails (the error object is not free on the hot path).
  let lastError: AppError | null = null;
  for (const endpoint of attempt.endpoints) {
    const provider = deps.providers.get(endpoint.provider);
    if (!provider) continue;
    const wire = WIRES[provider.wire];
    const up = upstreamRequest(req, call, wire, endpoint.model);
    const started = Date.now();
    deps.health.begin(endpoint.provider, endpoint.key, s.clock.now().getTime());
    try {
      const url = upstreamUrl(provider, up.path);
      const headers = wire.authHeaders(provider.apiKey);
      if (up.headers) for (const k in up.headers) headers[k] = up.headers[k];
      const res = await deps.upstream.post(url, headers, JSON.stringify(up.body), req.signal);
      if (res.status >= 200 && res.status < 300) {
        deps.health.success(endpoint.provider, endpoint.key, Date.now() - started, s.clock.now().getTime());
        return { res, endpoint, provider, wire };
      }
      const text = await drain(res);
      if (res.status === 404 || res.status === 405) {
        // No such route (or model) at the configured URL: the operator's setting, not the client's
        // request, is at fault. Another endpoint may be configured right. The URL stays in the log.
        deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
        const setting = `${endpoint.provider.toUpperCase()}_BASE_URL`;
        s.log.warn({ provider: endpoint.provider, model: endpoint.model, url, status: res.status, upstream: upstreamMessage(text, res.status) }, `upstream answered ${res.status}: check ${setting}`);
        lastError = appError('upstream_failed', `The upstream provider has no such endpoint or model (it answered ${res.status}); the operator should check ${setting} and the model catalogue`);
        continue;
      }
      if (isRetryableStatus(res.status)) {
        deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
        lastError = appError('upstream_failed', `The upstream provider answered ${res.status}`);
        continue;
      }
      // The provider refused the request itself (4xx): our translation or the client's input is
      // at fault, not the endpoint, so trying another would only repeat it.
      deps.health.success(endpoint.provider, endpoint.key, Date.now() - started, s.clock.now().getTime());
      throw appError(res.status === 401 || res.status === 403 ? 'upstream_failed' : 'validation', upstreamMessage(text, res.status));
    } catch (e) {
      if (e instanceof AppError) throw e;
      const err = e as UpstreamError;
      if (err.kind === 'aborted') throw appError('upstream_failed', 'The client closed the request');
      deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
      lastError = appError('upstream_failed', err.kind === 'timeout' ? 'The upstream provider timed out' : 'The upstream provider could not be reached');
    }
  }
  throw lastError ?? appError('upstream_failed');
}

function upstreamMessage(text: string, status: number): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (m) return `Upstream rejected the request: ${m}`;
  } catch {
    /* not JSON */
  }
  return `Upstream rejected the request (${status})`;
}

async function deliverJson(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  attempt: Attempt & { endpoints: RankedEndpoint[] },
  parentCallId: string | null,
  attemptNo: number,
): Promise<{ response: CanonicalResponse; raw: Record<string, unknown> | null }> {
  try {
    const { res, endpoint, provider, wire } = await sendUpstream(s, deps, req, call, attempt);
    attempt.endpoint = endpoint;
    attempt.provider = provider;
    let body: unknown;
    try {
      body = await res.body.json();
    } catch {
      throw appError('upstream_failed', 'The upstream provider sent a malformed response');
    }
    const parsed = wire.parseUpstreamResponse(body);
    if (!parsed.ok) throw appError('upstream_failed', `The upstream response could not be read: ${parsed.message}`);
    // A vendor-prefixed call answered in the client's own wire gets the vendor's body as it came
    // (D19: audio, several choices, thinking blocks…), only the model echoed.
    const same = req.vendorLocked && wire === (req.clientWire ?? WIRES[req.shape]);
    return { response: parsed.value, raw: same ? (body as Record<string, unknown>) : null };
  } catch (e) {
    throw await recordFailure(s, deps, e, facts(req, call, ctx, attempt, parentCallId, attemptNo));
  }
}

/** A failed attempt releases its reservation and logs the failure; the error goes on to the client. */
async function recordFailure(s: Services, deps: CallDeps, e: unknown, f: ReturnType<typeof facts>): Promise<unknown> {
  const failed = f as typeof f & { error: string };
  failed.error = e instanceof AppError ? e.code : 'internal';
  await deps.accounting.failAttempt(s, failed);
  return e;
}

async function deliverStream(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  attempt: Attempt & { endpoints: RankedEndpoint[] },
  openSink: () => StreamSink,
): Promise<StreamedOutcome> {
  let upstream;
  try {
    upstream = await sendUpstream(s, deps, req, call, attempt);
  } catch (e) {
    throw await recordFailure(s, deps, e, facts(req, call, ctx, attempt, null, 1));
  }
  attempt.endpoint = upstream.endpoint;
  attempt.provider = upstream.provider;
  const sink = openSink();
  sink.open({
    'x-service-call-id': attempt.callId,
    'x-service-model-class': attempt.modelClass,
    'x-service-tokens-saved': ctx.benchmarkProvider ? 'pending' : 'null',
    ...(attempt.provider.simulated ? { 'x-service-simulated': 'true' } : {}),
  });
  const inputEstimate = estimateInputTokens(call);
  await pumpStream({
    upstream: upstream.res,
    providerWire: upstream.wire,
    clientWire: req.clientWire ?? WIRES[req.shape],
    call,
    pipeThrough: req.vendorLocked,
    sink,
    signal: req.signal,
    // Runs before the held-back last frame is sent: the debit is durable first (D8).
    settle: async (usage: Partial<Usage>, counted: { outputText: string; complete: boolean }) => {
      const finalUsage: Usage = {
        inputTokens: usage.inputTokens ?? inputEstimate,
        outputTokens: usage.outputTokens ?? estimateTokens(counted.outputText),
      };
      // Streamed bytes cannot be taken back (D5): no escalation; the score feeds Layer 3 later.
      const response: CanonicalResponse = {
        id: attempt.callId,
        model: attempt.endpoint.model,
        content: [{ type: 'text', text: counted.outputText }],
        finishReason: counted.complete ? 'stop' : 'error',
        usage: finalUsage,
      };
      const f = facts(req, call, ctx, attempt, null, 1) as SettleFacts;
      f.usage = finalUsage;
      f.response = response;
      f.qa = null;
      f.escalated = false;
      await deps.accounting.settleAttempt(s, f);
      if (req.conversationId) deps.pins.record(ctx.tenantId, req.conversationId, attempt.modelClass, attempt.endpoint.key, s.clock.now().getTime());
      if (counted.complete && req.onDelivered) {
        await req.onDelivered(call, attempt.callId, null, { modelClass: attempt.modelClass, endpointKey: attempt.endpoint.key }).catch((e: unknown) => s.log.warn(e, 'after-delivery step failed'));
      }
    },
  });
  return { kind: 'streamed' };
}

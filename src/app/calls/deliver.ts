// Stage 6 of a call attempt (pipeline.ts): delivery. The request goes upstream with failover
// (upstream-send.ts); a JSON answer is read and parsed into the canonical response (the pipeline
// checks it inline and may escalate), a stream is opened to the client and pumped event by event
// (stream.ts), its last frame held back until `settle` has made the debit durable (D8). An attempt
// that fails before anything billable was delivered is recorded as failed (its hold released).
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest, CanonicalResponse, Usage } from '../../core/canonical/types.ts';
import { appError, AppError } from '../../core/errors.ts';
import { WIRES } from '../../wire/index.ts';
import { pumpStream, type Counted, type StreamSink } from './stream.ts';
import { sendUpstream, type Sent } from './upstream-send.ts';
import { attemptFacts, type Attempt } from './settle.ts';
import type { CallContext } from './context.ts';
import type { CallDeps } from './deps.ts';
import type { CallRequest } from './call-request.ts';

export interface JsonDelivery {
  response: CanonicalResponse;
  /** The vendor's own body, when it is passed through (D19); else null. */
  raw: Record<string, unknown> | null;
}

export async function deliverJson(s: Services, deps: CallDeps, req: CallRequest, call: CanonicalRequest, ctx: CallContext, a: Attempt): Promise<JsonDelivery> {
  try {
    const { res, endpoint, provider, wire } = await sendUpstream(s, deps, req, call, a.endpoints);
    a.endpoint = endpoint;
    a.provider = provider;
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
    throw await failed(s, deps, req, call, ctx, a, e);
  }
}

/**
 * Open the stream to the client once an upstream answered, and pump it; `settle` runs before the
 * held-back last frame is sent (D8).
 */
export async function deliverStream(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  ctx: CallContext,
  a: Attempt,
  openSink: () => StreamSink,
  settle: (usage: Partial<Usage>, counted: Counted) => Promise<void>,
): Promise<void> {
  let upstream: Sent;
  try {
    upstream = await sendUpstream(s, deps, req, call, a.endpoints);
  } catch (e) {
    throw await failed(s, deps, req, call, ctx, a, e);
  }
  a.endpoint = upstream.endpoint;
  a.provider = upstream.provider;
  const sink = openSink();
  sink.open({
    'x-service-call-id': a.callId,
    'x-service-model-class': a.modelClass,
    'x-service-tokens-saved': ctx.benchmarkProvider ? 'pending' : 'null',
    ...(a.provider.simulated ? { 'x-service-simulated': 'true' } : {}),
  });
  await pumpStream({
    upstream: upstream.res,
    providerWire: upstream.wire,
    clientWire: req.clientWire ?? WIRES[req.shape],
    call,
    pipeThrough: req.vendorLocked,
    sink,
    signal: req.signal,
    settle,
  });
}

/** A failed attempt releases its hold and logs the failure; the error goes on to the client. */
async function failed(s: Services, deps: CallDeps, req: CallRequest, call: CanonicalRequest, ctx: CallContext, a: Attempt, e: unknown): Promise<unknown> {
  const f = attemptFacts(req, call, ctx, a) as ReturnType<typeof attemptFacts> & { error: string };
  f.error = e instanceof AppError ? e.code : 'internal';
  await deps.stages.fail(s, f);
  return e;
}

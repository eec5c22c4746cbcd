// The call pipeline's side of the money path (D8): the call's context, the reservation before
// going upstream, settlement of each attempt in one transaction (debit, release, sealed AI_USAGE
// entry, call-log row, learning-outbox row, event-outbox rows), and the failure path that
// releases without debiting. The money rules themselves live in app/wallet.ts.
import type { Services } from '../services.ts';
import type { KeyPrincipal } from '../keys.ts';
import type { CanonicalRequest, CanonicalResponse, ClientShape, Usage } from '../../core/canonical/types.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { ModelClass } from '../../core/model-class.ts';
import type { QaScore } from '../../core/quality/index.ts';
import type { ProviderKey } from '../../core/providers.ts';
import * as wallet from '../wallet.ts';
import { nudgeQaScoring } from '../../jobs/qa-score.job.ts';

export type CallContext = wallet.CallContext & { keyId: string };
export type Reservation = wallet.Reservation;

export async function loadCallContext(s: Services, p: KeyPrincipal): Promise<CallContext> {
  const ctx = await wallet.loadCallContext(s, { tenantId: p.tenantId, projectId: p.projectId });
  return { ...ctx, keyId: p.keyId };
}

export function reserveCall(s: Services, ctx: CallContext, callId: string, amountMicros: bigint): Promise<Reservation> {
  return wallet.reserve(s, { tenantId: ctx.tenantId, projectId: ctx.projectId, callId, amountMicros });
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
  escalated: boolean;
}

/** Everything a prompt says, for the analytics search excerpt. */
function promptText(call: CanonicalRequest): string {
  let out = call.system ? `${call.system}\n` : '';
  for (const m of call.messages) {
    for (const p of m.content) if (p.type === 'text') out += `${p.text}\n`;
    if (out.length > wallet.PROMPT_EXCERPT_CHARS) break;
  }
  return out;
}

function routing(d: Layer1Decision): wallet.RoutingRecord {
  return { taskFamily: d.taskFamily, complexity: d.complexity, tableVersion: d.tableVersion, features: d.features, appliedRules: d.appliedRules };
}

export async function settleAttempt(s: Services, f: SettleFacts): Promise<{ tokensSavedMicros: bigint | null; settled: wallet.SettledCall }> {
  const settled = await wallet.settleCall(s, {
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
    escalated: f.escalated,
    reservation: f.reservation,
    provider: f.endpoint.provider as ProviderKey,
    model: f.endpoint.model,
    region: f.endpoint.region,
    modelClass: f.modelClass,
    usage: f.usage,
    benchmarkProvider: f.ctx.benchmarkProvider,
    request: f.call,
    response: f.response,
  });
  // The full QA score is written after the fact by the worker (never in the request path).
  nudgeQaScoring(s);
  return { tokensSavedMicros: settled.savings?.tokensSavedMicros ?? null, settled };
}

export async function failAttempt(s: Services, f: AttemptFacts & { error: string }): Promise<void> {
  await wallet.recordFailedCall(s, {
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
    reservation: f.reservation,
    provider: f.endpoint.provider as ProviderKey,
    model: f.endpoint.model,
    region: f.endpoint.region,
    modelClass: f.modelClass,
    benchmarkProvider: f.ctx.benchmarkProvider,
    errorCode: f.error,
  });
}

// The call pipeline's side of the money path (D8): the call's context, the reservation before
// going upstream, settlement of each attempt in one transaction (debit, release, sealed AI_USAGE
// entry, call-log row, learning-outbox row, event-outbox rows), and the failure path that
// releases without debiting. The money rules themselves live in app/wallet.ts.
import type { Services } from '../shared/services.ts';
import type { Tx } from '../../store/db.ts';
import type { CallPrincipal } from './call-request.ts';
import type { CanonicalRequest, CanonicalResponse, ClientShape, Usage } from '../../core/canonical/types.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { ModelClass } from '../../core/model-class.ts';
import { qaDocument, type QaScore } from '../../core/quality/index.ts';
import type { ProviderKey } from '../../core/providers.ts';
import * as wallet from '../money/wallet.ts';
import { CHANNELS, kickOutbox, llmCallFrame } from '../events/events.ts';
import { advanceStage, budgetExhausted, walletExhausted } from '../projects/stages.ts';
import type { StageMove } from '../../core/stage.ts';
import { checkWalletThresholds, emitRoutingEscalated } from '../events/notifications.ts';
import { AppError, appError } from '../../core/errors.ts';
import { noteCallSource } from '../events/connector-activity.ts';

export type CallContext = wallet.CallContext & { keyId: string | null };
export type Reservation = wallet.Reservation;

export async function loadCallContext(s: Services, p: CallPrincipal): Promise<CallContext> {
  const c = await wallet.loadCallContext(s, { tenantId: p.tenantId, projectId: p.projectId });
  // Field by field: `{ ...c, keyId }` takes a slow path in Node 20 (µs per call, measured).
  return {
    tenantId: c.tenantId,
    projectId: c.projectId,
    projectName: c.projectName,
    qualityFloor: c.qualityFloor,
    monthlyBudgetMicros: c.monthlyBudgetMicros,
    region: c.region,
    stage: c.stage,
    benchmarkProvider: c.benchmarkProvider,
    tenantBaselineProvider: c.tenantBaselineProvider,
    projectBenchmarkOverride: c.projectBenchmarkOverride,
    keyId: p.keyId,
  };
}

/**
 * Reserve the call's worst case (D8) against this replica's admission lease for the project: no
 * database round trip unless the lease must be renewed (admission.ts).
 */
export async function reserveCall(s: Services, ctx: CallContext, callId: string, amountMicros: bigint): Promise<Reservation> {
  try {
    const admitted = await s.admission.admit(ctx.tenantId, ctx.projectId, amountMicros);
    return { id: callId, tenantId: ctx.tenantId, projectId: ctx.projectId, amountMicros, createdAt: s.clock.now(), admitted };
  } catch (e) {
    // A refused call pauses the project (D4) and tells the stream: off the answer's path.
    // The refusal says where to act (issue 14): the wallet's billing page, or the project's budget.
    if (e instanceof AppError && e.code === 'insufficient_balance') {
      walletExhausted(s, null, ctx.tenantId).catch((err) => s.log.warn(err, 'wallet-exhausted stage move failed'));
      throw appError('insufficient_balance', `The wallet balance cannot cover this call. Top up at ${s.publicUrl}/billing (or turn on auto top-up there), then retry.`);
    }
    if (e instanceof AppError && e.code === 'budget_exceeded') {
      if (ctx.monthlyBudgetMicros !== null) noteBudgetExhausted(s, ctx).catch((err) => s.log.warn(err, 'budget-exhausted event failed'));
      throw appError('budget_exceeded', `The project's monthly budget cannot cover this call. Raise it at ${s.publicUrl}/smartone, or wait for the next month.`);
    }
    throw e;
  }
}

async function noteBudgetExhausted(s: Services, ctx: CallContext): Promise<void> {
  const now = s.clock.now();
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const row = await s.db
    .selectFrom('project_spend')
    .select('spent_micros')
    .where('project_id', '=', ctx.projectId)
    .where('month', '=', new Date(`${month}-01T00:00:00Z`))
    .executeTakeFirst();
  await budgetExhausted(s, null, { tenantId: ctx.tenantId, projectId: ctx.projectId, monthlyBudgetMicros: ctx.monthlyBudgetMicros!, spentMicros: row?.spent_micros ?? 0n, month });
}

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

const channelOf = (c: string): (typeof CHANNELS)[number] => {
  const head = c.split(':')[0];
  return (CHANNELS as readonly string[]).includes(head) ? (head as (typeof CHANNELS)[number]) : 'proxy';
};

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

export async function settleAttempt(s: Services, f: SettleFacts): Promise<{ tokensSavedMicros: bigint | null; settled: wallet.SettledCall }> {
  const at = s.clock.now();
  // Set by `extra` when the billed call moves the project (a holder: assigned inside the callback).
  const stage: { moved: StageMove | null } = { moved: null };
  // D5a: with no judge, a non-streamed call's full QA score is the inline check it already passed;
  // it is written by the settlement, and no asynchronous scoring runs for the call.
  const qa = f.qa && !f.call.stream && !s.config.QA_JUDGE_ENABLED ? qaDocument(f.qa, f.qa.reasons, f.ctx.qualityFloor, 'inline') : null;
  const settled = await wallet.settleCall(s, Object.assign(callRecord(f), {
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
    qa,
    // Same transaction as the debit (D8): the llm.call event always (a row of the batched write),
    // the stage move and the escalation event when there is one (rare: run as `extra`).
    events: (done: wallet.SettledFacts) => [
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
            costMicros: done.savings.actualCostMicros, // settlement's own price math: never computed twice
            savingsTokens: done.savings.tokensSavedMicros,
            escalated: f.escalated,
            latencyMs: f.latencyMs,
            channel: channelOf(f.channel),
          },
        }),
      },
    ],
    extra:
      f.ctx.stage !== 'live' || (f.escalated && f.escalatedTo)
        ? async (tx: Tx) => {
            // A live project stays live on a billed call: skip the read (the context is at most seconds old).
            if (f.ctx.stage !== 'live') stage.moved = await advanceStage(s, tx, f.ctx.projectId, 'billed_call', { at });
            if (f.escalated && f.escalatedTo) {
              await emitRoutingEscalated(s, tx, {
                tenantId: f.ctx.tenantId,
                projectId: f.ctx.projectId,
                at,
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
          }
        : undefined,
  }));
  // Committed: later calls see the project live without reading it again (a duplicate settlement
  // never ran `extra`, so nothing moved then).
  if (stage.moved) wallet.noteProjectStage(s, f.ctx, stage.moved.to);
  kickOutbox(s);
  maybeCheckThresholds(s, f.ctx.tenantId);
  // D14 tile status: the call's channel was seen (throttled, not awaited).
  noteCallSource(s, { tenantId: f.ctx.tenantId, projectId: f.ctx.projectId, keyId: f.ctx.keyId, channel: f.channel });
  // Otherwise the full QA score is written after the fact by the worker (never in the request path).
  if (!qa) s.jobs.nudgeQaScoring();
  return { tokensSavedMicros: settled.savings?.tokensSavedMicros ?? null, settled };
}

export async function failAttempt(s: Services, f: AttemptFacts & { error: string }): Promise<void> {
  await wallet.recordFailedCall(s, Object.assign(callRecord(f), {
    reservation: f.reservation,
    provider: f.endpoint.provider as ProviderKey,
    model: f.endpoint.model,
    region: f.endpoint.region,
    modelClass: f.modelClass,
    benchmarkProvider: f.ctx.benchmarkProvider,
    errorCode: f.error,
  }));
}

// The settlement plan (D8): what the call path hands the money domain to settle one attempt, and
// what a settlement answers. Plain data: no callbacks, no handles into other domains. The follow-ups
// other domains do in the same transaction are named as data too (shared/follow-ups.ts).
import { textForPg } from '../../store/pg-text.ts';
import type { ProviderKey } from '../../core/providers.ts';
import type { ModelClass } from '../../core/model-class.ts';
import type { ClientShape, Usage } from '../../core/canonical/types.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import type { PricedModel, Savings } from '../../core/pricing/index.ts';
import type { EventFrame } from '../../infra/bus/bus.ts';
import type { FollowUpResult, SettlementFollowUp } from '../shared/index.ts';
import type { Reservation } from './wallet.ts';

export const PROMPT_EXCERPT_CHARS = 500;

/** What Layer 1 decided and why (D12), recorded on the call-log row. */
export type RoutingRecord = Pick<Layer1Decision, 'taskFamily' | 'complexity' | 'tableVersion' | 'features' | 'appliedRules'>;

export interface CallRecordBase {
  tenantId: string;
  projectId: string;
  callId: string;
  /** The service key that made the call; null for surfaces without one (copy-paste, advisory). */
  keyId: string | null;
  /** Surface the call came through, e.g. 'proxy:chat', 'proxy:messages', 'proxy:generate', 'mcp'. */
  channel: string;
  /** The wire shape the client spoke, when it spoke one. */
  clientShape: ClientShape | null;
  stream: boolean;
  /** x-service-conversation-id, when given. */
  conversationId?: string | null;
  routing: RoutingRecord | null;
  /** Wall time from request received to response finished, ms. */
  latencyMs: number;
  /** Prompt text for the analytics search; only the first PROMPT_EXCERPT_CHARS are kept. */
  promptExcerpt: string;
  /** Quality escalation (D5): attempt 1 is the first; later attempts name the first attempt's call id. */
  attempt?: number;
  parentCallId?: string | null;
  /** This attempt scored below the floor and a better one was tried. It is still debited and sealed. */
  escalated?: boolean;
}

/**
 * Everything one settlement writes, as plain data (D8): the call-log facts, the hold, the delivery
 * path, the usage, the documents for the learning outbox, the event rows, and the follow-ups other
 * domains do in the same transaction. Built by the call path's settlement stage (calls/settle.ts).
 */
export interface SettlementPlan extends CallRecordBase {
  reservation: Reservation;
  /** Approved delivery path: provider + model (a price-book id) + region. */
  provider: ProviderKey;
  model: string;
  region: string;
  /** The class served (the routed class after escalation). */
  modelClass: ModelClass;
  usage: Usage;
  /** The project's override or the tenant's baseline at call time (resolveBenchmark); null → savings null. */
  benchmarkProvider: ProviderKey | null;
  /**
   * For the learning outbox (spec §2 LearningOutboxEvent): JSON-serialisable request and response.
   * They are written inside the settlement transaction, while the tenant's wallet lock is held, so
   * pass them bounded (the canonical request and response, not raw streams).
   */
  request: unknown;
  response: unknown;
  /**
   * The call's full QA score when it is known before the settlement (D5a: judge off, non-streamed,
   * the inline check): written with the call-log row (and its `qa_scored_at`) and the ledger entry
   * in the settlement's own statement, so no asynchronous scoring runs for the call.
   */
  qa?: Record<string, unknown> | null;
  /** The call's price, when the caller priced it with priceSettlement (it is then not priced twice). */
  priced?: PricedCall;
  /** Event-outbox rows written by the settlement's own statement (frames built by events.buildFrame). */
  events?: ReadonlyArray<{ frame: EventFrame; tenantWide: boolean }>;
  /** Work of other domains in the same transaction, as data (shared/follow-ups.ts); rare. */
  followUps?: readonly SettlementFollowUp[];
}

/** The tests' and older callers' name for a settlement plan. */
export type SettlementInput = SettlementPlan;

/** A call's price at the delivered model (D7): the model's price-book entry and the savings math. */
export interface PricedCall {
  model: PricedModel;
  sv: Savings;
}

export interface SettledSavings {
  benchmarkProvider: ProviderKey;
  baselineCostMicros: bigint;
  /** Tokens saved (1 wallet token = 1 USD micro): baseline − actual; negative when dearer. */
  tokensSavedMicros: bigint;
  /** Null when the baseline is 0 (no ratio exists). */
  percentSavedBps: bigint | null;
  methodologyVersion: string;
  pricingVersion: string;
}

export interface SettledCall {
  callId: string;
  ledgerEntryId: string;
  /** Real cost of the call at the delivered model's prices. */
  costMicros: bigint;
  /** What the wallet was actually debited: costMicros unless the wallet could not cover it. */
  debitedMicros: bigint;
  /** costMicros − debitedMicros (0 in the normal case). */
  uncollectedMicros: bigint;
  savings: SettledSavings | null;
  balanceAfterMicros: bigint;
  /** True when this call had already been settled: nothing was debited again. */
  duplicate: boolean;
  /** What the plan's follow-ups changed (absent when it had none, or for a duplicate). */
  followedUp?: FollowUpResult;
}

export interface FailedCallInput extends CallRecordBase {
  /** The hold to release; null when the call failed before reserving. */
  reservation: Reservation | null;
  /** The delivery path attempted, when one was chosen. */
  provider?: ProviderKey | null;
  model?: string | null;
  region?: string | null;
  modelClass?: ModelClass | null;
  benchmarkProvider?: ProviderKey | null;
  /** Stable error code (core/errors catalogue or the upstream's), for the audit tab. */
  errorCode: string;
}


export function callLogValues(input: CallRecordBase, at: Date) {
  return {
    routingFeatures: input.routing ? JSON.stringify(input.routing.features) : null,
    routingRules: JSON.stringify(input.routing?.appliedRules ?? []),
    // A prompt may hold NUL, which a text column cannot (store/pg-text.ts).
    excerpt: textForPg(input.promptExcerpt.slice(0, PROMPT_EXCERPT_CHARS)),
    attempt: input.attempt ?? 1,
    at,
  };
}


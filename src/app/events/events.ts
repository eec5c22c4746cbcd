// Project events (spec §6, D10): the event types, one zod schema per payload, and the ways to
// emit them. Two paths, one result (a frame on the project's stream plus a webhook delivery per
// subscribed webhook):
//
//   emitEvent(s, input)                 now, outside any transaction (presence, connection tests)
//   enqueueEventInTx(tx, input)         inside the caller's transaction: an event_outbox row that
//   ...commit...; kickOutbox(s)         the relay publishes right after commit (the kick) or at
//                                       its next poll (≤ 150 ms), even after a crash
//
// Producers call the typed functions at the bottom (or these two with the payload builders); every
// payload is validated against its schema, so a wrong field fails in the producer's tests.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Services } from '../shared/index.ts';
import type { Executor, Tx } from '../../store/db.ts';
import { jsonForPg } from '../../store/pg-text.ts';
import type { EventFrame } from '../../infra/bus/bus.ts';
import { MODEL_CLASSES } from '../../core/model-class.ts';
import { COMPLEXITIES, TASK_FAMILIES } from '../../core/routing/vocabulary.ts';
import { STAGES, STAGE_EVENTS } from '../../core/stage.ts';
import { defaultProjectOf, insertDeliveryRows, insertOutboxRow, liveProjectsOf, subscribedWebhooks } from './events.repo.ts';

export type { EventFrame } from '../../infra/bus/bus.ts';

/** Connector channels (the six tiers of spec §1), as carried by llm.call. */
export const CHANNELS = ['proxy', 'mcp', 'extension', 'bridge', 'copy-paste', 'advisory'] as const;
export type Channel = (typeof CHANNELS)[number];

const uuid = z.uuid();
const micros = z.string().regex(/^\d{1,19}$/, 'must be a non-negative integer string');
const signedMicros = z.string().regex(/^-?\d{1,19}$/, 'must be an integer string');
const count = z.int().nonnegative();

export const PAYLOAD_SCHEMAS = {
  'llm.call': z.strictObject({
    callId: uuid,
    modelClass: z.enum(MODEL_CLASSES),
    taskFamily: z.enum(TASK_FAMILIES),
    complexity: z.enum(COMPLEXITIES),
    inputTokens: count,
    outputTokens: count,
    costMicros: micros,
    /** Benchmark cost minus actual cost (D7), may be negative; null without a benchmark provider. */
    savingsTokens: signedMicros.nullable(),
    escalated: z.boolean(),
    latencyMs: count,
    channel: z.enum(CHANNELS),
  }),
  'stage.changed': z.strictObject({
    from: z.enum(STAGES),
    to: z.enum(STAGES),
    reason: z.enum(STAGE_EVENTS),
  }),
  'connector.connected': z.strictObject({
    tool: z.string().min(1).max(64),
    tier: z.int().min(1).max(6).nullable(),
    reason: z.string().min(1).max(64),
  }),
  'connector.disconnected': z.strictObject({
    tool: z.string().min(1).max(64),
    tier: z.int().min(1).max(6).nullable(),
    reason: z.string().min(1).max(64),
  }),
  'routing.escalated': z.strictObject({
    callId: uuid,
    fromClass: z.enum(MODEL_CLASSES),
    toClass: z.enum(MODEL_CLASSES),
    /** 1 or 2: escalation climbs at most twice per call (D5). */
    attempt: z.int().min(1).max(2),
    reason: z.string().min(1).max(200),
    qualityScore: z.number().min(0).max(1).nullable(),
  }),
  'wallet.topup': z.strictObject({
    ledgerEntryId: uuid,
    amountMicros: micros,
    balanceAfterMicros: micros,
  }),
  // The wallet's own names (D8a): balance, runway; threshold is the alert's, in the same unit.
  'wallet.threshold': z.strictObject({
    userId: uuid,
    threshold: micros,
    balance: micros,
  }),
  'runway.threshold': z.strictObject({
    userId: uuid,
    thresholdDays: z.int().positive(),
    runway: z.number().nonnegative(),
    balance: micros,
  }),
  'budget.exhausted': z.strictObject({
    monthlyBudgetMicros: micros,
    spentMicros: micros,
    /** The budget month, YYYY-MM (UTC). */
    month: z.string().regex(/^\d{4}-\d{2}$/),
  }),
  /** An advisory import's progress (D14 tier 6): while the worker classifies it, and once at the end. */
  'advisory.progress': z.strictObject({
    importId: uuid,
    status: z.enum(['processing', 'done', 'failed']),
    totalRows: count,
    processedRows: count,
    malformedRows: count,
  }),
  'presence.heartbeat': z.strictObject({
    viewers: count,
    change: z.enum(['joined', 'left']),
    userId: uuid,
  }),
} as const;

export type EventType = keyof typeof PAYLOAD_SCHEMAS;
export const EVENT_TYPES = Object.keys(PAYLOAD_SCHEMAS) as EventType[];
export type PayloadOf<T extends EventType> = z.infer<(typeof PAYLOAD_SCHEMAS)[T]>;

/** Wallet-level events concern every project of the tenant: they go on every project stream. */
export const TENANT_WIDE: ReadonlySet<EventType> = new Set<EventType>(['wallet.topup', 'wallet.threshold', 'runway.threshold']);

export interface EventInput<T extends EventType = EventType> {
  type: T;
  tenantId: string;
  /** Required except for tenant-wide events, which default to the tenant's default project. */
  projectId?: string;
  actorUserId?: string | null;
  at?: Date;
  payload: PayloadOf<T>;
}

export type TypedFrame<T extends EventType> = Omit<EventFrame, 'type' | 'payload'> & { type: T; payload: PayloadOf<T> };

async function resolveProject(db: Executor, tenantId: string, projectId: string | undefined, type: EventType): Promise<string> {
  if (projectId) return projectId;
  if (!TENANT_WIDE.has(type)) throw new Error(`event ${type} needs a projectId`);
  return defaultProjectOf(db, tenantId);
}

/** Validate the payload and build the frame of spec §6 (field order fixed: it is also the webhook body). */
export function buildFrame<T extends EventType>(input: EventInput<T> & { projectId: string; at: Date }): TypedFrame<T> {
  const payload = PAYLOAD_SCHEMAS[input.type].parse(input.payload) as PayloadOf<T>;
  return {
    type: input.type,
    projectId: input.projectId,
    tenantId: input.tenantId,
    actorUserId: input.actorUserId ?? null,
    at: input.at.toISOString(),
    payload,
  };
}

/**
 * Inside the caller's transaction: the event leaves if and only if the transaction commits.
 * Call `kickOutbox(s)` after the commit for immediate delivery (otherwise ≤ one relay poll).
 */
export async function enqueueEventInTx<T extends EventType>(tx: Tx, input: EventInput<T> & { at: Date }): Promise<TypedFrame<T>> {
  const projectId = await resolveProject(tx, input.tenantId, input.projectId, input.type);
  const frame = buildFrame({ ...input, projectId });
  await insertOutboxRow(tx, {
    tenant_id: frame.tenantId,
    project_id: frame.projectId,
    // A payload may quote model output (an escalation's reasons) holding what jsonb refuses.
    frame: jsonForPg(JSON.stringify(frame)),
    tenant_wide: TENANT_WIDE.has(input.type),
    created_at: input.at,
  });
  return frame;
}

/** Publish the outbox now instead of at the next poll (call after the transaction commits). */
export function kickOutbox(s: Services): void {
  s.outbox.kick();
}

/** Emit now, outside any transaction: webhook deliveries are recorded, then the frame is published. */
export async function emitEvent<T extends EventType>(s: Services, input: EventInput<T>): Promise<TypedFrame<T>> {
  const at = input.at ?? s.clock.now();
  const projectId = await resolveProject(s.db, input.tenantId, input.projectId, input.type);
  const frame = buildFrame({ ...input, projectId, at });
  await s.db.transaction().execute((tx) => createDeliveries(s, tx, frame));
  await publishFrame(s, s.db, frame, TENANT_WIDE.has(input.type));
  return frame;
}

/** Put a frame on its project's stream, or on every live project's stream for tenant-wide events. */
export async function publishFrame(s: Services, db: Executor, frame: EventFrame, tenantWide: boolean): Promise<void> {
  await publishFrames(s, db, [{ frame, tenantWide }]);
}

/**
 * publishFrame for a batch, in order: one query for the live projects of every tenant with a
 * tenant-wide frame in the batch (none when there is no such frame), then the frames.
 */
export async function publishFrames(s: Services, db: Executor, batch: Array<{ frame: EventFrame; tenantWide: boolean }>): Promise<void> {
  const wide = [...new Set(batch.filter((b) => b.tenantWide).map((b) => b.frame.tenantId))];
  const projectsOf = new Map<string, string[]>();
  if (wide.length) {
    const rows = await liveProjectsOf(db, wide);
    for (const r of rows) projectsOf.set(r.tenant_id, [...(projectsOf.get(r.tenant_id) ?? []), r.id]);
  }
  // Sequential, not concurrent: frames of one project must reach its stream in outbox order.
  for (const { frame, tenantWide } of batch) {
    if (!tenantWide) await s.bus.publish(frame);
    else for (const projectId of projectsOf.get(frame.tenantId) ?? []) await s.bus.publish({ ...frame, projectId });
  }
}

/**
 * One pending delivery per enabled webhook of the tenant subscribed to the frame's type, and a
 * job for its first attempt, written through `ex` (the caller's transaction).
 */
export async function createDeliveries(s: Services, ex: Executor, frame: EventFrame): Promise<string[]> {
  return createDeliveriesBatch(s, ex, [frame]);
}

/**
 * createDeliveries for a batch of frames in a constant number of statements: one query for the
 * enabled webhooks of the batch's tenants (matched to each frame's type here), then one insert of
 * every delivery and one of every first-attempt job.
 */
export async function createDeliveriesBatch(s: Services, ex: Executor, frames: EventFrame[]): Promise<string[]> {
  if (frames.length === 0) return [];
  const tenants = [...new Set(frames.map((f) => f.tenantId))];
  const types = [...new Set(frames.map((f) => f.type))];
  const hooks = await subscribedWebhooks(ex, tenants, types);
  if (hooks.length === 0) return [];
  const rows = frames.flatMap((frame) => {
    const body = JSON.stringify(frame);
    return hooks
      .filter((h) => h.tenant_id === frame.tenantId && h.events.includes(frame.type))
      .map((h) => deliveryRow(s, { tenantId: frame.tenantId, eventType: frame.type, body, target: { webhookId: h.id } }));
  });
  return writeDeliveries(s, ex, rows);
}

/** Record deliveries of one body and enqueue their first attempts (also used for user alert webhooks). */
export async function insertDeliveries(
  s: Services,
  ex: Executor,
  d: { tenantId: string; eventType: string; body: string; targets: Array<{ webhookId: string } | { userId: string }> },
): Promise<string[]> {
  return writeDeliveries(
    s,
    ex,
    d.targets.map((target) => deliveryRow(s, { ...d, target })),
  );
}

function deliveryRow(s: Services, d: { tenantId: string; eventType: string; body: string; target: { webhookId: string } | { userId: string } }) {
  const now = s.clock.now();
  return {
    id: randomUUID(),
    tenant_id: d.tenantId,
    webhook_id: 'webhookId' in d.target ? d.target.webhookId : null,
    user_id: 'userId' in d.target ? d.target.userId : null,
    event_type: d.eventType,
    body: d.body,
    status: 'pending' as const,
    next_attempt_at: now,
    created_at: now,
  };
}

async function writeDeliveries(s: Services, ex: Executor, rows: Array<ReturnType<typeof deliveryRow>>): Promise<string[]> {
  if (rows.length === 0) return [];
  await insertDeliveryRows(ex, rows);
  await s.jobs.deliverWebhooks(
    ex,
    rows.map((r) => ({ deliveryId: r.id })),
  );
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// Payload builders for producers that hold bigint amounts (D1: integer strings at the edge).

export interface LlmCallFacts {
  callId: string;
  modelClass: PayloadOf<'llm.call'>['modelClass'];
  taskFamily: PayloadOf<'llm.call'>['taskFamily'];
  complexity: PayloadOf<'llm.call'>['complexity'];
  inputTokens: number;
  outputTokens: number;
  costMicros: bigint;
  /** baselineCost - actualCost (D7); null when the tenant has no benchmark provider. */
  savingsTokens: bigint | null;
  escalated: boolean;
  latencyMs: number;
  channel: (typeof CHANNELS)[number];
}

const LLM_CALL = PAYLOAD_SCHEMAS['llm.call'];
const UUID = z.regexes.uuid();
const MICROS = /^\d{1,19}$/;
const SIGNED_MICROS = /^-?\d{1,19}$/;
const isCount = (n: unknown): boolean => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isOneOf = (list: readonly string[], v: unknown): boolean => typeof v === 'string' && list.includes(v);

/**
 * The llm.call schema's checks, written out: every proxied call builds one of these payloads, and
 * zod's parse of it (twice, payload then frame) cost ≈ 18 µs per call under load. Same rules as
 * `PAYLOAD_SCHEMAS['llm.call']` (events.test.ts checks that both agree on valid and broken payloads);
 * a payload that fails here goes through zod after all, so the error thrown is zod's own.
 */
export function isValidLlmCallPayload(p: PayloadOf<'llm.call'>): boolean {
  return (
    typeof p.callId === 'string' &&
    UUID.test(p.callId) &&
    isOneOf(MODEL_CLASSES, p.modelClass) &&
    isOneOf(TASK_FAMILIES, p.taskFamily) &&
    isOneOf(COMPLEXITIES, p.complexity) &&
    isCount(p.inputTokens) &&
    isCount(p.outputTokens) &&
    typeof p.costMicros === 'string' &&
    MICROS.test(p.costMicros) &&
    (p.savingsTokens === null || (typeof p.savingsTokens === 'string' && SIGNED_MICROS.test(p.savingsTokens))) &&
    typeof p.escalated === 'boolean' &&
    isCount(p.latencyMs) &&
    isOneOf(CHANNELS, p.channel)
  );
}

export function llmCallPayload(f: LlmCallFacts): PayloadOf<'llm.call'> {
  // Spelled out in the schema's key order (no spread of the facts: Node 20's slow path, and
  // strictObject would refuse any extra key the facts carried anyway).
  const payload: PayloadOf<'llm.call'> = {
    callId: f.callId,
    modelClass: f.modelClass,
    taskFamily: f.taskFamily,
    complexity: f.complexity,
    inputTokens: f.inputTokens,
    outputTokens: f.outputTokens,
    costMicros: f.costMicros.toString(),
    savingsTokens: f.savingsTokens === null ? null : f.savingsTokens.toString(),
    escalated: f.escalated,
    latencyMs: Math.max(0, Math.round(f.latencyMs)),
    channel: f.channel,
  };
  return isValidLlmCallPayload(payload) ? payload : LLM_CALL.parse(payload);
}

/**
 * The proxy pipeline, inside its settlement transaction (then `kickOutbox(s)` after commit):
 * `await enqueueLlmCall(tx, { tenantId, projectId, actorUserId: null, at, call: {...} })`.
 */
export function enqueueLlmCall(tx: Tx, e: { tenantId: string; projectId: string; actorUserId?: string | null; at: Date; call: LlmCallFacts }): Promise<TypedFrame<'llm.call'>> {
  return enqueueEventInTx(tx, { type: 'llm.call', tenantId: e.tenantId, projectId: e.projectId, actorUserId: e.actorUserId ?? null, at: e.at, payload: llmCallPayload(e.call) });
}

/**
 * The llm.call frame, for a settlement's batched event rows (SettlementInput.events): the frame of
 * buildFrame, with the payload checked once (llmCallPayload) instead of parsed again.
 */
export function llmCallFrame(e: { tenantId: string; projectId: string; actorUserId?: string | null; at: Date; call: LlmCallFacts }): TypedFrame<'llm.call'> {
  return {
    type: 'llm.call',
    projectId: e.projectId,
    tenantId: e.tenantId,
    actorUserId: e.actorUserId ?? null,
    at: e.at.toISOString(),
    payload: llmCallPayload(e.call),
  };
}

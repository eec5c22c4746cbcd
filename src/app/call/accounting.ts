// What the call pipeline needs from the money path: the call's context (project settings and the
// benchmark), the reservation before going upstream, settlement of each attempt in one
// transaction, and the failure path that releases without debiting (D8).
import { sql } from 'kysely';
import type { Services } from '../services.ts';
import type { KeyPrincipal } from '../keys.ts';
import type { CanonicalRequest, ClientShape, Usage } from '../../core/canonical/types.ts';
import type { Layer1Decision } from '../../core/routing/layer1.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { ModelClass } from '../../core/model-class.ts';
import type { QaScore } from '../../core/quality/index.ts';
import { appError } from '../../core/errors.ts';
import { isProviderKey, type ProviderKey } from '../../core/providers.ts';
import { savings } from '../../core/pricing/cost.ts';
import { appendLedgerEntry } from '../ledger.ts';

export interface CallContext {
  tenantId: string;
  projectId: string;
  keyId: string;
  qualityFloor: number;
  /** The project's override, else the tenant's benchmark provider; null → savings are null (D7). */
  benchmarkProvider: ProviderKey | null;
  region: string | null;
}

export interface Reservation {
  callId: string;
  tenantId: string;
  projectId: string;
  amountMicros: bigint;
}

export async function loadCallContext(s: Services, p: KeyPrincipal): Promise<CallContext> {
  const row = await s.db
    .selectFrom('projects as p')
    .innerJoin('tenants as t', 't.id', 'p.tenant_id')
    .select(['p.quality_floor', 'p.region', 'p.benchmark_override', 't.baseline_provider_key'])
    .where('p.id', '=', p.projectId)
    .where('p.tenant_id', '=', p.tenantId)
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw appError('invalid_api_key', 'The key’s project no longer exists');
  const bench = row.benchmark_override ?? row.baseline_provider_key;
  return {
    tenantId: p.tenantId,
    projectId: p.projectId,
    keyId: p.keyId,
    qualityFloor: Number(row.quality_floor),
    benchmarkProvider: isProviderKey(bench) ? bench : null,
    region: row.region,
  };
}

/** One conditional UPDATE: earmark the worst case if the available balance covers it. */
export async function reserveCall(s: Services, ctx: CallContext, callId: string, amountMicros: bigint): Promise<Reservation> {
  const r = await sql`
    update wallets set reserved_micros = reserved_micros + ${amountMicros}
     where tenant_id = ${ctx.tenantId} and balance_micros - reserved_micros >= ${amountMicros}`.execute(s.db);
  if (!r.numAffectedRows) throw appError('insufficient_balance');
  return { callId, tenantId: ctx.tenantId, projectId: ctx.projectId, amountMicros };
}

export interface AttemptFacts {
  ctx: CallContext;
  call: CanonicalRequest;
  callId: string;
  parentCallId: string | null;
  decision: Layer1Decision;
  modelClass: ModelClass;
  endpoint: RankedEndpoint;
  reservation: Reservation;
  surface: string;
  shape: ClientShape;
  latencyMs: number;
}

export interface SettleFacts extends AttemptFacts {
  attempt: number;
  usage: Usage;
  qa: QaScore | null;
  escalated: boolean;
  status: 'ok' | 'client_aborted';
  responseText: string;
}

/** Debit the real cost, release the reservation and seal the AI_USAGE entry, in one transaction. */
export async function settleAttempt(s: Services, f: SettleFacts): Promise<{ tokensSavedMicros: bigint | null }> {
  const sv = savings({ actualModel: f.endpoint.model, benchmarkProvider: f.ctx.benchmarkProvider, modelClass: f.modelClass, usage: f.usage });
  const cost = sv.actualCostMicros;
  await s.db.transaction().execute((tx) =>
    appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId: f.ctx.tenantId,
      projectId: f.ctx.projectId,
      eventType: 'AI_USAGE',
      amountMicros: -cost,
      releaseReservedMicros: f.reservation.amountMicros,
      modelId: f.endpoint.model,
      providerKey: f.endpoint.provider,
      benchmarkProvider: f.ctx.benchmarkProvider,
      benchmarkMethodologyVersion: sv.methodologyVersion,
      actualCostUsdMicros: cost,
      baselineCostUsdMicros: sv.baselineCostMicros,
      benchmarkPricingVersion: sv.pricingVersion,
      callId: f.callId,
      at: s.clock.now(),
    }),
  );
  return { tokensSavedMicros: sv.tokensSavedMicros };
}

export async function failAttempt(s: Services, f: AttemptFacts & { error: string }): Promise<void> {
  await sql`update wallets set reserved_micros = reserved_micros - ${f.reservation.amountMicros} where tenant_id = ${f.ctx.tenantId}`.execute(s.db);
}

export async function emitEscalation(
  _s: Services,
  _ctx: CallContext,
  _info: { fromCallId: string; fromClass: ModelClass; toClass: ModelClass; qa: QaScore; score: number; floor: number; taskFamily: string },
): Promise<void> {}

// The wallet's SQL on the call path (D8): the one-round-trip reservation (sb_reserve), the release
// of a hold, the failed call's log row, the QA scores written after the fact, and the call
// context's one query. wallet.ts keeps the rules, the caches and the lock order.
import { sql } from 'kysely';
import type { Db, Executor, Tx } from '../../store/db.ts';
import { jsonForPg, textForPg } from '../../store/pg-text.ts';
import { jsonWithBigints, monthStartUtc } from '../../core/money.ts';
import type { ReserveInput } from './wallet.ts';
import type { FailedCallInput, callLogValues } from './settlement-plan.ts';

/** sb_reserve's answer: 'ok', or why the hold was refused (wallet.ts holdRefused). */
export async function reserveRow(db: Db, input: ReserveInput, at: Date): Promise<string | undefined> {
  const r = await sql<{ result: string }>`
    select sb_reserve(${input.callId}::uuid, ${input.tenantId}::uuid, ${input.projectId}::uuid,
                      ${input.amountMicros}::bigint, ${at}::timestamptz, ${monthStartUtc(at)}::date) as result`.execute(db);
  return r.rows[0]?.result;
}

/** One statement: end the hold (reservation row, then wallet). No-op unless still reserved. */
export async function releaseIn(db: Db | Tx, tenantId: string, reservationId: string, at: Date): Promise<boolean> {
  const r = await sql`
    with r as (
      update reservations set status = 'released', released_at = ${at}
       where id = ${reservationId} and tenant_id = ${tenantId} and status = 'reserved'
      returning amount_micros)
    update wallets w set reserved_micros = w.reserved_micros - r.amount_micros, updated_at = ${at}
      from r where w.tenant_id = ${tenantId}`.execute(db);
  return (r.numAffectedRows ?? 0n) > 0n;
}

/** The failed call's log row (status failed, no ledger entry); a second write of the same call id does nothing. */
export async function insertFailedCallLog(tx: Tx, input: FailedCallInput, v: ReturnType<typeof callLogValues>, at: Date): Promise<void> {
await sql`
    insert into call_logs (id, tenant_id, project_id, key_id, parent_call_id, attempt, escalated, status, error_code,
      channel, client_shape, stream, conversation_id, task_family, complexity, model_class, routing_table_version,
      routing_features, routing_rules, provider_key, model_id, region, benchmark_provider, latency_ms, prompt_excerpt, created_at)
    values (${input.callId}, ${input.tenantId}, ${input.projectId}, ${input.keyId}, ${input.parentCallId ?? null},
      ${v.attempt}, ${input.escalated ?? false}, 'failed', ${input.errorCode}, ${input.channel}, ${input.clientShape},
      ${input.stream}, ${textForPg(input.conversationId ?? null)}, ${input.routing?.taskFamily ?? null}, ${input.routing?.complexity ?? null},
      ${input.modelClass ?? null}, ${input.routing?.tableVersion ?? null}, ${v.routingFeatures}::jsonb, ${v.routingRules}::jsonb,
      ${input.provider ?? null}, ${input.model ?? null}, ${input.region ?? null}, ${input.benchmarkProvider ?? null},
      ${Math.round(input.latencyMs)}, ${v.excerpt}, ${at})
    on conflict (id) do nothing`.execute(tx);
}

/**
 * A batch of QA scores in one statement (the scorer's whole batch: one round trip and one plan
 * instead of one per call). Every call gets `qa_scored_at`; a call whose `qa` is null (it could
 * not be scored) keeps its columns otherwise untouched, as before.
 */
export async function recordQaScores(ex: Executor, at: Date, items: Array<{ tenantId: string; callId: string; qa: Record<string, unknown> | null }>): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((i) => i.callId);
  const tenants = items.map((i) => i.tenantId);
  // Reasons may quote model output holding what jsonb refuses (store/pg-text.ts): one such score
  // must not fail the scorer's whole batch again and again.
  const qas = items.map((i) => (i.qa === null ? null : jsonForPg(jsonWithBigints(i.qa))));
  await sql`
    with v as (select * from unnest(${ids}::uuid[], ${tenants}::uuid[], ${qas}::jsonb[]) as v(call_id, tenant_id, qa)),
    c as (update call_logs c set qa = coalesce(v.qa, c.qa), qa_scored_at = ${at} from v where c.id = v.call_id and c.tenant_id = v.tenant_id)
    update ledger_entries l set qa = v.qa from v where v.qa is not null and l.call_id = v.call_id and l.tenant_id = v.tenant_id and l.event_type = 'AI_USAGE'`.execute(ex);
}

/** The tenant's benchmark and the project's settings, in one query. */
export function callContextRow(db: Db, ids: { tenantId: string; projectId: string }) {
  return db
    .selectFrom('projects as p')
    .innerJoin('tenants as t', 't.id', 'p.tenant_id')
    .select(['p.id', 'p.name', 'p.quality_floor', 'p.monthly_budget_micros', 'p.region', 'p.stage', 'p.benchmark_override', 't.baseline_provider_key'])
    .where('p.id', '=', ids.projectId)
    .where('p.tenant_id', '=', ids.tenantId)
    .where('p.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The wallet's balance and holds, for the refusal's explanation (calls/affordability.ts). */
export function walletBalance(db: Db, tenantId: string) {
  return db.selectFrom('wallets').select(['balance_micros', 'reserved_micros']).where('tenant_id', '=', tenantId).executeTakeFirst();
}

/** What a project spent in a month (`month`: its first day), 0 without a row. */
export async function monthSpentMicros(db: Db, projectId: string, month: Date): Promise<bigint> {
  const row = await db.selectFrom('project_spend').select('spent_micros').where('project_id', '=', projectId).where('month', '=', month).executeTakeFirst();
  return row?.spent_micros ?? 0n;
}

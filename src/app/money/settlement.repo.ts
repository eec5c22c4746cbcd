// The settlement's SQL (D8): the claim of holds and leases, the chain heads locked in tenant order,
// the one statement that writes every row of a batch (locking path: WRITE; fast path: FAST), and
// the read of a settlement a call already has. Statements are named (prepared once per
// connection) and take a batch as arrays and one JSON document, so their plan never changes.
import { CompiledQuery } from 'kysely';
import type { Db, Tx } from '../../store/db.ts';
import { namedStatement } from '../../store/db.ts';
import { jsonForPg } from '../../store/pg-text.ts';
import { isProviderKey, type ProviderKey } from '../../core/providers.ts';
import type { PricedModel, Savings } from '../../core/pricing/index.ts';
import { jsonWithBigints, monthStartUtc } from '../../core/money.ts';
import { CUSTOMER_LABELS } from '../../core/ledger/payload.ts';
import type { WalletHead } from './ledger.ts';
import { callLogValues, type SettledCall, type SettledSavings, type SettlementPlan } from './settlement-plan.ts';

export interface Item {
  input: SettlementPlan;
  model: PricedModel;
  sv: Savings;
  cost: bigint;
  at: Date;
  /** SettleOptions.extra (tests): run last in the transaction. */
  extra?: (tx: Tx) => Promise<void>;
  resolve: (r: SettledCall) => void;
  reject: (e: unknown) => void;
}

/** What the batch decided for one item before it is written. */
export interface Planned {
  item: Item;
  entryId: string;
  seq: bigint;
  debit: bigint;
  balanceAfter: bigint;
  prevHash: string;
  sealHash: string;
  createdAt: string;
  /** From the lease row, when the call was admitted against one and the row was still held. */
  leaseUsed: bigint;
  leaseHeld: boolean;
}


/** What a call admitted against a lease takes off it: its real cost, at most its worst case. */
export function leaseUsedBy(it: Item): bigint {
  const a = it.input.reservation.admitted!;
  return it.cost < a.amountMicros ? it.cost : a.amountMicros;
}

/** The claim's parameters $1–$5 (claimSql): per-call holds, and each live lease with what its calls used. */
export function claimParams(batch: Item[]): { params: unknown[]; calls: number; leases: number } {
  const callIds: string[] = [];
  const callTenants: string[] = [];
  const leaseUse = new Map<string, bigint>();
  for (const it of batch) {
    const a = it.input.reservation.admitted;
    if (!a) {
      callIds.push(it.input.reservation.id);
      callTenants.push(it.input.tenantId);
    } else if (!a.lease.dead) {
      leaseUse.set(a.lease.id, (leaseUse.get(a.lease.id) ?? 0n) + leaseUsedBy(it));
    }
  }
  return { params: [callIds, callTenants, batch[0].at, [...leaseUse.keys()], [...leaseUse.values()]], calls: callIds.length, leases: leaseUse.size };
}

export interface Head extends WalletHead {
  tenant_id: string;
}

/**
 * The claim, as two CTEs: per-call holds ($1 ids, $2 tenants) become settled at $3 and leases
 * ($4 ids) shrink by what their calls used ($5). `returning` names what each gives back.
 */
function claimSql(returning: { call: string; lease: string }): string {
  return `c as (
     update reservations r set status = 'settled', settled_at = $3
       from unnest($1::uuid[], $2::uuid[]) as v(id, tenant_id)
      where r.id = v.id and r.tenant_id = v.tenant_id and r.kind = 'call' and r.status <> 'settled'
     returning ${returning.call}),
   l as (
     update reservations r set amount_micros = r.amount_micros - v.used
       from unnest($4::uuid[], $5::int8[]) as v(id, used)
      where r.id = v.id and r.kind = 'lease' and r.status = 'reserved' and r.amount_micros >= v.used
     returning ${returning.lease})`;
}

export const CLAIM = namedStatement(
  'sb_settle_claim',
  `with ${claimSql({ call: 'r.id, r.amount_micros, r.released_at is null as held', lease: 'r.id' })}
   select id, amount_micros, held, false as lease from c
   union all
   select id, null::int8, true, true from l`,
);

export const HEADS = namedStatement(
  'sb_settle_heads',
  `select tenant_id, balance_micros, reserved_micros, ledger_seq, last_seal_hash,
          auto_topup_threshold_micros, auto_topup_amount_micros, auto_topup_armed
     from wallets where tenant_id = any($1::uuid[]) order by tenant_id for update`,
);

/** One settled call's values, as the settlement statement reads them (ROW_COLUMNS). */
interface RowCtx {
  p: Planned;
  input: SettlementPlan;
  v: ReturnType<typeof callLogValues>;
}

/** A JSON string value (RFC 8259) or null; bigints and numbers as their decimal text. */
const j = (x: string | bigint | number | boolean | null | undefined): string =>
  x === null || x === undefined ? 'null' : typeof x === 'string' ? JSON.stringify(x) : typeof x === 'bigint' ? `"${x}"` : String(x);

/**
 * The columns of a settled call's row in the settlement statement, in order: name, SQL type, and
 * its JSON value. One list for both sides: rowsSql reads element i of each row's array as column i,
 * rowParams writes element i from the same entry, so the two cannot drift apart.
 */
const ROW_COLUMNS: ReadonlyArray<readonly [name: string, type: string, value: (c: RowCtx) => string]> = [
  ['entry_id', 'uuid', (c) => j(c.p.entryId)],
  ['tenant_id', 'uuid', (c) => j(c.input.tenantId)],
  ['project_id', 'uuid', (c) => j(c.input.projectId)],
  ['seq', 'int8', (c) => j(c.p.seq)],
  ['amount', 'int8', (c) => j(-c.p.debit)],
  ['balance_after', 'int8', (c) => j(c.p.balanceAfter)],
  ['model_id', 'text', (c) => j(c.p.item.model.id)],
  ['provider_key', 'text', (c) => j(c.input.provider)],
  ['benchmark_provider', 'text', (c) => j(c.input.benchmarkProvider)],
  ['methodology', 'text', (c) => j(c.p.item.sv.methodologyVersion)],
  ['actual', 'int8', (c) => j(c.p.item.cost)],
  ['baseline', 'int8', (c) => j(c.p.item.sv.baselineCostMicros)],
  ['pricing', 'text', (c) => j(c.p.item.sv.pricingVersion)],
  ['call_id', 'uuid', (c) => j(c.input.callId)],
  ['seal', 'text', (c) => j(c.p.sealHash)],
  ['prev', 'text', (c) => j(c.p.prevHash)],
  ['created_at', 'timestamptz', (c) => j(c.p.createdAt)],
  ['key_id', 'uuid', (c) => j(c.input.keyId)],
  ['parent_call_id', 'uuid', (c) => j(c.input.parentCallId)],
  ['attempt', 'int2', (c) => j(c.v.attempt)],
  ['escalated', 'bool', (c) => j(c.input.escalated ?? false)],
  ['channel', 'text', (c) => j(c.input.channel)],
  ['client_shape', 'text', (c) => j(c.input.clientShape)],
  ['stream', 'bool', (c) => j(c.input.stream)],
  ['conversation_id', 'text', (c) => j(c.input.conversationId)],
  ['task_family', 'text', (c) => j(c.input.routing?.taskFamily)],
  ['complexity', 'text', (c) => j(c.input.routing?.complexity)],
  ['model_class', 'text', (c) => j(c.input.modelClass)],
  ['table_version', 'text', (c) => j(c.input.routing?.tableVersion)],
  ['features', 'jsonb', (c) => c.v.routingFeatures ?? 'null'],
  ['rules', 'jsonb', (c) => c.v.routingRules],
  ['region', 'text', (c) => j(c.input.region)],
  ['uncollected', 'int8', (c) => j(c.p.item.cost - c.p.debit)],
  ['input_tokens', 'int4', (c) => j(c.input.usage.inputTokens)],
  ['output_tokens', 'int4', (c) => j(c.input.usage.outputTokens)],
  ['cached_input_tokens', 'int4', (c) => j(c.input.usage.cachedInputTokens)],
  ['latency_ms', 'int4', (c) => j(Math.round(c.input.latencyMs))],
  ['excerpt', 'text', (c) => j(c.v.excerpt)],
  ['request', 'jsonb', (c) => jsonWithBigints(c.input.request)],
  ['response', 'jsonb', (c) => jsonWithBigints(c.input.response)],
  ['qa', 'jsonb', (c) => (c.input.qa ? JSON.stringify(c.input.qa) : 'null')],
];

/** Column i of a row array: `->>` and a cast for values, `->` for documents (a JSON null is SQL NULL). */
const rowColumnSql = ROW_COLUMNS.map(([name, type], i) => (type === 'jsonb' ? `nullif(r->${i}, 'null') as ${name}` : `(r->>${i})::${type} as ${name}`)).join(',\n            ');

/**
 * The rows of a batch (ledger entries, call logs, learning outbox, monthly spend, events) as CTEs,
 * the call log and the ledger entry with the call's QA score when the settlement carries it (D5a),
 * numbered from parameter $base: see rowParams for the order. The settled calls come as one JSON
 * array of arrays, one per call in ROW_COLUMNS' order with its request and response documents
 * inside: one text built in Node instead of an escaped array literal per column, and
 * positions instead of 41 keys per call, which PostgreSQL would parse, sort and look up for every
 * row (docs/performance.md, session 9).
 */
function rowsSql(base: number): string {
  const $ = (i: number) => `$${base + i}`;
  return `v as (
     select ${rowColumnSql}
       from jsonb_array_elements(${$(0)}::jsonb) as r),
   le as (
     insert into ledger_entries (id, tenant_id, project_id, seq, event_type, customer_label, amount_micros,
       balance_after_micros, model_id, provider_key, benchmark_provider, benchmark_methodology_version,
       actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, call_id, memo, qa, seal_hash, prev_hash, created_at)
     select entry_id, tenant_id, project_id, seq, 'AI_USAGE', '${CUSTOMER_LABELS.AI_USAGE}', amount, balance_after, model_id,
       provider_key, benchmark_provider, methodology, actual, baseline, pricing, call_id, null, qa, seal, prev, created_at from v),
   cl as (
     insert into call_logs (id, tenant_id, project_id, key_id, parent_call_id, attempt, escalated, status, channel,
       client_shape, stream, conversation_id, task_family, complexity, model_class, routing_table_version,
       routing_features, routing_rules, provider_key, model_id, region, benchmark_provider,
       benchmark_methodology_version, actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version,
       debited_micros, uncollected_micros, input_tokens, output_tokens, cached_input_tokens, latency_ms,
       prompt_excerpt, ledger_entry_id, qa, qa_scored_at, created_at)
     select call_id, tenant_id, project_id, key_id, parent_call_id, attempt, escalated, 'succeeded', channel,
       client_shape, stream, conversation_id, task_family, complexity, model_class, table_version,
       features, rules, provider_key, model_id, region, benchmark_provider,
       methodology, actual, baseline, pricing, -amount, uncollected, input_tokens, output_tokens, cached_input_tokens,
       latency_ms, excerpt, entry_id, qa, case when qa is null then null else created_at end, created_at from v),
   lo as (
     insert into learning_outbox (call_id, tenant_id, project_id, provider_key, model_id, model_class, request, response,
       input_tokens, output_tokens, latency_ms, created_at, qa_wait)
     select call_id, tenant_id, project_id, provider_key, model_id, model_class, request, response,
       input_tokens, output_tokens, latency_ms, created_at, qa is null from v),
   ps as (
     insert into project_spend (project_id, month, tenant_id, spent_micros)
     select * from unnest(${$(1)}::uuid[], ${$(2)}::date[], ${$(3)}::uuid[], ${$(4)}::int8[])
     on conflict (project_id, month) do update set spent_micros = project_spend.spent_micros + excluded.spent_micros),
   eo as (
     insert into event_outbox (tenant_id, project_id, frame, tenant_wide, created_at)
     select tenant_id, project_id, frame, tenant_wide, created_at
       from jsonb_to_recordset(${$(5)}::jsonb) as e(tenant_id uuid, project_id uuid, frame jsonb, tenant_wide bool, created_at timestamptz))`;
}

/** Locking path: $1–$6 the new chain heads, $7 the batch's time, then the rows. */
export const WRITE = namedStatement(
  'sb_settle_write',
  `with w as (
     update wallets w set balance_micros = v.balance, reserved_micros = v.reserved, ledger_seq = v.seq,
            last_seal_hash = v.seal, auto_topup_armed = v.armed, updated_at = $7
       from unnest($1::uuid[], $2::int8[], $3::int8[], $4::int8[], $5::text[], $6::bool[]) as v(tenant_id, balance, reserved, seq, seal, armed)
      where w.tenant_id = v.tenant_id),
   ${rowsSql(8)}
   select 1`,
);

/**
 * Fast path, one autocommit statement: the claim ($1–$5, $3 the time), the chain heads computed
 * from the heads this process last wrote ($6–$13), applied only where the wallet has exactly that
 * head (sequence, balance and seal), covers the batch's debits without counting any release, and
 * crosses no auto-top-up threshold; then the rows ($16…). sb_settle_check aborts the whole
 * statement unless every wallet ($14) and every per-call hold ($15) was taken: the batch then goes
 * the locking path.
 *
 * A tenant's next batch may be planned (sealed) while this one is in flight, but it is sent only
 * once this one has committed (settlement.ts): the conditions above are read on the statement's
 * snapshot, so a statement sent earlier would not wait for this one's commit on the wallet row,
 * it would see the head before it and abort.
 */
export const FAST = namedStatement(
  'sb_settle_fast',
  `with ${claimSql({ call: 'r.tenant_id, case when r.released_at is null then r.amount_micros else 0 end as rel', lease: 'r.id, r.tenant_id, v.used as rel' })},
   rel as (
     select tenant_id, sum(rel)::int8 as rel
       from (select tenant_id, rel from c union all select tenant_id, rel from l) x group by tenant_id),
   w as (
     update wallets w set balance_micros = h.balance, reserved_micros = w.reserved_micros - coalesce(rel.rel, 0),
            ledger_seq = h.seq, last_seal_hash = h.seal, updated_at = $3
       from unnest($6::uuid[], $7::int8[], $8::int8[], $9::text[], $10::int8[], $11::int8[], $12::int8[], $13::text[])
              as h(tenant_id, balance, seq, seal, expected_seq, expected_balance, debit, expected_seal)
            left join rel on rel.tenant_id = h.tenant_id
      where w.tenant_id = h.tenant_id and w.ledger_seq = h.expected_seq and w.balance_micros = h.expected_balance
        and w.last_seal_hash = h.expected_seal
        and w.balance_micros - w.reserved_micros >= h.debit
        and (w.auto_topup_threshold_micros is null or not w.auto_topup_armed or h.balance >= w.auto_topup_threshold_micros)
     returning w.tenant_id),
   ${rowsSql(16)}
   select sb_settle_check((select count(*) from w) = $14 and (select count(*) from c) = $15) as ok,
          (select coalesce(array_agg(id), '{}') from l) as leases`,
);

/**
 * The rows' parameters, in rowsSql's order: the settled calls (one JSON array of arrays), the
 * monthly spend (4 arrays), the events (one JSON array of objects).
 */
/** The fast path's one autocommit statement; `ok` false (nothing written) when a head moved. */
export const runFast = (db: Db, params: unknown[]) => db.executeQuery<{ ok: boolean; leases: string[] }>(CompiledQuery.raw(FAST, params));
/** Marks the batch's holds settled and shrinks its leases, returning what each held. */
export const claimHolds = (tx: Tx, params: unknown[]) =>
  tx.executeQuery<{ id: string; amount_micros: bigint | null; held: boolean; lease: boolean }>(CompiledQuery.raw(CLAIM, params));
/** The chain heads of these tenants, locked in tenant order. */
export const lockHeads = (tx: Tx, tenantIds: string[]) => tx.executeQuery<Head>(CompiledQuery.raw(HEADS, [tenantIds]));
/** Every row of a batch in one statement (locking path). */
export const writeBatch = (tx: Tx, params: unknown[]) => tx.executeQuery(CompiledQuery.raw(WRITE, params));

export function rowParams(planned: Planned[]): unknown[] {
  const calls: string[] = [];
  const spend = new Map<string, { project: string; month: string; tenant: string; micros: bigint }>();
  const events: string[] = [];
  for (const p of planned) {
    const input = p.item.input;
    const c: RowCtx = { p, input, v: callLogValues(input, p.item.at) };
    let row = '[';
    for (let i = 0; i < ROW_COLUMNS.length; i++) row += (i === 0 ? '' : ',') + ROW_COLUMNS[i][2](c);
    // A prompt may hold what PostgreSQL cannot store (NUL, a lone surrogate): replaced, never a failed settlement.
    calls.push(jsonForPg(`${row}]`));
    const month = monthStartUtc(p.item.at);
    const k = `${input.projectId}:${month}`;
    const sp = spend.get(k);
    if (sp) sp.micros += p.debit;
    else spend.set(k, { project: input.projectId, month, tenant: input.tenantId, micros: p.debit });
    if (input.events) for (const e of input.events) {
      events.push(
        `{"tenant_id":${j(e.frame.tenantId)},"project_id":${j(e.frame.projectId)},"frame":${JSON.stringify(e.frame)},` +
          `"tenant_wide":${j(e.tenantWide)},"created_at":${j(p.createdAt)}}`,
      );
    }
  }
  const sp = [...spend.values()];
  return [`[${calls.join(',')}]`, sp.map((x) => x.project), sp.map((x) => x.month), sp.map((x) => x.tenant), sp.map((x) => x.micros), `[${events.join(',')}]`];
}

function savedOf(benchmarkProvider: ProviderKey | null, sv: Savings): SettledSavings | null {
  return benchmarkProvider !== null && sv.baselineCostMicros !== null && sv.tokensSavedMicros !== null
    ? {
        benchmarkProvider,
        baselineCostMicros: sv.baselineCostMicros,
        tokensSavedMicros: sv.tokensSavedMicros,
        percentSavedBps: sv.percentSavedBps,
        methodologyVersion: sv.methodologyVersion,
        pricingVersion: sv.pricingVersion,
      }
    : null;
}

export function settledOf(it: Item, p: Planned): SettledCall {
  return {
    callId: it.input.callId,
    ledgerEntryId: p.entryId,
    costMicros: it.cost,
    debitedMicros: p.debit,
    uncollectedMicros: it.cost - p.debit,
    savings: savedOf(it.input.benchmarkProvider, it.sv),
    balanceAfterMicros: p.balanceAfter,
    duplicate: false,
  };
}

/** The status of a per-call hold the claim did not take (settled already, or unknown). */
export async function reservationStatus(tx: Tx, tenantId: string, reservationId: string): Promise<string | undefined> {
  const r = await tx.selectFrom('reservations').select('status').where('id', '=', reservationId).where('tenant_id', '=', tenantId).executeTakeFirst();
  return r?.status;
}

/** The settlement a call already has (its AI_USAGE entry), reported as a duplicate. */
export async function previousSettlement(tx: Tx, input: SettlementPlan): Promise<SettledCall> {
  const row = await tx
    .selectFrom('ledger_entries as l')
    .innerJoin('call_logs as c', 'c.id', 'l.call_id')
    .select([
      'l.id',
      'l.amount_micros',
      'l.balance_after_micros',
      'l.benchmark_provider',
      'l.baseline_cost_usd_micros',
      'l.actual_cost_usd_micros',
      'l.benchmark_methodology_version',
      'l.benchmark_pricing_version',
      'c.uncollected_micros',
    ])
    .where('l.call_id', '=', input.callId)
    .where('l.tenant_id', '=', input.tenantId)
    .where('l.event_type', '=', 'AI_USAGE')
    .executeTakeFirst();
  if (!row) throw new Error(`call ${input.callId} is marked settled but has no AI_USAGE entry`);
  const cost = row.actual_cost_usd_micros ?? -row.amount_micros;
  let saved: SettledSavings | null = null;
  if (row.benchmark_provider && isProviderKey(row.benchmark_provider) && row.baseline_cost_usd_micros !== null) {
    const tokensSavedMicros = row.baseline_cost_usd_micros - cost;
    saved = {
      benchmarkProvider: row.benchmark_provider,
      baselineCostMicros: row.baseline_cost_usd_micros,
      tokensSavedMicros,
      percentSavedBps: row.baseline_cost_usd_micros === 0n ? null : roundBps(tokensSavedMicros, row.baseline_cost_usd_micros),
      methodologyVersion: row.benchmark_methodology_version ?? '',
      pricingVersion: row.benchmark_pricing_version ?? '',
    };
  }
  return {
    callId: input.callId,
    ledgerEntryId: row.id,
    costMicros: cost,
    debitedMicros: -row.amount_micros,
    uncollectedMicros: row.uncollected_micros,
    savings: saved,
    balanceAfterMicros: row.balance_after_micros,
    duplicate: true,
  };
}

/** Same rounding as core/pricing savings(): to nearest, halves away from zero. */
function roundBps(saved: bigint, baseline: bigint): bigint {
  const n = saved * 10_000n;
  const a = n < 0n ? -n : n;
  const q = (2n * a + baseline) / (2n * baseline);
  return n < 0n ? -q : q;
}

// Settlement with group commit (D8, docs/decisions.md "Admission and group commit").
//
// Every completed call is settled in one transaction that claims its hold, debits the real cost,
// seals its AI_USAGE entry, and writes its call-log, learning-outbox, monthly-spend and event-outbox
// rows; its response waits for that commit. Settlements arriving while a transaction is in
// flight are settled together in the next one, so one commit (one disk flush) serves many calls:
//
//   BEGIN
//   claim      one statement: per-call reservations → settled; admission leases → amount − used
//   heads      SELECT … FROM wallets WHERE tenant_id = ANY(…) ORDER BY tenant_id FOR UPDATE
//   (in Node)  per tenant, in arrival order: release, debit (capped), balance, seq, HMAC seal
//   write      one statement: wallets, ledger_entries, call_logs, learning_outbox, project_spend,
//              event_outbox, from one JSON array of the batch's calls (jsonb_to_recordset)
//   (rare)     auto-top-up jobs, callers' `extra` callbacks
//   COMMIT
//
// Lock order is the one of wallet.ts: reservation rows, then wallets (in tenant order). A tenant is
// in at most one batch of this process at a time, and a batch never waits for another: up to
// MAX_CONCURRENT batches run at once over disjoint tenants, so one tenant's slow settlement never
// holds up another tenant's (D8: different tenants never wait for each other). A batch that fails
// is rolled back and its settlements are retried one by one, so one bad settlement fails alone.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CompiledQuery } from 'kysely';
import type { Services } from '../shared/services.ts';
import type { Tx } from '../../store/db.ts';
import { namedStatement } from '../../store/db.ts';
import { jsonForPg } from '../../store/pg-text.ts';
import { appError } from '../../core/errors.ts';
import { isProviderKey, type ProviderKey } from '../../core/providers.ts';
import { findModel, savings as computeSavings, type PricedModel, type Savings } from '../../core/pricing/index.ts';
import { jsonWithBigints, monthStartUtc } from '../../core/money.ts';
import { sealLedgerEntry } from '../../core/ledger/seal.ts';
import { CUSTOMER_LABELS, ledgerPayloadOf } from '../../core/ledger/payload.ts';
import type { AutoTopupJob } from './topups.ts';
import type { WalletHead } from './ledger.ts';
import { callLogValues, type SettledCall, type SettledSavings, type SettlementInput } from './wallet.ts';

/** Batches in flight at once (each holds one pooled connection). */
const MAX_CONCURRENT = 4;
/** Settlements per transaction at most. */
const MAX_BATCH = 256;
const UNIQUE_VIOLATION = '23505';
/** After a failed fast attempt, a tenant settles on the locking path for this long. */
export const FAST_PAUSE_MS = 1_000;
/** sb_settle_check (migration 007): a wallet no longer had the expected head. */
const HEAD_MOVED = 'SB001';

interface CachedHead {
  seq: bigint;
  seal: string;
  balance: bigint;
}

interface Item {
  input: SettlementInput;
  model: PricedModel;
  sv: Savings;
  cost: bigint;
  at: Date;
  resolve: (r: SettledCall) => void;
  reject: (e: unknown) => void;
}

/** What the batch decided for one item before it is written. */
interface Planned {
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

type Outcome = { ok: SettledCall; planned: Planned | null } | { err: unknown };

export class Settler {
  private queue: Item[] = [];
  /** Batches settled by the fast path, by the locking path, and fast attempts that fell back. */
  readonly stats = { fast: 0, locked: 0, fellBack: 0, settlements: 0 };
  /** Tenants whose fast path failed recently: locking path until then (performance.now()). */
  private readonly slowUntil = new Map<string, number>();
  /** Chain head of each tenant as this process last committed it: what the fast path expects. */
  private readonly heads = new Map<string, CachedHead>();
  private readonly busy = new Set<string>();
  private running = 0;
  private idle: Array<() => void> = [];

  constructor(private readonly s: Services) {}

  /** Settle one call (see the module header); resolves after its transaction committed. */
  settle(input: SettlementInput): Promise<SettledCall> {
    if (input.reservation.id !== input.callId) return Promise.reject(new RangeError('settleCall: the reservation belongs to another call id'));
    if (input.reservation.tenantId !== input.tenantId) return Promise.reject(new RangeError('settleCall: the reservation belongs to another tenant'));
    const model = findModel(input.model);
    if (!model) return Promise.reject(new RangeError(`settleCall: model ${input.model} is not in the price book`));
    // D7: the baseline is the benchmark's reference model for the delivered model's class.
    const sv = computeSavings({ actualModel: model, benchmarkProvider: input.benchmarkProvider, modelClass: model.modelClass, usage: input.usage });
    return new Promise<SettledCall>((resolve, reject) => {
      this.queue.push({ input, model, sv, cost: sv.actualCostMicros, at: this.s.clock.now(), resolve, reject });
      this.pump();
    });
  }

  /** Resolves once nothing is queued or in flight. */
  drain(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  private pump(): void {
    while (this.running < MAX_CONCURRENT && this.queue.length > 0) {
      const batch: Item[] = [];
      const rest: Item[] = [];
      const tenants = new Set<string>();
      const calls = new Set<string>();
      for (const it of this.queue) {
        const t = it.input.tenantId;
        // A second settlement of the same call waits for the next batch (it then finds the first).
        if (batch.length < MAX_BATCH && !this.busy.has(t) && !calls.has(it.input.callId)) {
          batch.push(it);
          tenants.add(t);
          calls.add(it.input.callId);
        } else rest.push(it);
      }
      if (batch.length === 0) break;
      this.queue = rest;
      for (const t of tenants) this.busy.add(t);
      this.running += 1;
      void this.runBatch(batch).finally(() => {
        for (const t of tenants) this.busy.delete(t);
        this.running -= 1;
        this.pump();
        if (this.running === 0 && this.queue.length === 0) for (const r of this.idle.splice(0)) r();
      });
    }
  }

  private async runBatch(batch: Item[]): Promise<void> {
    let outcomes: Outcome[] | null = null;
    if (this.fastEligible(batch)) {
      try {
        outcomes = await this.settleFast(batch);
        this.stats.fast += 1;
      } catch (e) {
        this.stats.fellBack += 1;
        // Another writer moved a head (or anything else went wrong): the locking path decides,
        // and these tenants stay on it for a while (another replica may be settling them too).
        const until = performance.now() + FAST_PAUSE_MS;
        for (const it of batch) {
          this.heads.delete(it.input.tenantId);
          this.slowUntil.set(it.input.tenantId, until);
        }
        if ((e as { code?: string }).code !== HEAD_MOVED) this.s.log.warn({ err: e }, 'settlement fast path failed; settling on the locking path');
      }
    }
    if (outcomes === null) {
      outcomes = await this.settleLocked(batch);
      this.stats.locked += 1;
    }
    this.stats.settlements += batch.length;
    for (let i = 0; i < batch.length; i++) {
      const it = batch[i];
      const o = outcomes[i];
      const lease = it.input.reservation.admitted;
      if ('err' in o) {
        it.reject(o.err);
        continue;
      }
      if (lease) {
        // Committed: the admission budget forgets the call's worst case and keeps the lease's rest.
        if (o.planned) this.s.admission.settled(lease, o.planned.leaseUsed, o.planned.leaseHeld);
        else this.s.admission.released(lease);
      }
      it.resolve(o.ok);
    }
  }

  /** The locking path: one transaction for the batch, or one per settlement if the batch fails. */
  private async settleLocked(batch: Item[]): Promise<Outcome[]> {
    const inTx = async (items: Item[]) => {
      const heads = new Map<string, CachedHead>();
      try {
        const out = await this.s.db.transaction().execute((tx) => this.settleIn(tx, items, heads));
        for (const [t, h] of heads) this.heads.set(t, h);
        return out;
      } catch (e) {
        for (const it of items) this.heads.delete(it.input.tenantId);
        throw e;
      }
    };
    try {
      return await inTx(batch);
    } catch (e) {
      if (batch.length === 1) return [await this.recover(batch[0], e)];
      // One bad settlement must not fail the others: settle each alone.
      const outcomes: Outcome[] = [];
      for (const it of batch) {
        try {
          outcomes.push(...(await inTx([it])));
        } catch (e1) {
          outcomes.push(await this.recover(it, e1));
        }
      }
      return outcomes;
    }
  }

  /** Every tenant's head is known and no settlement needs the transaction for `extra` work. */
  private fastEligible(batch: Item[]): boolean {
    const now = performance.now();
    for (const it of batch) {
      const t = it.input.tenantId;
      if (it.input.extra || !this.heads.has(t)) return false;
      const until = this.slowUntil.get(t);
      if (until !== undefined) {
        if (now < until) return false;
        this.slowUntil.delete(t);
      }
    }
    return true;
  }

  /**
   * One autocommit statement (FAST): debits and seals computed from the heads this process wrote
   * last. Throws (writing nothing) when a head moved or a wallet is short: see FAST.
   */
  private async settleFast(batch: Item[]): Promise<Outcome[]> {
    const s = this.s;
    const start = new Map<string, CachedHead>();
    const cur = new Map<string, CachedHead>();
    const debits = new Map<string, bigint>();
    const planned: Planned[] = [];
    for (const it of batch) {
      const t = it.input.tenantId;
      let h = cur.get(t);
      if (!h) {
        const c = this.heads.get(t)!;
        start.set(t, c);
        cur.set(t, (h = { ...c }));
      }
      debits.set(t, (debits.get(t) ?? 0n) + it.cost);
      h.balance -= it.cost;
      h.seq += 1n;
      const sealed = this.seal(it, h, it.cost);
      // Whether the lease row was still held is known from the statement's answer (below).
      planned.push({ item: it, entryId: sealed.entryId, seq: h.seq, debit: it.cost, balanceAfter: h.balance, prevHash: sealed.prevHash, sealHash: h.seal, createdAt: sealed.createdAt, leaseUsed: 0n, leaseHeld: false });
    }
    const claim = claimParams(batch);
    const tenants = [...cur.keys()];
    const r = await s.db.executeQuery<{ ok: boolean; leases: string[] }>(
      CompiledQuery.raw(FAST, [
        ...claim.params,
        tenants,
        tenants.map((t) => cur.get(t)!.balance),
        tenants.map((t) => cur.get(t)!.seq),
        tenants.map((t) => cur.get(t)!.seal),
        tenants.map((t) => start.get(t)!.seq),
        tenants.map((t) => start.get(t)!.balance),
        tenants.map((t) => debits.get(t)!),
        tenants.length,
        claim.calls,
        ...rowParams(planned),
      ]),
    );
    const held = new Set(r.rows[0]?.leases ?? []);
    for (const [t, h] of cur) this.heads.set(t, h);
    return planned.map((p) => {
      const a = p.item.input.reservation.admitted;
      if (a && held.has(a.lease.id)) {
        p.leaseHeld = true;
        p.leaseUsed = leaseUsedBy(p.item);
      }
      return { ok: settledOf(p.item, p), planned: p };
    });
  }

  /** Seal the item's AI_USAGE entry onto head `h` (already advanced to the entry's seq and balance). */
  private seal(it: Item, h: CachedHead, debit: bigint): { entryId: string; createdAt: string; prevHash: string } {
    const entryId = randomUUID();
    const createdAt = it.at.toISOString();
    const payload = ledgerPayloadOf({
      id: entryId,
      tenantId: it.input.tenantId,
      projectId: it.input.projectId,
      eventType: 'AI_USAGE',
      amountMicros: -debit,
      balanceAfterMicros: h.balance,
      modelId: it.model.id,
      providerKey: it.input.provider,
      benchmarkProvider: it.input.benchmarkProvider,
      benchmarkMethodologyVersion: it.sv.methodologyVersion,
      actualCostUsdMicros: it.cost,
      baselineCostUsdMicros: it.sv.baselineCostMicros,
      benchmarkPricingVersion: it.sv.pricingVersion,
      createdAt,
    });
    const prevHash = h.seal;
    h.seal = sealLedgerEntry(this.s.secrets.ledger, prevHash, payload);
    return { entryId, createdAt, prevHash };
  }

  /** A lone settlement failed: a duplicate of a settled call returns the first settlement. */
  private async recover(it: Item, e: unknown): Promise<Outcome> {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION && (e as { constraint?: string }).constraint === 'ledger_ai_usage_call') {
      try {
        return { ok: await this.s.db.transaction().execute((tx) => previousSettlement(tx, it.input)), planned: null };
      } catch (e2) {
        return { err: e2 };
      }
    }
    return { err: e };
  }

  private async settleIn(tx: Tx, batch: Item[], committed: Map<string, CachedHead>): Promise<Outcome[]> {
    const s = this.s;
    // 1. Claim: per-call holds are marked settled (returning what they held); leases shrink by
    //    what their calls used, min(cost, worst case) each.
    const claim = claimParams(batch);
    const claimed = new Map<string, { amount: bigint; held: boolean }>();
    const leasesHeld = new Set<string>();
    if (claim.calls > 0 || claim.leases > 0) {
      const r = await tx.executeQuery<{ id: string; amount_micros: bigint | null; held: boolean; lease: boolean }>(CompiledQuery.raw(CLAIM, claim.params));
      for (const row of r.rows) {
        if (row.lease) leasesHeld.add(row.id);
        else claimed.set(row.id, { amount: row.amount_micros ?? 0n, held: row.held });
      }
    }

    // Unclaimed per-call holds: already settled (a duplicate) or unknown.
    const outcomes: Array<Outcome | null> = batch.map(() => null);
    for (let i = 0; i < batch.length; i++) {
      const it = batch[i];
      if (it.input.reservation.admitted || claimed.has(it.input.reservation.id)) continue;
      const prior = await tx
        .selectFrom('reservations')
        .select('status')
        .where('id', '=', it.input.reservation.id)
        .where('tenant_id', '=', it.input.tenantId)
        .executeTakeFirst();
      outcomes[i] =
        prior?.status === 'settled'
          ? { ok: await previousSettlement(tx, it.input), planned: null }
          : { err: appError('not_found', `No reservation for call ${it.input.callId}`) };
    }

    // 2. The chain heads of the batch's tenants, locked in tenant order.
    const tenantIds = [...new Set(batch.filter((_, i) => outcomes[i] === null).map((it) => it.input.tenantId))].sort();
    if (tenantIds.length === 0) return outcomes as Outcome[];
    const heads = await tx.executeQuery<Head>(CompiledQuery.raw(HEADS, [tenantIds]));
    const headOf = new Map(heads.rows.map((h) => [h.tenant_id, { ...h, disarm: false }]));

    // 3. Per item, in arrival order (which is chain order within a tenant): release, debit, seal.
    const planned: Planned[] = [];
    for (let i = 0; i < batch.length; i++) {
      if (outcomes[i] !== null) continue;
      const it = batch[i];
      const h = headOf.get(it.input.tenantId);
      if (!h) {
        outcomes[i] = { err: appError('not_found', `No wallet for tenant ${it.input.tenantId}`) };
        continue;
      }
      const a = it.input.reservation.admitted;
      let release = 0n;
      let leaseUsed = 0n;
      let leaseHeld = false;
      if (a) {
        leaseHeld = leasesHeld.has(a.lease.id);
        if (leaseHeld) release = leaseUsed = leaseUsedBy(it);
      } else {
        const c = claimed.get(it.input.reservation.id)!;
        // A hold already ended by release() or the sweeper is not released twice.
        release = c.held ? c.amount : 0n;
      }
      if (release > h.reserved_micros) {
        s.log.error({ callId: it.input.callId, tenantId: it.input.tenantId, release, reserved: h.reserved_micros }, 'settlement would release more than the wallet holds');
        release = h.reserved_micros;
      }
      // Debit rule: the real cost, capped at what the wallet holds beyond other calls' holds.
      const coverable = h.balance_micros - (h.reserved_micros - release);
      const debit = it.cost <= coverable ? it.cost : coverable < 0n ? 0n : coverable;
      if (debit < it.cost) {
        s.log.warn({ callId: it.input.callId, tenantId: it.input.tenantId, costMicros: it.cost, debitedMicros: debit }, 'call cost exceeded what the wallet could cover');
      }
      h.balance_micros -= debit;
      h.reserved_micros -= release;
      h.ledger_seq += 1n;
      const head: CachedHead = { seq: h.ledger_seq, seal: h.last_seal_hash, balance: h.balance_micros };
      const { entryId, createdAt, prevHash } = this.seal(it, head, debit);
      h.last_seal_hash = head.seal;
      // Auto-top-up, once per crossing: disarmed under the wallet lock, charged by the worker.
      if (h.auto_topup_threshold_micros !== null && h.auto_topup_amount_micros !== null && h.auto_topup_armed && h.balance_micros < h.auto_topup_threshold_micros) {
        h.auto_topup_armed = false;
        h.disarm = true;
      }
      const p: Planned = { item: it, entryId, seq: h.ledger_seq, debit, balanceAfter: h.balance_micros, prevHash, sealHash: h.last_seal_hash, createdAt, leaseUsed, leaseHeld };
      planned.push(p);
      outcomes[i] = { ok: settledOf(it, p), planned: p };
    }

    // 4. Every row of the batch in one statement.
    if (planned.length > 0) {
      const touched = new Set(planned.map((p) => p.item.input.tenantId));
      const w: unknown[][] = [[], [], [], [], [], []];
      for (const h of headOf.values()) {
        if (!touched.has(h.tenant_id)) continue;
        w[0].push(h.tenant_id);
        w[1].push(h.balance_micros);
        w[2].push(h.reserved_micros);
        w[3].push(h.ledger_seq);
        w[4].push(h.last_seal_hash);
        w[5].push(h.auto_topup_armed);
      }
      await tx.executeQuery(CompiledQuery.raw(WRITE, [...w, batch[0].at, ...rowParams(planned)]));
    }
    for (const h of headOf.values()) {
      if (!h.disarm) continue;
      const job: AutoTopupJob = { tenantId: h.tenant_id, topupId: randomUUID() };
      await s.jobs.chargeAutoTopup(tx, job);
    }
    for (const h of headOf.values()) committed.set(h.tenant_id, { seq: h.ledger_seq, seal: h.last_seal_hash, balance: h.balance_micros });
    // 5. Callers' extra work, in the same transaction (CONVENTIONS 8).
    for (const p of planned) {
      if (p.item.input.extra) await p.item.input.extra(tx, { costMicros: p.item.cost, savings: p.item.sv });
    }
    return outcomes as Outcome[];
  }
}

/** What a call admitted against a lease takes off it: its real cost, at most its worst case. */
function leaseUsedBy(it: Item): bigint {
  const a = it.input.reservation.admitted!;
  return it.cost < a.amountMicros ? it.cost : a.amountMicros;
}

/** The claim's parameters $1–$5 (claimSql): per-call holds, and each live lease with what its calls used. */
function claimParams(batch: Item[]): { params: unknown[]; calls: number; leases: number } {
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

interface Head extends WalletHead {
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

const CLAIM = namedStatement(
  'sb_settle_claim',
  `with ${claimSql({ call: 'r.id, r.amount_micros, r.released_at is null as held', lease: 'r.id' })}
   select id, amount_micros, held, false as lease from c
   union all
   select id, null::int8, true, true from l`,
);

const HEADS = namedStatement(
  'sb_settle_heads',
  `select tenant_id, balance_micros, reserved_micros, ledger_seq, last_seal_hash,
          auto_topup_threshold_micros, auto_topup_amount_micros, auto_topup_armed
     from wallets where tenant_id = any($1::uuid[]) order by tenant_id for update`,
);

/**
 * The rows of a batch (ledger entries, call logs, learning outbox, monthly spend, events) as CTEs,
 * numbered from parameter $base: see rowParams for the order. The settled calls come as one JSON
 * array of objects, one per call with its request and response documents inside, read by one
 * jsonb_to_recordset: one set-returning function instead of one unnest per column, and one
 * JSON.stringify in Node instead of an escaped array literal per column.
 */
function rowsSql(base: number): string {
  const $ = (i: number) => `$${base + i}`;
  return `v as (
     select * from jsonb_to_recordset(${$(0)}::jsonb)
       as v(entry_id uuid, tenant_id uuid, project_id uuid, seq int8, amount int8, balance_after int8, model_id text,
            provider_key text, benchmark_provider text, methodology text, actual int8, baseline int8, pricing text,
            call_id uuid, seal text, prev text, created_at timestamptz, key_id uuid, parent_call_id uuid, attempt int2,
            escalated bool, channel text, client_shape text, stream bool, conversation_id text, task_family text,
            complexity text, model_class text, table_version text, features jsonb, rules jsonb, region text,
            uncollected int8, input_tokens int4, output_tokens int4, cached_input_tokens int4, latency_ms int4,
            excerpt text, request jsonb, response jsonb)),
   le as (
     insert into ledger_entries (id, tenant_id, project_id, seq, event_type, customer_label, amount_micros,
       balance_after_micros, model_id, provider_key, benchmark_provider, benchmark_methodology_version,
       actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, call_id, memo, seal_hash, prev_hash, created_at)
     select entry_id, tenant_id, project_id, seq, 'AI_USAGE', '${CUSTOMER_LABELS.AI_USAGE}', amount, balance_after, model_id,
       provider_key, benchmark_provider, methodology, actual, baseline, pricing, call_id, null, seal, prev, created_at from v),
   cl as (
     insert into call_logs (id, tenant_id, project_id, key_id, parent_call_id, attempt, escalated, status, channel,
       client_shape, stream, conversation_id, task_family, complexity, model_class, routing_table_version,
       routing_features, routing_rules, provider_key, model_id, region, benchmark_provider,
       benchmark_methodology_version, actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version,
       debited_micros, uncollected_micros, input_tokens, output_tokens, cached_input_tokens, latency_ms,
       prompt_excerpt, ledger_entry_id, created_at)
     select call_id, tenant_id, project_id, key_id, parent_call_id, attempt, escalated, 'succeeded', channel,
       client_shape, stream, conversation_id, task_family, complexity, model_class, table_version,
       features, rules, provider_key, model_id, region, benchmark_provider,
       methodology, actual, baseline, pricing, -amount, uncollected, input_tokens, output_tokens, cached_input_tokens,
       latency_ms, excerpt, entry_id, created_at from v),
   lo as (
     insert into learning_outbox (call_id, tenant_id, project_id, provider_key, model_id, model_class, request, response,
       input_tokens, output_tokens, latency_ms, created_at)
     select call_id, tenant_id, project_id, provider_key, model_id, model_class, request, response,
       input_tokens, output_tokens, latency_ms, created_at from v),
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
const WRITE = namedStatement(
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
 * from the heads this process last wrote ($6–$12), applied only where the wallet still has that
 * head, covers the batch's debits without counting any release, and crosses no auto-top-up
 * threshold; then the rows ($15…). sb_settle_check aborts the whole statement unless every
 * wallet ($13) and every per-call hold ($14) was taken: the batch then goes the locking path.
 */
const FAST = namedStatement(
  'sb_settle_fast',
  `with ${claimSql({ call: 'r.tenant_id, case when r.released_at is null then r.amount_micros else 0 end as rel', lease: 'r.id, r.tenant_id, v.used as rel' })},
   rel as (
     select tenant_id, sum(rel)::int8 as rel
       from (select tenant_id, rel from c union all select tenant_id, rel from l) x group by tenant_id),
   w as (
     update wallets w set balance_micros = h.balance, reserved_micros = w.reserved_micros - coalesce(rel.rel, 0),
            ledger_seq = h.seq, last_seal_hash = h.seal, updated_at = $3
       from unnest($6::uuid[], $7::int8[], $8::int8[], $9::text[], $10::int8[], $11::int8[], $12::int8[])
              as h(tenant_id, balance, seq, seal, expected_seq, expected_balance, debit)
            left join rel on rel.tenant_id = h.tenant_id
      where w.tenant_id = h.tenant_id and w.ledger_seq = h.expected_seq and w.balance_micros = h.expected_balance
        and w.balance_micros - w.reserved_micros >= h.debit
        and (w.auto_topup_threshold_micros is null or not w.auto_topup_armed or h.balance >= w.auto_topup_threshold_micros)
     returning w.tenant_id),
   ${rowsSql(15)}
   select sb_settle_check((select count(*) from w) = $13 and (select count(*) from c) = $14) as ok,
          (select coalesce(array_agg(id), '{}') from l) as leases`,
);

/** A JSON string value (RFC 8259) or null; bigints and numbers as their decimal text. */
const j = (x: string | bigint | number | boolean | null | undefined): string =>
  x === null || x === undefined ? 'null' : typeof x === 'string' ? JSON.stringify(x) : typeof x === 'bigint' ? `"${x}"` : String(x);

/**
 * The rows' parameters, in rowsSql's order: the settled calls (one JSON array of objects), the
 * monthly spend (4 arrays), the events (one JSON array of objects).
 */
function rowParams(planned: Planned[]): unknown[] {
  const calls: string[] = [];
  const spend = new Map<string, { project: string; month: string; tenant: string; micros: bigint }>();
  const events: string[] = [];
  for (const p of planned) {
    const input = p.item.input;
    const v = callLogValues(input, p.item.at);
    const r = input.routing;
    calls.push(
      // A prompt may hold what PostgreSQL cannot store (NUL, a lone surrogate): replaced, never a failed settlement.
      jsonForPg(
      `{"entry_id":${j(p.entryId)},"tenant_id":${j(input.tenantId)},"project_id":${j(input.projectId)},"seq":${j(p.seq)},` +
        `"amount":${j(-p.debit)},"balance_after":${j(p.balanceAfter)},"model_id":${j(p.item.model.id)},"provider_key":${j(input.provider)},` +
        `"benchmark_provider":${j(input.benchmarkProvider)},"methodology":${j(p.item.sv.methodologyVersion)},"actual":${j(p.item.cost)},` +
        `"baseline":${j(p.item.sv.baselineCostMicros)},"pricing":${j(p.item.sv.pricingVersion)},"call_id":${j(input.callId)},` +
        `"seal":${j(p.sealHash)},"prev":${j(p.prevHash)},"created_at":${j(p.createdAt)},"key_id":${j(input.keyId)},` +
        `"parent_call_id":${j(input.parentCallId)},"attempt":${j(v.attempt)},"escalated":${j(input.escalated ?? false)},` +
        `"channel":${j(input.channel)},"client_shape":${j(input.clientShape)},"stream":${j(input.stream)},` +
        `"conversation_id":${j(input.conversationId)},"task_family":${j(r?.taskFamily)},"complexity":${j(r?.complexity)},` +
        `"model_class":${j(input.modelClass)},"table_version":${j(r?.tableVersion)},"features":${v.routingFeatures ?? 'null'},` +
        `"rules":${v.routingRules},"region":${j(input.region)},"uncollected":${j(p.item.cost - p.debit)},` +
        `"input_tokens":${j(input.usage.inputTokens)},"output_tokens":${j(input.usage.outputTokens)},` +
        `"cached_input_tokens":${j(input.usage.cachedInputTokens)},"latency_ms":${j(Math.round(input.latencyMs))},` +
        `"excerpt":${j(v.excerpt)},"request":${jsonWithBigints(input.request)},"response":${jsonWithBigints(input.response)}}`,
      ),
    );
    const month = monthStartUtc(p.item.at);
    const k = `${input.projectId}:${month}`;
    const sp = spend.get(k);
    if (sp) sp.micros += p.debit;
    else spend.set(k, { project: input.projectId, month, tenant: input.tenantId, micros: p.debit });
    for (const e of input.events?.({ costMicros: p.item.cost, savings: p.item.sv }) ?? []) {
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

function settledOf(it: Item, p: Planned): SettledCall {
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

/** The settlement a call already has (its AI_USAGE entry), reported as a duplicate. */
async function previousSettlement(tx: Tx, input: SettlementInput): Promise<SettledCall> {
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

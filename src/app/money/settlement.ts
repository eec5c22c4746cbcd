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
//   (rare)     auto-top-up jobs, the plans' follow-ups (through the one writer the settler was built with)
//   COMMIT
//
// Lock order is the one of wallet.ts: reservation rows, then wallets (in tenant order). Up to
// MAX_CONCURRENT batches run at once; a batch never waits for another tenant's batch, so one
// tenant's slow settlement never holds up another tenant's (D8: different tenants never wait for
// each other). A batch that fails is rolled back and its settlements are retried one by one, so
// one bad settlement fails alone.
//
// Pipelining (one hot tenant): while a tenant's fast batch is in flight, the settlements that
// arrive meanwhile form the next batch at once, sealed onto the chain head the batch in flight
// will leave; that batch's statement is sent the moment the one before it has committed, so the
// sealing and the rows' JSON are off the path between two commits. Nothing answers earlier than
// before: each settlement still resolves only after its own statement committed. If the batch it
// builds on did not commit as planned, the next one is not sent and goes the locking path after
// it. At most PIPELINE_DEPTH batches of a tenant are in flight, and a settlement's call is in one
// batch at a time. A pipelined batch holds its one tenant alone: it waits for that tenant's
// commit, and no other tenant's settlement waits with it.
//
// Files: this one queues and batches and picks the path; settlement-batch.ts plans and writes a batch
// (the fast path's one statement, the locking path's transaction); settlement.repo.ts holds the SQL.
import { performance } from 'node:perf_hooks';
import type { Services } from '../shared/index.ts';
import type { Tx } from '../../store/db.ts';
import { findModel, savings as computeSavings } from '../../core/pricing/index.ts';
import type { FollowUpWriter } from '../shared/index.ts';
import type { PricedCall, SettledCall, SettlementPlan } from './settlement-plan.ts';
import { planFast, runFastPlan, settleIn, type CachedHead, type FastPlan, type Outcome } from './settlement-batch.ts';
import { previousSettlement, type Item } from './settlement.repo.ts';

/** Batches in flight at once (each holds one pooled connection). */
const MAX_CONCURRENT = 4;
/** Settlements per transaction at most. */
const MAX_BATCH = 256;
/** Batches of one tenant in flight at once: one committing, one planned on the heads it leaves. */
const PIPELINE_DEPTH = 2;
const UNIQUE_VIOLATION = '23505';
/** After a failed fast attempt, a tenant settles on the locking path for this long. */
export const FAST_PAUSE_MS = 1_000;
/** sb_settle_check (migration 007): a wallet no longer had the expected head. */
const HEAD_MOVED = 'SB001';

/**
 * The price of a planned settlement at the delivered model (D7: the baseline is the benchmark's
 * reference model for the delivered model's class). The call path prices a call with it once, for
 * its `llm.call` event, and hands the result on in the plan (`priced`).
 */
export function priceSettlement(plan: Pick<SettlementPlan, 'model' | 'benchmarkProvider' | 'usage'>): PricedCall {
  const model = findModel(plan.model);
  if (!model) throw new RangeError(`settleCall: model ${plan.model} is not in the price book`);
  return { model, sv: computeSavings({ actualModel: model, benchmarkProvider: plan.benchmarkProvider, modelClass: model.modelClass, usage: plan.usage }) };
}

export interface SettleOptions {
  /**
   * Runs inside the settlement's transaction, last: tests use it to hold a transaction open or to
   * make one fail. The call path never passes it (its in-transaction work is the plan's follow-ups).
   */
  extra?: (tx: Tx) => Promise<void>;
}

/** One batch in flight, as the tenants in it see it (pipelining). */
interface Flight {
  /** The batch goes the fast path: its heads are planned, and a successor may be planned on them. */
  fast: boolean;
  /** True once its fast statement committed the heads it planned; false when it did not. */
  committed: Promise<boolean>;
  /** Settles when the batch is over (every settlement of it answered). */
  done: Promise<void>;
}

export class Settler {
  private queue: Item[] = [];
  /**
   * Batches settled by the fast path, by the locking path, fast attempts that fell back, and
   * batches planned while the batch they build on was in flight (pipelined).
   */
  readonly stats = { fast: 0, locked: 0, fellBack: 0, settlements: 0, pipelined: 0 };
  /** Tenants whose fast path failed recently: locking path until then (performance.now()). */
  private readonly slowUntil = new Map<string, number>();
  /**
   * The chain head each tenant's next fast batch builds on: the one this process last committed,
   * or the one its batch in flight leaves (set when that batch is planned, dropped if it fails).
   */
  private readonly heads = new Map<string, CachedHead>();
  /** Per tenant, its batches in flight, oldest first (at most PIPELINE_DEPTH). */
  private readonly flights = new Map<string, Flight[]>();
  /** Call ids in a batch in flight: a second settlement of a call waits for the first. */
  private readonly inFlightCalls = new Set<string>();
  private running = 0;
  private pipeScheduled = false;
  private idle: Array<() => void> = [];

  /** `followUps` writes the plans' follow-ups in their settlement's transaction (calls/follow-ups.ts). */
  constructor(
    private readonly s: Services,
    readonly followUps: FollowUpWriter,
  ) {}

  /** Settle one call (see the module header); resolves after its transaction committed. */
  settle(input: SettlementPlan, opts?: SettleOptions): Promise<SettledCall> {
    if (input.reservation.id !== input.callId) return Promise.reject(new RangeError('settleCall: the reservation belongs to another call id'));
    if (input.reservation.tenantId !== input.tenantId) return Promise.reject(new RangeError('settleCall: the reservation belongs to another tenant'));
    let priced = input.priced;
    if (!priced) {
      try {
        priced = priceSettlement(input);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const { model, sv } = priced;
    return new Promise<SettledCall>((resolve, reject) => {
      this.queue.push({ input, model, sv, cost: sv.actualCostMicros, at: this.s.clock.now(), extra: opts?.extra, resolve, reject });
      this.pump(false);
    });
  }

  /** Resolves once nothing is queued or in flight. */
  drain(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idle.push(r));
  }

  /**
   * Forms and starts batches. A tenant with no batch in flight joins any batch that is not
   * pipelined. A tenant whose batch in flight went the fast path gets a batch of its own planned
   * on the heads that batch leaves (the pipeline): of its own, because it is sent only once that
   * batch has committed, and other tenants never wait for a tenant's commit (D8). Pipelined
   * batches are formed only in a pass deferred to the next turn of the event loop (`piping`), so
   * the settlements arriving together share one instead of the first going alone. A tenant's
   * settlements keep their order: once one of them has to wait, the rest wait with it.
   */
  private pump(piping: boolean): void {
    while (this.running < MAX_CONCURRENT && this.queue.length > 0) {
      const batch: Item[] = [];
      const rest: Item[] = [];
      /** Null until the first item is taken; then false for a batch of tenants with nothing in flight, or the one tenant it is pipelined for. */
      let kind: false | string | null = null;
      const waiting = new Set<string>();
      const calls = new Set<string>();
      const now = performance.now();
      let allFast = true;
      let wantPipe = false;
      for (const it of this.queue) {
        const t = it.input.tenantId;
        const id = it.input.callId;
        let take = batch.length < MAX_BATCH && !waiting.has(t) && !calls.has(id) && !this.inFlightCalls.has(id);
        if (take) {
          const fast = this.fastItem(it, now);
          const f = this.flights.get(t);
          if (!f) take = kind === null || kind === false;
          else if (f.length < PIPELINE_DEPTH && f[f.length - 1].fast && fast) {
            if (!piping) wantPipe = true;
            take = piping && (kind === null || kind === t);
          } else take = false;
          if (take) {
            kind = f ? t : false;
            if (!fast) allFast = false;
          }
        }
        if (take) {
          batch.push(it);
          calls.add(id);
        } else {
          rest.push(it);
          waiting.add(t);
        }
      }
      if (wantPipe) this.schedulePipe();
      if (batch.length === 0) break;
      this.queue = rest;
      this.start(batch, typeof kind === 'string' ? kind : null, allFast);
    }
  }

  private schedulePipe(): void {
    if (this.pipeScheduled) return;
    this.pipeScheduled = true;
    setImmediate(() => {
      this.pipeScheduled = false;
      this.pump(true);
    });
  }

  /** Starts a batch; `piped` names the tenant whose batch in flight it is planned on. */
  private start(batch: Item[], piped: string | null, fast: boolean): void {
    let committed!: (ok: boolean) => void;
    let finish!: () => void;
    const flight: Flight = { fast, committed: new Promise<boolean>((r) => (committed = r)), done: new Promise<void>((r) => (finish = r)) };
    const tenants = new Set(batch.map((it) => it.input.tenantId));
    /** The batch in flight this one is planned on. */
    const before: Flight[] = [];
    for (const t of tenants) {
      const f = this.flights.get(t);
      if (t === piped && f) before.push(f[f.length - 1]);
      if (f) f.push(flight);
      else this.flights.set(t, [flight]);
    }
    for (const it of batch) this.inFlightCalls.add(it.input.callId);
    if (before.length > 0) this.stats.pipelined += 1;
    this.running += 1;
    void this.runBatch(batch, fast, before, committed)
      .catch((e) => {
        // Not expected (every outcome is settled inside); never leave a caller waiting.
        for (const it of batch) it.reject(e);
      })
      .finally(() => {
        committed(false);
        finish();
        for (const t of tenants) {
          const f = this.flights.get(t)!;
          f.splice(f.indexOf(flight), 1);
          if (f.length === 0) this.flights.delete(t);
        }
        for (const it of batch) this.inFlightCalls.delete(it.input.callId);
        this.running -= 1;
        this.pump(false);
        if (this.running === 0 && this.queue.length === 0) for (const r of this.idle.splice(0)) r();
      });
  }

  /**
   * Settles a batch; `committed` is told, as soon as the fast statement has answered, whether it
   * committed the heads it planned (a batch planned on them is sent then).
   */
  private async runBatch(batch: Item[], fast: boolean, before: Flight[], committed: (ok: boolean) => void): Promise<void> {
    let outcomes: Outcome[] | null = null;
    if (fast) {
      let err: unknown = null;
      let plan: FastPlan | null = null;
      try {
        // Sealed now, synchronously: the next batch of these tenants may be planned on these heads.
        plan = planFast(this.s, this.heads, batch);
        for (const [t, h] of plan.ends) this.heads.set(t, h);
      } catch (e) {
        err = e;
      }
      // Planned on batches in flight: sent once they have committed the heads it builds on.
      const ready = plan !== null && (before.length === 0 || (await Promise.all(before.map((f) => f.committed))).every(Boolean));
      if (ready && plan) {
        try {
          outcomes = await runFastPlan(this.s, plan);
          this.stats.fast += 1;
        } catch (e) {
          err = e;
        }
      }
      committed(outcomes !== null);
      if (outcomes === null) {
        this.stats.fellBack += 1;
        // Another writer moved a head, a batch this one was planned on fell back, or anything else
        // went wrong: the locking path decides, and these tenants stay on it for a while (another
        // replica may be settling them too).
        const until = performance.now() + FAST_PAUSE_MS;
        for (const it of batch) {
          this.heads.delete(it.input.tenantId);
          this.slowUntil.set(it.input.tenantId, until);
        }
        if (err !== null && (err as { code?: string }).code !== HEAD_MOVED) this.s.log.warn({ err }, 'settlement fast path failed; settling on the locking path');
        // The batches it was planned on finish first (they may be settling on the locking path).
        await Promise.all(before.map((f) => f.done));
      }
    } else committed(false);
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
        const out = await this.s.db.transaction().execute((tx) => settleIn(this.s, tx, items, heads, this.followUps));
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

  /** Its tenant's head is known and it needs no transaction for follow-ups or `extra`. */
  private fastItem(it: Item, now: number): boolean {
    const t = it.input.tenantId;
    if (it.extra || it.input.followUps?.length || !this.heads.has(t)) return false;
    const until = this.slowUntil.get(t);
    if (until !== undefined) {
      if (now < until) return false;
      this.slowUntil.delete(t);
    }
    return true;
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
}

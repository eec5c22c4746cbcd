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
// Lock order is the one of wallet.ts: reservation rows, then wallets (in tenant order). A tenant is
// in at most one batch of this process at a time, and a batch never waits for another: up to
// MAX_CONCURRENT batches run at once over disjoint tenants, so one tenant's slow settlement never
// holds up another tenant's (D8: different tenants never wait for each other). A batch that fails
// is rolled back and its settlements are retried one by one, so one bad settlement fails alone.
//
// Files: this one queues and batches and picks the path; settlement-batch.ts plans and writes a batch
// (the fast path's one statement, the locking path's transaction); settlement.repo.ts holds the SQL.
import { performance } from 'node:perf_hooks';
import type { Services } from '../shared/index.ts';
import type { Tx } from '../../store/db.ts';
import { findModel, savings as computeSavings } from '../../core/pricing/index.ts';
import type { FollowUpWriter } from '../shared/index.ts';
import type { PricedCall, SettledCall, SettlementPlan } from './settlement-plan.ts';
import { settleFast, settleIn, type CachedHead, type Outcome } from './settlement-batch.ts';
import { previousSettlement, type Item } from './settlement.repo.ts';

/** Batches in flight at once (each holds one pooled connection). */
const MAX_CONCURRENT = 4;
/** Settlements per transaction at most. */
const MAX_BATCH = 256;
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
        outcomes = await settleFast(this.s, this.heads, batch);
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

  /** Every tenant's head is known and no settlement needs the transaction for follow-ups or `extra`. */
  private fastEligible(batch: Item[]): boolean {
    const now = performance.now();
    for (const it of batch) {
      const t = it.input.tenantId;
      if (it.extra || it.input.followUps?.length || !this.heads.has(t)) return false;
      const until = this.slowUntil.get(t);
      if (until !== undefined) {
        if (now < until) return false;
        this.slowUntil.delete(t);
      }
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

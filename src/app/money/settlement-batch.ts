// One settlement batch (settlement.ts explains the batching): the fast path as one autocommit
// statement from the chain heads this process last wrote, and the locking path inside one
// transaction (claim, lock the heads in tenant order, debit and seal per call in arrival order,
// write every row at once, enqueue auto-top-ups, write the plans' follow-ups through the settler's
// one writer). The SQL is in settlement.repo.ts.
import { randomUUID } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import type { Tx } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { sealLedgerEntry } from '../../core/ledger/seal.ts';
import type { LedgerPayload } from '../../core/ledger/payload.ts';
import type { AutoTopupJob } from './topups.ts';
import type { FollowUpWriter } from '../shared/index.ts';
import type { SettledCall } from './settlement-plan.ts';
import { claimHolds, lockHeads, runFast, writeBatch, claimParams, leaseUsedBy, previousSettlement, reservationStatus, rowParams, settledOf, type Head, type Item, type Planned } from './settlement.repo.ts';

export interface CachedHead {
  seq: bigint;
  seal: string;
  balance: bigint;
}

export type Outcome = { ok: SettledCall; planned: Planned | null } | { err: unknown };

/** A fast batch, planned: the statement's parameters, each item's plan, and the heads it leaves. */
export interface FastPlan {
  params: unknown[];
  planned: Planned[];
  /** Per tenant, the chain head the batch leaves once committed (the next batch builds on it). */
  ends: Map<string, CachedHead>;
}

/**
 * Plans one autocommit statement (FAST): debits and seals computed from `heads`, the heads this
 * process last wrote or will have written once the batches still in flight commit (pipelining,
 * settlement.ts). The statement applies only where a wallet still has exactly the head the batch
 * was planned on (sequence, balance and seal).
 */
export function planFast(s: Services, heads: Map<string, CachedHead>, batch: Item[]): FastPlan {
  const start = new Map<string, CachedHead>();
  const cur = new Map<string, CachedHead>();
  const debits = new Map<string, bigint>();
  const planned: Planned[] = [];
  for (const it of batch) {
    const t = it.input.tenantId;
    let h = cur.get(t);
    if (!h) {
      const c = heads.get(t)!;
      start.set(t, c);
      cur.set(t, (h = { ...c }));
    }
    debits.set(t, (debits.get(t) ?? 0n) + it.cost);
    h.balance -= it.cost;
    h.seq += 1n;
    const sealed = seal(s, it, h, it.cost);
    // Whether the lease row was still held is known from the statement's answer (below).
    planned.push({ item: it, entryId: sealed.entryId, seq: h.seq, debit: it.cost, balanceAfter: h.balance, prevHash: sealed.prevHash, sealHash: h.seal, createdAt: sealed.createdAt, leaseUsed: 0n, leaseHeld: false });
  }
  const claim = claimParams(batch);
  const tenants = [...cur.keys()];
  const params = [
    ...claim.params,
    tenants,
    tenants.map((t) => cur.get(t)!.balance),
    tenants.map((t) => cur.get(t)!.seq),
    tenants.map((t) => cur.get(t)!.seal),
    tenants.map((t) => start.get(t)!.seq),
    tenants.map((t) => start.get(t)!.balance),
    tenants.map((t) => debits.get(t)!),
    tenants.map((t) => start.get(t)!.seal),
    tenants.length,
    claim.calls,
    ...rowParams(planned),
  ];
  return { params, planned, ends: cur };
}

/** Runs a planned fast batch. Throws (writing nothing) when a head moved or a wallet is short: see FAST. */
export async function runFastPlan(s: Services, plan: FastPlan): Promise<Outcome[]> {
  const r = await runFast(s.db, plan.params);
  const held = new Set(r.rows[0]?.leases ?? []);
  return plan.planned.map((p) => {
    const a = p.item.input.reservation.admitted;
    if (a && held.has(a.lease.id)) {
      p.leaseHeld = true;
      p.leaseUsed = leaseUsedBy(p.item);
    }
    return { ok: settledOf(p.item, p), planned: p };
  });
}

/** Seal the item's AI_USAGE entry onto head `h` (already advanced to the entry's seq and balance). */
export function seal(s: Services, it: Item, h: CachedHead, debit: bigint): { entryId: string; createdAt: string; prevHash: string } {
  const entryId = randomUUID();
  const createdAt = it.at.toISOString();
  // Exactly the sealed columns (payload.ts), so the seal needs no copy of them.
  const payload: LedgerPayload = {
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
  };
  const prevHash = h.seal;
  h.seal = sealLedgerEntry(s.secrets.ledger, prevHash, payload);
  return { entryId, createdAt, prevHash };
}


export async function settleIn(s: Services, tx: Tx, batch: Item[], committed: Map<string, CachedHead>, followUps: FollowUpWriter): Promise<Outcome[]> {
  // 1. Claim: per-call holds are marked settled (returning what they held); leases shrink by
  //    what their calls used, min(cost, worst case) each.
  const claim = claimParams(batch);
  const claimed = new Map<string, { amount: bigint; held: boolean }>();
  const leasesHeld = new Set<string>();
  if (claim.calls > 0 || claim.leases > 0) {
    const r = await claimHolds(tx, claim.params);
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
    const prior = await reservationStatus(tx, it.input.tenantId, it.input.reservation.id);
    outcomes[i] =
      prior === 'settled'
        ? { ok: await previousSettlement(tx, it.input), planned: null }
        : { err: appError('not_found', `No reservation for call ${it.input.callId}`) };
  }

  // 2. The chain heads of the batch's tenants, locked in tenant order.
  const tenantIds = [...new Set(batch.filter((_, i) => outcomes[i] === null).map((it) => it.input.tenantId))].sort();
  if (tenantIds.length === 0) return outcomes as Outcome[];
  const heads = await lockHeads(tx, tenantIds);
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
    const { entryId, createdAt, prevHash } = seal(s, it, head, debit);
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
    await writeBatch(tx, [...w, batch[0].at, ...rowParams(planned)]);
  }
  for (const h of headOf.values()) {
    if (!h.disarm) continue;
    const job: AutoTopupJob = { tenantId: h.tenant_id, topupId: randomUUID() };
    await s.jobs.chargeAutoTopup(tx, job);
  }
  for (const h of headOf.values()) committed.set(h.tenant_id, { seq: h.ledger_seq, seal: h.last_seal_hash, balance: h.balance_micros });
  // 5. The plans' follow-ups (other domains' work, as data) through the one writer, in the same
  //    transaction (CONVENTIONS 8); then tests' `extra`.
  for (let i = 0; i < batch.length; i++) {
    const it = batch[i];
    const o = outcomes[i];
    if (!o || !('planned' in o) || o.planned === null) continue;
    if (it.input.followUps?.length) o.ok.followedUp = await followUps(s, tx, it.input.followUps, it.at);
    if (it.extra) await it.extra(tx);
  }
  return outcomes as Outcome[];
}

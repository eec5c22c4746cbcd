// Admission: the proxy's reservation without a database round trip per call (D8, docs/decisions.md
// "Admission and group commit").
//
// The replica takes a *lease* on a tenant's wallet for one project: one `reservations` row of kind
// 'lease' whose amount is held on the wallet exactly like a call's worst case (balance − reserved
// shrinks by it), taken by sb_lease under the wallet lock with the project's monthly budget
// checked. Calls are then admitted in memory against the lease's free part (held − in flight).
// Settlement consumes what a call used from the lease row in the same transaction that debits the
// wallet (settlement.ts), so the lease's free part only shrinks by real costs, not worst cases.
//
// When a call does not fit, the lease is *trimmed* to what its in-flight calls still need (the
// free part goes back to the wallet) in the same round trip that takes the next lease, falling
// back to exactly the call's worst case: on one replica a call is refused (402) exactly when
// balance − other holds − this project's in-flight worst cases cannot cover it, as before. Before
// refusing, the tenant's other idle leases on this replica are released and the lease retried.
//
// A lease admits calls for at most LEASE_MAX_AGE_MS (well inside the sweeper's timeout) and is
// released after LEASE_IDLE_MS without calls, when the call context changes (a new budget applies
// at once), and at shutdown. A retired lease is released when its last call settles or fails.
// If the replica dies, its leases are ordinary holds to the sweeper.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Services } from '../shared/index.ts';
import { holdRefused, releaseIn } from './wallet.ts';
import { takeLease, type LeaseRow } from './admission.repo.ts';

/** A lease covers about this many worst-case calls (capped by sb_lease at half the available balance). */
export const LEASE_CALLS = 64n;
/** A lease admits no new call after this long (kept far below RESERVATION_TIMEOUT_MS). */
export const LEASE_MAX_AGE_MS = 30_000;
/** An active lease with no call in flight for this long is released. */
export const LEASE_IDLE_MS = 2_000;

export interface Lease {
  id: string;
  tenantId: string;
  projectId: string;
  /** The amount on the lease row, as this replica knows it (settlements subtract what calls used). */
  held: bigint;
  /** Worst cases of admitted calls not yet settled or failed. */
  inflight: bigint;
  calls: number;
  /** Admits nothing more; released once `calls` reaches 0. */
  retired: boolean;
  /** The row is no longer held (swept): settlements release nothing from it. */
  dead: boolean;
  createdAt: number;
  lastUsedAt: number;
}

export interface Admitted {
  lease: Lease;
  amountMicros: bigint;
  /** Settled or released: a second end is ignored, so a worst case is never given back twice. */
  ended: boolean;
}

const keyOf = (tenantId: string, projectId: string) => `${tenantId}:${projectId}`;

export class Admission {
  private readonly active = new Map<string, Lease>();
  /** Retired leases with calls still in flight. */
  private readonly retiring = new Set<Lease>();
  private readonly pending = new Map<string, Promise<void>>();
  /** Lease releases in flight, per tenant: a new lease waits for them, so it sees the freed amount. */
  private readonly closing = new Map<Promise<void>, string>();
  private timer: NodeJS.Timeout | null = null;
  private readonly maxAgeMs: number;

  constructor(private readonly s: Services) {
    this.maxAgeMs = Math.min(LEASE_MAX_AGE_MS, Math.floor(s.config.RESERVATION_TIMEOUT_MS / 4));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.releaseIdle(), 1_000);
    this.timer.unref();
  }

  /**
   * Admit a call with worst case `amount` for the project: synchronous when the active lease covers
   * it, else one sb_lease round trip. 402 insufficient_balance / budget_exceeded, 404 project.
   */
  async admit(tenantId: string, projectId: string, amount: bigint): Promise<Admitted> {
    if (amount < 0n) throw new RangeError('a reservation cannot be negative');
    const key = keyOf(tenantId, projectId);
    let freedOthers = false;
    for (;;) {
      const now = performance.now();
      const l = this.active.get(key);
      if (l && !l.dead && !l.retired && now - l.createdAt < this.maxAgeMs && l.held - l.inflight >= amount) {
        l.inflight += amount;
        l.calls += 1;
        l.lastUsedAt = now;
        return { lease: l, amountMicros: amount, ended: false };
      }
      const wait = this.pending.get(key);
      if (wait) {
        await wait.catch(() => {});
        continue;
      }
      let refusal: string | null = null;
      const p = this.acquire(key, tenantId, projectId, amount).then((r) => {
        refusal = r;
      });
      this.pending.set(key, p);
      try {
        await p;
      } finally {
        this.pending.delete(key);
      }
      if (refusal === null) continue;
      if (refusal === 'insufficient_balance' && !freedOthers) {
        // Free parts of this tenant's other leases on this replica count as available (one replica
        // refuses exactly when the wallet cannot cover the call); release them and try once more.
        freedOthers = true;
        if (await this.releaseTenant(tenantId, key)) continue;
      }
      throw holdRefused('sb_lease', refusal);
    }
  }

  /** A call admitted against `lease` ended without settling (failed upstream): nothing is debited. */
  released(a: Admitted): void {
    if (a.ended) return;
    a.ended = true;
    this.end(a.lease, a.amountMicros, 0n);
  }

  /**
   * A call's settlement committed: it used `consumed` of the lease row (0 when the row was no
   * longer held, `rowHeld` false).
   */
  settled(a: Admitted, consumed: bigint, rowHeld: boolean): void {
    if (a.ended) return;
    a.ended = true;
    if (!rowHeld) a.lease.dead = true;
    this.end(a.lease, a.amountMicros, consumed);
  }

  /** Retire and release every lease of a tenant (its call context changed: budget, floor, …). */
  retireTenant(tenantId: string): void {
    for (const [key, l] of this.active) {
      if (l.tenantId !== tenantId) continue;
      this.active.delete(key);
      this.retire(l);
    }
  }

  /** Leases this replica holds, for tests and diagnostics. */
  leases(): Lease[] {
    return [...this.active.values(), ...this.retiring];
  }

  /** Stop renewing; release every lease with no call in flight (the rest are swept if never settled). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const [key, l] of this.active) {
      this.active.delete(key);
      this.retire(l);
    }
    await Promise.allSettled([...this.closing.keys()]);
  }

  // -------------------------------------------------------------------------------------------

  /** Trim the old lease and take a new one in one round trip; returns the refusal, or null. */
  private async acquire(key: string, tenantId: string, projectId: string, need: bigint): Promise<string | null> {
    const old = this.active.get(key) ?? null;
    let trim = 0n;
    if (old) {
      this.active.delete(key);
      old.retired = true;
      if (!old.dead) {
        trim = old.held - old.inflight;
        old.held -= trim;
      }
      if (old.calls > 0) this.retiring.add(old);
    }
    for (const [p, t] of this.closing) if (t === tenantId) await p;
    const id = randomUUID();
    const at = this.s.clock.now();
    const want = need * LEASE_CALLS > need ? need * LEASE_CALLS : need;
    let row: LeaseRow | undefined;
    try {
      row = await takeLease(this.s.db, { oldId: old && !old.dead ? old.id : null, trim, id, tenantId, projectId, want, need, at });
    } finally {
      // Whatever happened to the new lease, the old one admits nothing more.
      if (old) {
        if (row?.old_trimmed === false) old.dead = true;
        if (old.calls === 0) this.closeLease(old);
      }
    }
    if (!row) throw new Error('sb_lease returned no row');
    if (row.result !== 'ok') return row.result;
    const now = performance.now();
    this.active.set(key, { id, tenantId, projectId, held: row.granted, inflight: 0n, calls: 0, retired: false, dead: false, createdAt: now, lastUsedAt: now });
    return null;
  }

  /** Release this tenant's leases (other than `exceptKey`) that have nothing in flight; true if any. */
  private async releaseTenant(tenantId: string, exceptKey: string): Promise<boolean> {
    const done: Promise<void>[] = [];
    for (const [key, l] of this.active) {
      if (l.tenantId !== tenantId || key === exceptKey || l.calls > 0) continue;
      this.active.delete(key);
      l.retired = true;
      done.push(this.closeLease(l));
    }
    await Promise.all(done);
    return done.length > 0;
  }

  private end(l: Lease, amount: bigint, consumed: bigint): void {
    l.inflight -= amount;
    l.held -= consumed;
    l.calls -= 1;
    l.lastUsedAt = performance.now();
    if (l.retired && l.calls === 0) {
      this.retiring.delete(l);
      this.closeLease(l);
    }
  }

  private retire(l: Lease): void {
    l.retired = true;
    if (l.calls === 0) this.closeLease(l);
    else this.retiring.add(l);
  }

  private releaseIdle(): void {
    const now = performance.now();
    for (const [key, l] of this.active) {
      if (l.calls > 0) continue;
      if (l.dead || now - l.lastUsedAt >= LEASE_IDLE_MS || now - l.createdAt >= this.maxAgeMs) {
        this.active.delete(key);
        this.retire(l);
      }
    }
  }

  /** Release what is left on the lease row (nothing when it was swept): one statement. */
  private closeLease(l: Lease): Promise<void> {
    if (l.dead) return Promise.resolve();
    l.dead = true;
    const p = releaseIn(this.s.db, l.tenantId, l.id, this.s.clock.now())
      .then(
        () => {},
        (e: unknown) => this.s.log.warn({ err: e, leaseId: l.id }, 'releasing an admission lease failed; the sweeper will release it'),
      );
    this.closing.set(p, l.tenantId);
    void p.finally(() => this.closing.delete(p));
    return p;
  }
}

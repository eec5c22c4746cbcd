// The reservation sweeper (D8): a call that reserved and never came back (the process died, the
// connection dropped mid-settlement) leaves a hold on the wallet. Holds older than the timeout are
// released and marked swept, with the time and the reason, for the analytics Audit tab. A
// settlement that arrives after its hold was swept still debits (wallet.ts), so the sweeper can
// never cause a free call, only end a hold early.
import { sweepOldReservations, tryTakeSweepLock } from './sweeper.repo.ts';
import type { Services } from '../shared/index.ts';

export const SWEEP_QUEUE = 'reservation-sweep';
/** Reservations handled per transaction, so one sweep never holds many wallet locks for long. */
const BATCH = 500;

/**
 * How often the worker sweeps: a quarter of the timeout, between 1 s and 1 min, so a dead
 * replica's hold is released at most 1.25 × RESERVATION_TIMEOUT_MS (+ 1 s) after it was taken.
 */
export function sweepIntervalMs(timeoutMs: number): number {
  return Math.min(60_000, Math.max(1_000, Math.floor(timeoutMs / 4)));
}

export interface SweepResult {
  swept: number;
  releasedMicros: bigint;
  tenants: number;
  /** False when another sweeper was already running (only one runs at a time). */
  ran: boolean;
}

export async function sweepReservations(s: Services, opts: { olderThanMs?: number; reason?: string } = {}): Promise<SweepResult> {
  const olderThanMs = opts.olderThanMs ?? s.config.RESERVATION_TIMEOUT_MS;
  const at = s.clock.now();
  const cutoff = new Date(at.getTime() - olderThanMs);
  const reason = opts.reason ?? `no settlement within ${Math.round(olderThanMs / 1000)}s`;
  const total: SweepResult = { swept: 0, releasedMicros: 0n, tenants: 0, ran: true };
  const tenants = new Set<string>();
  for (;;) {
    const batch = await s.db.transaction().execute(async (tx) => {
      // One sweeper at a time: two would lock several wallets each, in no common order.
      if (!(await tryTakeSweepLock(tx))) return null;
      // Reservation rows first (skipping any a settlement is holding), then their wallets: the
      // same lock order as settlement and release.
      return sweepOldReservations(tx, { cutoff, at, reason, limit: BATCH });
    });
    if (batch === null) return { ...total, ran: total.swept > 0 };
    let n = 0;
    for (const row of batch) {
      n += Number(row.n);
      total.releasedMicros += row.amount;
      tenants.add(row.tenant_id);
    }
    total.swept += n;
    if (n < BATCH) break;
  }
  total.tenants = tenants.size;
  if (total.swept > 0) {
    s.log.warn({ swept: total.swept, releasedMicros: total.releasedMicros, tenants: total.tenants, reason }, 'released orphaned reservations');
  }
  return total;
}

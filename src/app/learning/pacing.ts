// The plane yields to live traffic (issue 18 item 7, docs/learning-plane.md "Yielding to live
// traffic"). Its work is cut into slices (one outbox batch, the retention pass, detection, one
// proposal's validation), and each slice waits for its turn:
//   quiet   no proxy call in flight and none for LEARNING_QUIET_MS: go at once, full-size slices;
//   busy    calls are being served and the outbox holds LEARNING_BUSY_BACKLOG unconsumed rows or
//           more: wait for a quiet moment, but never longer than the trickle allows: under
//           traffic the plane works at most LEARNING_BUSY_SHARE of the wall time (a slice that
//           took d ms is followed by d × (1/share − 1) ms of nothing), in small slices, so it
//           keeps making slow progress under constant load. Under that backlog the plane only
//           waits for quiet: the outbox is a buffer, and traffic gets all of the machine while
//           the buffer has room;
//   behind  the outbox holds LEARNING_BACKLOG_CAP unconsumed rows or more: no waiting, so the
//           backlog (whole requests and responses) cannot grow without bound. This is the one
//           state in which the plane costs live traffic what its work costs.
// One pacer per service container, so the trickle's spacing holds across runs. A process that
// serves calls reads its own count of calls in flight; one that does not (`switchboard worker`)
// reads the call-log rows every replica writes, through PostgreSQL's statistics (shared/traffic.ts).
import { liveTraffic, servesCalls, SharedTraffic, type Services, type TrafficGauge } from '../shared/index.ts';
import { callLogsWritten } from './traffic.repo.ts';

export type SliceMode = 'quiet' | 'busy' | 'behind';

export interface PacingOptions {
  /** Idle time of the serving side after which it counts as quiet. */
  quietMs: number;
  /** Share of wall time the plane may work while calls are being served (0 = only when quiet). */
  busyShare: number;
}

export interface PacerClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** How often a waiting slice looks at the traffic again. */
export const PACE_POLL_MS = 50;

const realClock: PacerClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export class Pacer {
  /** Slices granted, by mode, since this pacer was made. */
  readonly slices: Record<SliceMode, number> = { quiet: 0, busy: 0, behind: 0 };
  private nextBusyAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly traffic: TrafficGauge,
    private readonly opts: PacingOptions,
    private readonly clock: PacerClock = realClock,
  ) {}

  private async mode(behind: boolean, trickle: boolean): Promise<SliceMode | null> {
    if (behind) return 'behind';
    await this.traffic.refresh?.();
    if (this.traffic.idleMs() >= this.opts.quietMs) return 'quiet';
    if (trickle && this.opts.busyShare > 0 && this.clock.now() >= this.nextBusyAt) return 'busy';
    return null;
  }

  /**
   * Run `fn` as one slice once it is the plane's turn; null (fn not run) when no turn came before
   * `deadline` (a `now()` value). `fn` gets the mode, to size its work. `trickle` false: no busy
   * turn (the backlog is under LEARNING_BUSY_BACKLOG), only quiet ones (or behind).
   */
  async slice<T>(behind: boolean, deadline: number, fn: (mode: SliceMode) => Promise<T>, trickle = true): Promise<{ mode: SliceMode; value: T } | null> {
    let mode = await this.mode(behind, trickle);
    while (!mode) {
      const t = this.clock.now();
      if (t >= deadline) return null;
      await this.clock.sleep(Math.max(1, Math.min(PACE_POLL_MS, deadline - t, trickle ? this.nextBusyAt - t : PACE_POLL_MS)));
      mode = await this.mode(behind, trickle);
    }
    this.slices[mode] += 1;
    const start = this.clock.now();
    try {
      return { mode, value: await fn(mode) };
    } finally {
      const end = this.clock.now();
      // Only a slice run under traffic spends the trickle; quiet and behind slices leave it alone.
      if (mode === 'busy') this.nextBusyAt = end + (end - start) * (1 / this.opts.busyShare - 1);
    }
  }
}

const pacers = new WeakMap<Services, Pacer>();

/** The plane's pacer for this service container, reading its live traffic (or, serving none, the replicas'). */
export function planePacer(s: Services): Pacer {
  let p = pacers.get(s);
  if (!p) {
    const traffic = servesCalls(s) ? liveTraffic(s) : new SharedTraffic(() => callLogsWritten(s.db));
    p = new Pacer(traffic, { quietMs: s.config.LEARNING_QUIET_MS, busyShare: s.config.LEARNING_BUSY_SHARE });
    pacers.set(s, p);
  }
  return p;
}

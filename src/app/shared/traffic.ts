// The serving side's live traffic, as background work sees it, two ways:
// - LiveTraffic: how many proxy calls are in flight in this process and how long ago the last one
//   started or ended. The proxy's admission (http/proxy load.ts) counts every call in and out. One
//   gauge per service container, like the call load itself.
// - SharedTraffic: for a process that serves no calls (`switchboard worker`, the cluster topology of
//   D17), a counter every serving replica already moves, read from where they all write: the
//   database's own count of call-log rows inserted (every call that ends writes one). Nothing is
//   added to the request path; the reader pays one cheap statement per reading.
// The learning plane reads one of them to yield (app/learning pacing.ts).
import type { Services } from './services.ts';

/** What background work reads to yield to calls. */
export interface TrafficGauge {
  /** Milliseconds the serving side has been idle: 0 while calls are being served. */
  idleMs(): number;
  /** Brings the reading up to date (throttled by the gauge itself); looked at before each idleMs. */
  refresh?(): Promise<void>;
}

export class LiveTraffic implements TrafficGauge {
  inflight = 0;
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  enter(): void {
    this.inflight += 1;
    this.last = this.now();
  }

  leave(): void {
    this.inflight -= 1;
    this.last = this.now();
  }

  /** Milliseconds the serving side has been idle: 0 while a call is in flight. */
  idleMs(): number {
    return this.inflight > 0 ? 0 : this.now() - this.last;
  }
}

/**
 * How late PostgreSQL's table counters may be while calls flow: each backend publishes its counts
 * when it goes idle, at most once a second (PGSTAT_MIN_INTERVAL), so under traffic the counter
 * moves about every second. A counter that has not moved for this long plus the quiet time means
 * no calls. (A backend that goes idle less than a second after its last publication keeps its counts
 * up to 10 s: traffic that has just stopped can still look like traffic for that long, which only
 * makes the reader wait longer.)
 */
export const STATS_LAG_MS = 2_000;
/** Readings of the shared counter are at least this far apart. */
export const SHARED_SAMPLE_MS = 250;

/**
 * Traffic seen through a counter the serving replicas move (`read`: its current value). Idle is
 * the time since the counter last moved, less STATS_LAG_MS. The first reading counts as a move:
 * a worker that has just started does not assume quiet before it has seen the counter stand still.
 */
export class SharedTraffic implements TrafficGauge {
  private count: bigint | null = null;
  private movedAt = Number.NEGATIVE_INFINITY;
  private readAt = Number.NEGATIVE_INFINITY;
  /** Readings taken (for tests and logs). */
  reads = 0;

  constructor(
    private readonly read: () => Promise<bigint>,
    private readonly now: () => number = () => performance.now(),
    private readonly sampleMs = SHARED_SAMPLE_MS,
  ) {}

  async refresh(): Promise<void> {
    if (this.now() - this.readAt < this.sampleMs) return;
    this.readAt = this.now();
    const n = await this.read();
    this.reads += 1;
    if (n !== this.count) this.movedAt = this.now();
    this.count = n;
  }

  idleMs(): number {
    return Math.max(0, this.now() - this.movedAt - STATS_LAG_MS);
  }
}

const serving = new WeakSet<Services>();

/** Says that this process serves proxy calls (the runtime, when it listens for HTTP). */
export function markServing(s: Services): void {
  serving.add(s);
}

/** Whether this process serves proxy calls, so its LiveTraffic sees them. */
export function servesCalls(s: Services): boolean {
  return serving.has(s);
}

const gauges = new WeakMap<Services, LiveTraffic>();

/** The live traffic of the process these services belong to. */
export function liveTraffic(s: Services): LiveTraffic {
  let g = gauges.get(s);
  if (!g) gauges.set(s, (g = new LiveTraffic()));
  return g;
}

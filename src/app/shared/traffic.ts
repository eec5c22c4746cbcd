// The serving side's live traffic, as background work sees it: how many proxy calls are in flight
// in this process and how long ago the last one started or ended. The proxy's admission (http/proxy
// load.ts) counts every call in and out; the learning plane reads it to yield (app/learning
// pacing.ts). One gauge per service container, like the call load itself.
import type { Services } from './services.ts';

export class LiveTraffic {
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

const gauges = new WeakMap<Services, LiveTraffic>();

/** The live traffic of the process these services belong to. */
export function liveTraffic(s: Services): LiveTraffic {
  let g = gauges.get(s);
  if (!g) gauges.set(s, (g = new LiveTraffic()));
  return g;
}

// A replica's proxy load (D17): the calls in flight here, shedding past MAX_INFLIGHT_CALLS, and
// the drain that SIGTERM starts. Shedding answers at once, before the key is even looked up, with
// the vendor's native 503 and Retry-After: a bounded number of calls is admitted, so their latency
// stays bounded, instead of an unbounded queue in which every call gets slow (docs/cluster.md).
// Draining refuses new calls the same way (plus `Connection: close`); HAProxy retries such a 503
// on another replica (`retry-on 503`), so a client behind it never sees the refusal.
import type { ServerResponse } from 'node:http';
import { liveTraffic, type LiveTraffic, type Services } from '../../app/shared/index.ts';
import { appError } from '../../core/errors.ts';

/** Seconds a shed or refused client is told to wait. */
export const SHED_RETRY_AFTER_S = 1;

export class CallLoad {
  inflight = 0;
  draining = false;
  /** Calls shed since start (for the benchmark and logs). */
  shed = 0;
  private waiters: Array<() => void> = [];

  /** `traffic`: the gauge background work reads to yield to calls (the learning plane). */
  constructor(
    readonly max: number,
    private readonly traffic?: LiveTraffic,
  ) {}

  /** Count this call until its response closes, or refuse it (draining, over the limit). */
  enter(res: ServerResponse): void {
    if (this.draining) {
      throw appError('unavailable', 'This server is shutting down: retry the request (another replica will take it)', {
        headers: { 'retry-after': String(SHED_RETRY_AFTER_S), connection: 'close' },
      });
    }
    if (this.max > 0 && this.inflight >= this.max) {
      this.shed += 1;
      throw appError('overloaded', `This server has ${this.max} calls in flight: retry after ${SHED_RETRY_AFTER_S} second(s)`, {
        headers: { 'retry-after': String(SHED_RETRY_AFTER_S) },
      });
    }
    this.inflight += 1;
    this.traffic?.enter();
    res.once('close', this.leave);
  }

  private readonly leave = () => {
    this.inflight -= 1;
    this.traffic?.leave();
    if (this.inflight === 0) for (const w of this.waiters.splice(0)) w();
  };

  /** Refuse new calls from now on; resolves true once none is in flight, false after `timeoutMs`. */
  drain(timeoutMs: number): Promise<boolean> {
    this.draining = true;
    if (this.inflight === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      t.unref();
      this.waiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }
}

const loads = new WeakMap<Services, CallLoad>();

/** The load of the replica these services belong to. */
export function callLoad(s: Services): CallLoad {
  let l = loads.get(s);
  if (!l) {
    l = new CallLoad(s.config.MAX_INFLIGHT_CALLS, liveTraffic(s));
    loads.set(s, l);
  }
  return l;
}

// In-process token buckets: the default, exact for a single replica.
import type { Clock } from '../clock.ts';
import { decide, type LimitDecision, type RateLimiter } from './limiter.ts';

interface Bucket {
  tokens: number;
  at: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private buckets = new Map<string, Bucket>();
  private sweepAt = 0;

  constructor(private clock: Clock) {}

  async take(key: string, limit: number, windowMs: number): Promise<LimitDecision> {
    return this.takeSync(key, limit, windowMs);
  }

  /** Synchronous form for the proxy's hot path (no promise allocation needed by callers). */
  takeSync(key: string, limit: number, windowMs: number): LimitDecision {
    const now = this.clock.now().getTime();
    const rate = limit / windowMs;
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: limit, at: now };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(limit, b.tokens + Math.max(0, now - b.at) * rate);
      b.at = now;
    }
    const d = decide(b.tokens, limit, windowMs);
    if (d.allowed) b.tokens -= 1;
    if (now > this.sweepAt) this.sweep(now, windowMs);
    return d;
  }

  /** Full buckets carry no information: drop them so memory stays bounded by active keys. */
  private sweep(now: number, windowMs: number): void {
    this.sweepAt = now + windowMs;
    for (const [k, b] of this.buckets) if (now - b.at > windowMs) this.buckets.delete(k);
  }
}

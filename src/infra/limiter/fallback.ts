// Rate limits when Redis is away (D17, docs/cluster.md "Redis stopped"): we fail OPEN to
// per-replica buckets. The shared Redis buckets are used while Redis answers; when its connection
// is not ready, or a take fails, this replica's in-process buckets (the same token-bucket rule,
// MemoryRateLimiter) decide at once instead, so calls keep flowing and are still limited (at most
// N × the limit for N replicas) while Redis is down, and the shared buckets take over again as soon
// as it is back. Money is never at stake here: wallets, reservations and the ledger are in
// PostgreSQL. An outage is logged once when it starts and once when it ends.
import type { Redis } from 'ioredis';
import type { LimitDecision, RateLimiter } from './limiter.ts';
import type { MemoryRateLimiter } from './memory.ts';

export class FailOpenRateLimiter implements RateLimiter {
  private degraded = false;

  constructor(
    private readonly redis: Pick<Redis, 'status'>,
    private readonly shared: RateLimiter,
    private readonly local: MemoryRateLimiter,
    private readonly onChange: (degraded: boolean, err?: unknown) => void = () => {},
  ) {}

  /** True while decisions are per replica. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  async take(key: string, limit: number, windowMs: number): Promise<LimitDecision> {
    if (this.redis.status !== 'ready') return this.fallback(key, limit, windowMs);
    try {
      const d = await this.shared.take(key, limit, windowMs);
      if (this.degraded) {
        this.degraded = false;
        this.onChange(false);
      }
      return d;
    } catch (e) {
      return this.fallback(key, limit, windowMs, e);
    }
  }

  private fallback(key: string, limit: number, windowMs: number, err?: unknown): LimitDecision {
    if (!this.degraded) {
      this.degraded = true;
      this.onChange(true, err);
    }
    return this.local.takeSync(key, limit, windowMs);
  }
}

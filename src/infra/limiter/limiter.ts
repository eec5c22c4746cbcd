// Rate limiting as token buckets (spec §8): capacity = the per-minute limit, refilled
// continuously. One interface, an in-process implementation and a Redis one (shared by
// replicas); both pass test/contract/limiter.contract.ts.
export interface LimitDecision {
  allowed: boolean;
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** When not allowed: milliseconds until one token is back. */
  retryAfterMs: number;
  /** Milliseconds until the bucket is full again (for the RateLimit header's reset). */
  resetMs: number;
}

export interface RateLimiter {
  /** Take one token from bucket `key` whose capacity is `limit` per `windowMs`. */
  take(key: string, limit: number, windowMs: number): Promise<LimitDecision>;
  close?(): Promise<void>;
}

export function decide(tokens: number, limit: number, windowMs: number): LimitDecision {
  const rate = limit / windowMs;
  if (tokens >= 1) {
    const left = tokens - 1;
    return { allowed: true, limit, remaining: Math.floor(left), retryAfterMs: 0, resetMs: Math.ceil((limit - left) / rate) };
  }
  return {
    allowed: false,
    limit,
    remaining: 0,
    retryAfterMs: Math.ceil((1 - tokens) / rate),
    resetMs: Math.ceil((limit - tokens) / rate),
  };
}

// Rate-limit response headers: the spec's X-RateLimit-* pair and Retry-After (§7), plus the IETF
// draft's RateLimit-Policy / RateLimit (D6), from one limiter decision.
import type { LimitDecision } from '../../infra/limiter/limiter.ts';

export function rateLimitHeaders(d: LimitDecision, windowS: number): Record<string, string> {
  const reset = Math.ceil(d.resetMs / 1000);
  const h: Record<string, string> = {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'ratelimit-policy': `"default";q=${d.limit};w=${windowS}`,
    ratelimit: `"default";r=${d.remaining};t=${reset}`,
  };
  if (!d.allowed) h['retry-after'] = String(Math.max(1, Math.ceil(d.retryAfterMs / 1000)));
  return h;
}

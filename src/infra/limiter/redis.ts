// Token buckets in Redis, shared by every replica: one atomic Lua script per take, using the
// Redis server's clock so replicas with skewed clocks still agree.
import type { Redis } from 'ioredis';
import { decide, type LimitDecision, type RateLimiter } from './limiter.ts';

const SCRIPT = `
local key = KEYS[1]
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local rate = limit / window
local b = redis.call('HMGET', key, 'tokens', 'at')
local tokens = tonumber(b[1])
local at = tonumber(b[2])
if tokens == nil then
  tokens = limit
else
  local elapsed = now - at
  if elapsed < 0 then elapsed = 0 end
  tokens = math.min(limit, tokens + elapsed * rate)
end
local allowed = 0
local before = tokens
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', key, 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', key, window * 2)
return {allowed, tostring(before)}
`;

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private redis: Redis,
    private prefix = 'sb:rl:',
  ) {
    this.redis.defineCommand('sbTakeToken', { numberOfKeys: 1, lua: SCRIPT });
  }

  async take(key: string, limit: number, windowMs: number): Promise<LimitDecision> {
    const [, before] = (await (this.redis as unknown as {
      sbTakeToken(k: string, l: number, w: number): Promise<[number, string]>;
    }).sbTakeToken(this.prefix + key, limit, windowMs)) as [number, string];
    return decide(Number(before), limit, windowMs);
  }
}

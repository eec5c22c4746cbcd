// One contract for every RateLimiter (CONVENTIONS 3): the in-process buckets and the Redis ones
// must behave alike. The Redis half runs when REDIS_URL is set (CI) and is reported as skipped
// otherwise; each run uses its own key prefix so parallel test files never share a bucket.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ManualClock } from '../clock.ts';
import { MemoryRateLimiter } from './memory.ts';
import { RedisRateLimiter } from './redis.ts';
import type { RateLimiter } from './limiter.ts';

function contract(name: string, make: () => { limiter: RateLimiter; advance(ms: number): Promise<void> }, skip?: string | false) {
  describe(`${name} rate limiter contract`, { skip }, () => {
    test('a bucket allows exactly `limit` requests, then refuses with Retry-After', async () => {
      const { limiter } = make();
      const key = `k-${randomBytes(4).toString('hex')}`;
      const seen: boolean[] = [];
      for (let i = 0; i < 6; i++) seen.push((await limiter.take(key, 5, 60_000)).allowed);
      assert.deepEqual(seen, [true, true, true, true, true, false]);
      const d = await limiter.take(key, 5, 60_000);
      assert.equal(d.allowed, false);
      assert.equal(d.remaining, 0);
      assert.equal(d.limit, 5);
      assert.ok(d.retryAfterMs > 0 && d.retryAfterMs <= 12_000, `retry after ${d.retryAfterMs}`);
    });

    test('remaining counts down and buckets are independent per key', async () => {
      const { limiter } = make();
      const a = `a-${randomBytes(4).toString('hex')}`;
      const b = `b-${randomBytes(4).toString('hex')}`;
      assert.equal((await limiter.take(a, 3, 60_000)).remaining, 2);
      assert.equal((await limiter.take(a, 3, 60_000)).remaining, 1);
      assert.equal((await limiter.take(b, 3, 60_000)).remaining, 2);
    });

    test('tokens come back at the refill rate', async () => {
      const { limiter, advance } = make();
      const key = `r-${randomBytes(4).toString('hex')}`;
      for (let i = 0; i < 2; i++) await limiter.take(key, 2, 200);
      assert.equal((await limiter.take(key, 2, 200)).allowed, false);
      await advance(120); // 2 per 200 ms: one token is back after 100 ms
      assert.equal((await limiter.take(key, 2, 200)).allowed, true);
    });
  });
}

contract('memory', () => {
  const clock = new ManualClock(0);
  return { limiter: new MemoryRateLimiter(clock), advance: async (ms) => clock.advance(ms) };
});

const redisUrl = process.env.REDIS_URL;
const clients: Redis[] = [];
after(async () => {
  for (const c of clients) await c.quit();
});
contract(
  'redis',
  () => {
    const r = new Redis(redisUrl!);
    clients.push(r);
    // Redis uses its own clock (TIME), shared by replicas: the test waits in real time.
    return { limiter: new RedisRateLimiter(r, `sbtest:${randomBytes(4).toString('hex')}:`), advance: (ms) => new Promise((res) => setTimeout(res, ms)) };
  },
  !redisUrl && 'REDIS_URL is not set',
);

// Both event buses pass the one contract (CONVENTIONS 3). The Redis one runs when REDIS_URL is
// set, each test on its own key prefix so parallel test files never share a stream.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { busContract, collector, frame } from './contract.ts';
import { MemoryEventBus } from './memory.ts';
import { RedisEventBus } from './redis.ts';

busContract('memory', {
  shared: false,
  async create(o) {
    return { bus: new MemoryEventBus(o), cleanup: async () => {} };
  },
});

const REDIS_URL = process.env.REDIS_URL;

busContract(
  'redis',
  {
    shared: true,
    async create(o) {
      const prefix = `sbt:${randomBytes(6).toString('hex')}:`;
      const redis = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
      const peers: Redis[] = [];
      return {
        bus: new RedisEventBus(redis, { ...o, prefix }),
        async peer() {
          const r = new Redis(REDIS_URL!, { maxRetriesPerRequest: 2 });
          peers.push(r);
          return new RedisEventBus(r, { ...o, prefix });
        },
        async cleanup() {
          const keys = await redis.keys(`${prefix}*`);
          if (keys.length) await redis.del(...keys);
          await Promise.all([redis, ...peers].map((r) => r.quit()));
        },
      };
    },
  },
  { skip: !REDIS_URL && 'REDIS_URL is not set' },
);

test('memory bus: a project at its frame cap keeps exactly its newest frames, across the trims', async () => {
  const bus = new MemoryEventBus({ maxPerProject: 100 });
  try {
    const p = randomBytes(8).toString('hex');
    const first = await bus.publish(frame(p, 0));
    // 2,999 more: the window moves past 2,900 frames, so the arrays are cut more than once.
    for (let i = 1; i < 3_000; i++) await bus.publish(frame(p, i));
    const c = collector();
    const un = bus.subscribe(p, first, c.on);
    await un.ready;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(
      c.got.map((m) => (m.frame.payload as { n: number }).n),
      Array.from({ length: 100 }, (_, i) => 2_900 + i),
    );
    un();
  } finally {
    await bus.close();
  }
});

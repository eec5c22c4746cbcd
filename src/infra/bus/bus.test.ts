// Both event buses pass the one contract (CONVENTIONS 3). The Redis one runs when REDIS_URL is
// set, each test on its own key prefix so parallel test files never share a stream.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { busContract } from './contract.ts';
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

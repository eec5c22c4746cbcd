// The contract every EventBus implementation passes (CONVENTIONS 3): ordering, exactly-once
// delivery across the replay/live boundary, resume from an id, retention, isolation, presence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { compareIds, parseEventId, type BusMessage, type EventBus, type EventFrame } from './bus.ts';

export interface BusFactory {
  /** A fresh bus on its own namespace; `peer()` gives another instance on the same backend (shared implementations only). */
  create(opts?: { retentionMs?: number }): Promise<{ bus: EventBus; peer?: () => Promise<EventBus>; cleanup(): Promise<void> }>;
  /** Instances can share one backend (replicas): the cross-instance test runs. */
  shared: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const frame = (projectId: string, n: number, type = 'test.event'): EventFrame => ({
  type,
  projectId,
  tenantId: '00000000-0000-4000-8000-000000000001',
  actorUserId: null,
  at: new Date().toISOString(),
  payload: { n },
});

/** Collects messages; `until(n)` waits for n of them (or fails after a timeout). */
export function collector() {
  const got: BusMessage[] = [];
  let waiter: { n: number; resolve: () => void } | null = null;
  const on = (m: BusMessage) => {
    got.push(m);
    if (waiter && got.length >= waiter.n) {
      waiter.resolve();
      waiter = null;
    }
  };
  const until = (n: number, ms = 5_000) =>
    new Promise<BusMessage[]>((resolve, reject) => {
      if (got.length >= n) return resolve(got);
      const t = setTimeout(() => reject(new Error(`timed out with ${got.length}/${n} messages`)), ms);
      waiter = {
        n,
        resolve: () => {
          clearTimeout(t);
          resolve(got);
        },
      };
    });
  return { got, on, until };
}

const ns = (ms: BusMessage[]) => ms.map((m) => (m.frame.payload as { n: number }).n);

export function busContract(name: string, factory: BusFactory, opts: { skip?: string | false } = {}) {
  describe(`event bus contract: ${name}`, { skip: opts.skip }, () => {
    const withBus = async (fn: (b: Awaited<ReturnType<BusFactory['create']>>) => Promise<void>, o?: { retentionMs?: number }) => {
      const b = await factory.create(o);
      try {
        await fn(b);
      } finally {
        await b.bus.close();
        await b.cleanup();
      }
    };

    test('live subscribers get every frame in order, with increasing ids, and nothing from before', () =>
      withBus(async ({ bus }) => {
        const p = randomUUID();
        await bus.publish(frame(p, 0));
        const c = collector();
        const un = bus.subscribe(p, null, c.on);
        await un.ready;
        const ids: string[] = [];
        for (let i = 1; i <= 20; i++) ids.push(await bus.publish(frame(p, i)));
        const got = await c.until(20);
        assert.deepEqual(ns(got), Array.from({ length: 20 }, (_, i) => i + 1));
        assert.deepEqual(got.map((m) => m.id), ids);
        for (let i = 1; i < got.length; i++) assert.ok(compareIds(parseEventId(got[i].id)!, parseEventId(got[i - 1].id)!) > 0);
        const { at: _at, ...rest } = got[0].frame;
        const { at: _at2, ...want } = frame(p, 1);
        assert.deepEqual(rest, want);
        un();
      }));

    test('resume from an id replays exactly what was missed, then continues live, even while frames keep coming', () =>
      withBus(async ({ bus }) => {
        const p = randomUUID();
        const ids: string[] = [];
        for (let i = 0; i < 10; i++) ids.push(await bus.publish(frame(p, i)));
        const c = collector();
        const un = bus.subscribe(p, ids[3], c.on);
        // Publish concurrently with the replay: no gap, no duplicate at the boundary.
        const more = (async () => {
          for (let i = 10; i < 30; i++) await bus.publish(frame(p, i));
        })();
        await un.ready;
        await more;
        const got = await c.until(26);
        assert.deepEqual(ns(got), Array.from({ length: 26 }, (_, i) => i + 4));
        await sleep(50);
        assert.equal(c.got.length, 26, 'no duplicates arrive later');
        un();
      }));

    test('resume pages through long histories', () =>
      withBus(async ({ bus }) => {
        const p = randomUUID();
        const first = await bus.publish(frame(p, 0));
        await Promise.all(Array.from({ length: 1199 }, (_, i) => bus.publish(frame(p, i + 1))));
        const c = collector();
        const un = bus.subscribe(p, first, c.on);
        await un.ready;
        const got = await c.until(1199);
        assert.equal(new Set(got.map((m) => m.id)).size, 1199);
        un();
      }));

    test('streams are per project; a malformed Last-Event-ID means live only', () =>
      withBus(async ({ bus }) => {
        const a = randomUUID();
        const b = randomUUID();
        await bus.publish(frame(a, 0));
        const ca = collector();
        const cb = collector();
        const ua = bus.subscribe(a, 'not-an-id', ca.on);
        const ub = bus.subscribe(b, null, cb.on);
        await Promise.all([ua.ready, ub.ready]);
        await bus.publish(frame(a, 1));
        await bus.publish(frame(b, 2));
        assert.deepEqual(ns(await ca.until(1)), [1]);
        assert.deepEqual(ns(await cb.until(1)), [2]);
        await sleep(30);
        assert.equal(ca.got.length, 1);
        assert.equal(cb.got.length, 1);
        ua();
        ub();
      }));

    test('unsubscribe stops delivery, twice is harmless, and one failing subscriber does not hurt another', () =>
      withBus(async ({ bus }) => {
        const p = randomUUID();
        const c1 = collector();
        const c2 = collector();
        const u1 = bus.subscribe(p, null, c1.on);
        const bad = bus.subscribe(p, null, () => {
          throw new Error('subscriber failure');
        });
        const u2 = bus.subscribe(p, null, c2.on);
        await Promise.all([u1.ready, u2.ready, bad.ready]);
        await bus.publish(frame(p, 1));
        await c1.until(1);
        await c2.until(1);
        u1();
        u1();
        await bus.publish(frame(p, 2));
        await c2.until(2);
        await sleep(30);
        assert.deepEqual(ns(c1.got), [1]);
        u2();
        bad();
      }));

    test('frames older than the retention window are not replayed', () =>
      withBus(
        async ({ bus }) => {
          const p = randomUUID();
          const old = await bus.publish(frame(p, 1));
          await sleep(450);
          await bus.publish(frame(p, 2));
          const c = collector();
          const un = bus.subscribe(p, '0-0', c.on);
          await un.ready;
          await sleep(30);
          assert.deepEqual(ns(c.got), [2]);
          const c2 = collector();
          const un2 = bus.subscribe(p, old, c2.on);
          await un2.ready;
          await sleep(30);
          assert.deepEqual(ns(c2.got), [2]);
          un();
          un2();
        },
        { retentionMs: 300 },
      ));

    test('presence counts distinct viewers and forgets them when they leave or expire', () =>
      withBus(async ({ bus }) => {
        const p = randomUUID();
        assert.equal(await bus.touchPresence(p, 'v1', 60_000), 1);
        assert.equal(await bus.touchPresence(p, 'v2', 60_000), 2);
        assert.equal(await bus.touchPresence(p, 'v1', 60_000), 2);
        assert.equal(await bus.touchPresence(p, 'v3', 40), 3);
        await sleep(80);
        assert.equal(await bus.leavePresence(p, 'v1'), 1, 'v3 expired, v1 left');
        assert.equal(await bus.leavePresence(p, 'nobody'), 1);
      }));

    if (factory.shared)
      test('a second instance on the same backend sees the same streams, live and on resume', () =>
      withBus(async ({ bus, peer }) => {
        assert.ok(peer, 'a shared implementation provides peer()');
        const other = await peer();
        try {
          const p = randomUUID();
          const c = collector();
          const un = other.subscribe(p, null, c.on);
          await un.ready;
          const id1 = await bus.publish(frame(p, 1));
          await bus.publish(frame(p, 2));
          assert.deepEqual(ns(await c.until(2)), [1, 2]);
          const r = collector();
          const un2 = other.subscribe(p, id1, r.on);
          await un2.ready;
          assert.deepEqual(ns(await r.until(1)), [2]);
          assert.equal(await bus.touchPresence(p, 'a', 60_000), 1);
          assert.equal(await other.touchPresence(p, 'b', 60_000), 2);
          un();
          un2();
        } finally {
          await other.close();
        }
      }));
  });
}

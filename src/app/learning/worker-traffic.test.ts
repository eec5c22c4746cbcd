// `switchboard worker` on its own (the cluster topology of D17) serves no calls, so its own count of
// calls in flight never moves: it reads the serving replicas' traffic from PostgreSQL's count of
// call-log rows written (shared/traffic.ts) and yields to it. Two runtimes on one database: a
// serving replica without a worker, and a worker that does not listen for HTTP, as the cluster runs
// them. While calls flow through the replica, the worker's plane runs consume nothing and say they
// deferred; once the calls stop, a later run consumes everything.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls } from '../../../test/learning.ts';
import { startRuntime, type Runtime } from '../../runtime/runtime.ts';
import { liveTraffic, servesCalls } from '../shared/index.ts';
import { runLearningTick } from './pipeline.ts';
import { planePacer } from './pacing.ts';

const PLANE = { LEARNING_INTERVAL_SECONDS: '10', LEARNING_BUSY_SHARE: '0', LEARNING_QUIET_MS: '300' };
let srv: TestServer;
let worker: Runtime;
before(async () => {
  srv = await startTestServer({ env: { ...LEARNING_TEST_ENV, ...PLANE, RATE_LIMIT_CHAT_PER_MIN: '100000' }, worker: false });
  worker = await startRuntime({ ...srv.services.config, LEARNING_INTERVAL_SECONDS: 10, LEARNING_BUSY_SHARE: 0, LEARNING_QUIET_MS: 300 }, { http: false, worker: true, simUrl: srv.sim.url });
  planePacer(worker.services); // made at start, as the worker's first run makes it
});
after(async () => {
  await worker?.close();
  await srv?.close();
});

const pending = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is null`.execute(srv.services.db)).rows[0].n;

/** Plane runs on the worker until the outbox is drained (PostgreSQL may publish the last calls' counts up to 10 s late). */
async function drainOnWorker(limitMs: number): Promise<number> {
  const start = Date.now();
  let consumed = 0;
  while ((await pending()) > 0 && Date.now() - start < limitMs) consumed += (await runLearningTick(worker.services)).consumed;
  return consumed;
}

test('a worker serving no calls sees the replicas’ calls through the database and yields to them', async () => {
  assert.equal(servesCalls(worker.services), false);
  assert.equal(servesCalls(srv.services), true);
  const t = await tenantWithKey(srv);

  // Quiet: the worker's runs consume what the replica's calls wrote.
  await makeCalls(srv, t.key, 8);
  assert.ok((await drainOnWorker(40_000)) >= 8);
  assert.equal(await pending(), 0);

  // Calls flowing through the replica while the worker runs the plane.
  await makeCalls(srv, t.key, 8);
  const waiting = await pending();
  assert.ok(waiting >= 8);
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  let flowing = true;
  let made = 0;
  const traffic = (async () => {
    while (flowing) {
      await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Translate into French: call ${made}` }] });
      made += 1;
      await new Promise((r) => setTimeout(r, 25)); // about 25 calls a second
    }
  })();
  try {
    await new Promise((r) => setTimeout(r, 500));
    const started = Date.now();
    const r = await runLearningTick(worker.services);
    // A run may wait for its turn until 90 % of the 10 s interval: through all of it, the calls
    // never looked quiet (the worker's own in-process gauge saw none of them).
    assert.ok(Date.now() - started >= 8_000, `the run waited for its turn (${Date.now() - started} ms)`);
    assert.deepEqual({ consumed: r.consumed, deferred: r.deferred, slices: r.slices }, { consumed: 0, deferred: true, slices: { quiet: 0, busy: 0, behind: 0 } });
    assert.equal(liveTraffic(worker.services).inflight, 0, 'the worker served none of the calls');
  } finally {
    flowing = false;
    await traffic;
  }
  assert.ok(made >= 20, `${made} calls flowed through the replica during the run`);

  // The calls have stopped: later runs consume everything, the run's calls included.
  await drainOnWorker(60_000);
  assert.equal(await pending(), 0);
});

// The plane yields to live traffic (issue 18 item 7), on the real server: the proxy's own count of
// calls in flight is what the plane's runs read. While a real call is being served, a run does none
// of its work (busy share 0 here) and says it deferred; once the serving side is quiet, the next run
// does it all. At the backlog cap, a run works through the traffic until it is back under the cap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls } from '../../../test/learning.ts';
import { liveTraffic } from '../shared/index.ts';
import { runLearningTick } from './pipeline.ts';
import { Pacer, planePacer } from './pacing.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({
    env: { ...LEARNING_TEST_ENV, LEARNING_INTERVAL_SECONDS: '2', LEARNING_BUSY_SHARE: '0', LEARNING_QUIET_MS: '300' },
  });
});
after(() => srv.close());

const pending = async () =>
  (await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is null`.execute(srv.services.db)).rows[0].n;

/** One proxy call that the simulated upstream holds for `ms` before answering. */
function heldCall(key: string, tag: string, ms: number) {
  srv.sim.faults.add({ delayMs: ms, promptIncludes: tag, times: 1 });
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0, timeout: 20_000 });
  return client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Write a poem about waiting ${tag}` }] });
}

async function whileInFlight<T>(call: Promise<unknown>, fn: () => Promise<T>): Promise<T> {
  for (let i = 0; i < 200 && liveTraffic(srv.services).inflight === 0; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(liveTraffic(srv.services).inflight, 1, 'the held call is in flight');
  const out = await fn();
  assert.equal(liveTraffic(srv.services).inflight, 1, 'the call was still in flight when the run ended');
  await call;
  return out;
}

test('a run while a call is in flight defers its work; the next quiet run does it', async () => {
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 12);
  const waiting = await pending();
  assert.ok(waiting >= 12);

  const started = Date.now();
  const busy = await whileInFlight(heldCall(t.key, 'HOLD-1', 5_000), async () => {
    const r = await runLearningTick(srv.services);
    assert.equal(await pending(), waiting, 'nothing consumed while the call was being served');
    return r;
  });
  assert.deepEqual({ consumed: busy.consumed, validated: busy.validated, deferred: busy.deferred, slices: busy.slices },
    { consumed: 0, validated: 0, deferred: true, slices: { quiet: 0, busy: 0, behind: 0 } });
  assert.ok(Date.now() - started < 6_000);

  const quiet = await runLearningTick(srv.services);
  assert.ok(quiet.consumed >= waiting, `consumed ${quiet.consumed} of ${waiting}`);
  assert.equal(quiet.deferred, false);
  assert.ok(quiet.slices.quiet >= 3, 'outbox, retention and detection each ran as a quiet slice');
  assert.equal(quiet.slices.busy + quiet.slices.behind, 0);
});

test('under LEARNING_BUSY_BACKLOG the busy share takes no turn; at it, the plane trickles through the traffic', async () => {
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 6);
  const waiting = await pending();
  assert.ok(waiting >= 6);
  // A generous busy share (the server's own is 0 here) reading the real server's calls in flight,
  // with the backlog under the threshold: nothing.
  const pacer = new Pacer(liveTraffic(srv.services), { quietMs: 300, busyShare: 0.5 });
  const under = { ...srv.services, config: { ...srv.services.config, LEARNING_BUSY_SHARE: 0.5, LEARNING_BUSY_BACKLOG: waiting + 1_000 } };
  const r1 = await whileInFlight(heldCall(t.key, 'HOLD-3', 4_000), async () => {
    const r = await runLearningTick(under, srv.clock.now(), pacer);
    assert.equal(await pending(), waiting, 'nothing consumed while the call was being served');
    return r;
  });
  assert.deepEqual({ consumed: r1.consumed, deferred: r1.deferred, slices: r1.slices }, { consumed: 0, deferred: true, slices: { quiet: 0, busy: 0, behind: 0 } });
  // At the threshold (1 row), the same share takes busy turns while the call is still in flight.
  const at = { ...srv.services, config: { ...srv.services.config, LEARNING_BUSY_SHARE: 0.5, LEARNING_BUSY_BACKLOG: 1 } };
  const r2 = await whileInFlight(heldCall(t.key, 'HOLD-4', 4_000), () => runLearningTick(at, srv.clock.now(), pacer));
  assert.ok(r2.slices.busy >= 1, JSON.stringify(r2.slices));
  assert.ok(r2.consumed >= 1, `consumed ${r2.consumed} under traffic`);
  assert.equal(r2.slices.quiet + r2.slices.behind, 0);
});

test('at the backlog cap, a run works through live traffic until the backlog is back under it', async () => {
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 8);
  const waiting = await pending();
  assert.ok(waiting >= 8);
  // The same service container with a cap of 1 row, and the real server's pacer (its call count).
  const capped = { ...srv.services, config: { ...srv.services.config, LEARNING_BACKLOG_CAP: 1 } };
  const r = await whileInFlight(heldCall(t.key, 'HOLD-2', 4_000), () => runLearningTick(capped, srv.clock.now(), planePacer(srv.services)));
  assert.ok(r.backlog >= 1, 'the run began at the cap');
  assert.ok(r.consumed >= waiting, `consumed ${r.consumed} of ${waiting} with a call in flight`);
  assert.ok(r.slices.behind >= 1, JSON.stringify(r.slices));
  assert.equal(r.slices.quiet, 0);
});

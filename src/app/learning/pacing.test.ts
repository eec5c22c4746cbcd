// The pacer (issue 18 item 7): when a slice of the plane's work gets its turn, against a simulated
// clock and simulated traffic. The wiring to the real proxy's call count is in yield.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Pacer, type PacerClock } from './pacing.ts';
import { LiveTraffic, SharedTraffic, STATS_LAG_MS } from '../shared/index.ts';

function sim() {
  let t = 0;
  // Sleeping yields to the event loop (as a real timer does), so simulated traffic can change meanwhile.
  const clock: PacerClock = { now: () => t, sleep: (ms) => new Promise((r) => setImmediate(() => r(void (t += ms)))) };
  return { clock, traffic: new LiveTraffic(() => t), get t() { return t; }, advance: (ms: number) => void (t += ms) };
}

test('the gauge: idle only after the last call has ended, counted from its end', () => {
  const s = sim();
  assert.equal(s.traffic.idleMs(), Infinity, 'no call yet');
  s.traffic.enter();
  s.advance(1_000);
  assert.equal(s.traffic.idleMs(), 0, 'a call in flight');
  s.traffic.enter();
  s.traffic.leave();
  s.advance(300);
  assert.equal(s.traffic.idleMs(), 0, 'still one in flight');
  s.traffic.leave();
  s.advance(200);
  assert.equal(s.traffic.idleMs(), 200);
});

test('quiet: every slice runs at once', async () => {
  const s = sim();
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0.02 }, s.clock);
  for (let i = 0; i < 3; i++) {
    const r = await p.slice(false, 10_000, async () => s.advance(100));
    assert.equal(r?.mode, 'quiet');
  }
  assert.equal(s.t, 300, 'no waiting between slices');
});

test('busy: a slice of d ms is followed by d × (1/share − 1) ms without plane work', async () => {
  const s = sim();
  s.traffic.enter(); // a call stays in flight throughout
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0.1 }, s.clock);
  const starts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await p.slice(false, 1e9, async () => (starts.push(s.t), s.advance(50)));
    assert.equal(r?.mode, 'busy');
  }
  assert.deepEqual(starts, [0, 500, 1000], '50 ms of work, then 450 ms of nothing: 10 %');
});

test('busy: a slice still waiting at its deadline does not run', async () => {
  const s = sim();
  s.traffic.enter();
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0.01 }, s.clock);
  await p.slice(false, 1e9, async () => s.advance(100)); // the next turn is 9.9 s later
  let ran = false;
  const r = await p.slice(false, s.t + 2_000, async () => (ran = true));
  assert.equal(r, null);
  assert.equal(ran, false);
  assert.ok(s.t >= 2_100 && s.t < 2_200, `gave up at its deadline (${s.t})`);
});

test('busy: the serving side going quiet ends the wait early', async () => {
  const s = sim();
  s.traffic.enter();
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0 }, s.clock);
  const waiting = p.slice(false, 1e9, async () => 'done');
  // The slice polls every PACE_POLL_MS; end the call after 1 s of simulated time.
  const end = (async () => {
    while (s.t < 1_000) await new Promise((r) => setImmediate(r));
    s.traffic.leave();
  })();
  const r = await waiting;
  await end;
  assert.equal(r?.mode, 'quiet');
  assert.ok(s.t >= 1_500 && s.t < 1_600, `ran at ${s.t} ms: 500 ms after the call ended at 1 000–1 050 ms`);
});

test('behind: no waiting, whatever the traffic and even with no busy share', async () => {
  const s = sim();
  s.traffic.enter();
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0 }, s.clock);
  const r = await p.slice(true, 0, async () => s.advance(100));
  assert.equal(r?.mode, 'behind');
  assert.equal(s.t, 100);
  assert.deepEqual(p.slices, { quiet: 0, busy: 0, behind: 1 });
});

test('the shared gauge (a worker serving no calls): idle once the counter has stood still past its lag; readings throttled', async () => {
  let t = 0;
  let counter = 100n;
  const gauge = new SharedTraffic(async () => counter, () => t, 250);
  const look = async () => (await gauge.refresh(), gauge.idleMs());
  assert.equal(await look(), 0, 'the first reading counts as traffic');
  t += STATS_LAG_MS + 400;
  assert.equal(await look(), 400, 'standing still: idle counted from the first reading, less the lag');
  counter += 3n; // calls settled on some replica
  t += 100;
  assert.equal(await look(), 500, 'read 100 ms after the last reading: not read again yet');
  t += 200;
  assert.equal(await look(), 0, 'read again: the counter moved');
  assert.equal(gauge.reads, 3);
  // Under traffic every reading sees it move: never quiet, so a pacer with no busy share never runs a slice.
  const p = new Pacer(gauge, { quietMs: 500, busyShare: 0 }, { now: () => t, sleep: async (ms) => void ((t += ms), (counter += 1n)) });
  const r = await p.slice(false, t + 5_000, async () => 'ran');
  assert.equal(r, null, 'no turn while the counter keeps moving');
  // Once the calls stop, the next slice gets its turn after the lag and the quiet time.
  const stopped = t;
  const quiet = await new Pacer(gauge, { quietMs: 500, busyShare: 0 }, { now: () => t, sleep: async (ms) => void (t += ms) }).slice(false, t + 10_000, async () => 'ran');
  assert.equal(quiet?.mode, 'quiet');
  assert.ok(t - stopped >= STATS_LAG_MS + 500 && t - stopped < STATS_LAG_MS + 800, `ran ${t - stopped} ms after the counter stopped`);
});

test('busy, trickle off (the backlog is under LEARNING_BUSY_BACKLOG): no busy turn, a quiet one as soon as the calls stop', async () => {
  const s = sim();
  s.traffic.enter();
  const p = new Pacer(s.traffic, { quietMs: 500, busyShare: 0.5 }, s.clock);
  let ran = false;
  assert.equal(await p.slice(false, s.t + 2_000, async () => (ran = true), false), null, 'no turn in 2 s of traffic');
  assert.equal(ran, false);
  assert.equal(p.slices.busy, 0);
  const later = p.slice(false, s.t + 10_000, async () => 'done', false);
  s.traffic.leave();
  const r = await later;
  assert.equal(r?.mode, 'quiet');
  assert.equal(r?.value, 'done');
  assert.ok((await p.slice(true, s.t, async () => 1, false))?.mode === 'behind', 'behind still overrides');
});

// The plane's outbox consumption adapts to the traffic (issue 18 item 7): a run takes batches until
// the outbox is drained or its share of LEARNING_INTERVAL_SECONDS is spent (not a fixed number of
// batches, which capped the plane at that many rows a minute whatever the load), and each batch is a
// slice of the pacer (pacing.ts): full batches when the serving side is quiet, small spaced-out ones
// under live traffic, full batches again when the backlog reaches its cap.
// drainOutbox's loop on an outbox of known size with a simulated clock; pipeline.test.ts and
// yield.test.ts run it on the real database and the real server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUSY_BATCH, drainOutbox } from './pipeline.ts';
import { Pacer, type PacerClock } from './pacing.ts';
import { EVIDENCE_BATCH, type EvidenceRun } from './evidence.repo.ts';

/** A simulated clock, an outbox of `rows` unconsumed rows whose batches "take" `msPerRow` each row, and traffic that is `busy` or not. */
function world(rows: number, msPerRow: number, o: { busy: boolean; busyShare?: number }) {
  let t = 0;
  let left = rows;
  let workMs = 0;
  const clock: PacerClock = { now: () => t, sleep: async (ms) => void (t += ms) };
  const pacer = new Pacer({ idleMs: () => (o.busy ? 0 : 60_000) }, { quietMs: 500, busyShare: o.busyShare ?? 0.02 }, clock);
  const sizes: number[] = [];
  const consume = async (batch: number): Promise<EvidenceRun> => {
    const n = Math.min(batch, left);
    left -= n;
    sizes.push(batch);
    t += n * msPerRow + 1;
    workMs += n * msPerRow + 1;
    return { consumed: n, evidence: Math.ceil(n / 10), busy: false };
  };
  return {
    pacer, consume, clock, sizes,
    run: (budgetMs: number, backlog = rows, cap = 1_000_000) => drainOutbox(consume, pacer, { behind: (consumed) => backlog - consumed >= cap, deadline: t + budgetMs, now: clock.now }),
    get left() { return left; },
    get t() { return t; },
    get workMs() { return workMs; },
  };
}

test('quiet: a backlog larger than any fixed cap is drained in one run, in full batches, while the time lasts', async () => {
  const w = world(12_345, 0.1, { busy: false });
  const r = await w.run(30_000);
  assert.equal(r.consumed, 12_345, 'more than the 20 × 500 rows the old fixed cap allowed');
  assert.equal(r.batches, 27);
  // A quiet spell's first slices are small (a burst arriving then meets a short one), then full.
  assert.deepEqual(w.sizes.slice(0, 4), [BUSY_BATCH, 2 * BUSY_BATCH, 4 * BUSY_BATCH, EVIDENCE_BATCH]);
  assert.ok(w.sizes.slice(3).every((n) => n === EVIDENCE_BATCH));
  assert.equal(w.left, 0);
  assert.equal(r.deferred, false);
});

test('the run stops once its time is spent, leaving the rest for the next run', async () => {
  const w = world(12_345, 0.2, { busy: false });
  const r = await w.run(450);
  assert.equal(r.batches, 7, 'the batch that crossed 450 ms is the last');
  assert.equal(r.consumed, 2_700);
  assert.equal(w.left, 12_345 - 2_700);
});

test('a short batch means the outbox is drained: no extra empty round trip', async () => {
  const w = world(730, 0.01, { busy: false });
  const r = await w.run(30_000);
  assert.deepEqual({ consumed: r.consumed, batches: r.batches }, { consumed: 730, batches: 4 }, 'slices of 100, 200, 400, then 30 of 500');
});

test('a busy stage (another worker holds it) stops the run', async () => {
  const w = world(5_000, 0.01, { busy: false });
  let calls = 0;
  const r = await drainOutbox(async () => (calls++, { consumed: 0, evidence: 0, busy: true }), w.pacer, { behind: () => false, deadline: 30_000, now: w.clock.now });
  assert.deepEqual({ consumed: r.consumed, calls }, { consumed: 0, calls: 1 });
});

test('under live traffic the run works in small slices and at most its busy share of the time, then defers the rest', async () => {
  const w = world(50_000, 0.4, { busy: true, busyShare: 0.02 });
  const r = await w.run(30_000);
  assert.ok(w.sizes.every((n) => n === BUSY_BATCH), `slice sizes ${[...new Set(w.sizes)]}`);
  assert.ok(r.consumed > 0, 'slow progress: the backlog cannot only grow');
  assert.equal(r.deferred, true);
  // 2 % of 30 s is 600 ms of work; one slice (41 ms) may start just before the end.
  assert.ok(w.workMs <= 0.02 * 30_000 + 41 + 1e-6, `worked ${w.workMs} ms of 30 s`);
  assert.ok(w.workMs >= 0.02 * 30_000 - 2 * 41, `worked ${w.workMs} ms: the trickle is not starved`);
  assert.ok(w.left > 40_000);
});

test('with no busy share, live traffic defers the whole run', async () => {
  const w = world(5_000, 0.1, { busy: true, busyShare: 0 });
  const r = await w.run(30_000);
  assert.deepEqual({ consumed: r.consumed, batches: r.batches, deferred: r.deferred }, { consumed: 0, batches: 0, deferred: true });
});

test('at the backlog cap the plane stops yielding: full batches under traffic until it is back under the cap', async () => {
  const w = world(20_000, 0.1, { busy: true, busyShare: 0 });
  const r = await w.run(30_000, 20_000, 12_000);
  // Behind while 20 000 − consumed ≥ 12 000: 17 full batches (8 500 rows), then it yields again.
  assert.equal(r.consumed, 8_500);
  assert.ok(w.sizes.every((n) => n === EVIDENCE_BATCH));
  assert.equal(w.left, 11_500);
  assert.equal(w.pacer.slices.behind, 17);
  assert.equal(r.deferred, true);
});

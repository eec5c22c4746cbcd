// The plane's outbox consumption adapts to the traffic (issue 18 item 7): a run takes full batches
// until the outbox is drained or its share of LEARNING_INTERVAL_SECONDS is spent, instead of a fixed
// number of batches (which capped the plane at that many rows a minute whatever the load).
// drainOutbox's loop on an outbox of known size; pipeline.test.ts runs it on the real database.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drainOutbox } from './pipeline.ts';
import type { EvidenceRun } from './evidence.repo.ts';

/** An outbox of `rows` unconsumed rows, consumed `batch` at a time; each batch "takes" `msPerBatch`. */
function outbox(rows: number, batch: number, msPerBatch: number) {
  let left = rows;
  let clock = 0;
  return {
    consume: async (): Promise<EvidenceRun> => {
      const n = Math.min(batch, left);
      left -= n;
      clock += msPerBatch;
      return { consumed: n, evidence: Math.ceil(n / 10), busy: false };
    },
    elapsed: () => clock,
    get left() {
      return left;
    },
  };
}

test('a backlog larger than any fixed cap is drained in one run while the time budget lasts', async () => {
  const o = outbox(12_345, 500, 50);
  const r = await drainOutbox(o.consume, 500, 30_000, o.elapsed);
  assert.equal(r.consumed, 12_345, 'more than the 20 × 500 rows the old fixed cap allowed');
  assert.equal(r.batches, 25);
  assert.equal(o.left, 0);
});

test('the run stops once its time budget is spent, leaving the rest for the next run', async () => {
  const o = outbox(12_345, 500, 100);
  const r = await drainOutbox(o.consume, 500, 450, o.elapsed);
  assert.equal(r.batches, 5, 'the batch that crossed 450 ms is the last');
  assert.equal(r.consumed, 2_500);
  assert.equal(o.left, 12_345 - 2_500);
});

test('a short batch means the outbox is drained: no extra empty round trip', async () => {
  const o = outbox(730, 500, 10);
  const r = await drainOutbox(o.consume, 500, 30_000, o.elapsed);
  assert.deepEqual({ consumed: r.consumed, batches: r.batches }, { consumed: 730, batches: 2 });
});

test('at least one batch runs even with no budget, and a busy stage (another worker holds it) stops the run', async () => {
  const o = outbox(5_000, 500, 10);
  assert.equal((await drainOutbox(o.consume, 500, 0, o.elapsed)).consumed, 500);
  let calls = 0;
  const busy = await drainOutbox(async () => (calls++, { consumed: 0, evidence: 0, busy: true }), 500, 30_000, () => 0);
  assert.deepEqual({ consumed: busy.consumed, calls }, { consumed: 0, calls: 1 });
});

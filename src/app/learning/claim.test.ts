// The outbox claim touches only rows that are ready (issue 18 item 7, migration 029). Real calls
// through the OpenAI SDK: non-streamed ones settle with their QA score, so their rows are ready at
// once; streamed ones are scored later by the worker, so their rows wait for the score (or for
// QA_WAIT_MS). However many rows wait, one batch reads at most one batch of index entries from each
// of the two indexes of unconsumed rows: PostgreSQL's own per-transaction counters say so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, LEARNING_PROMPTS, outboxCount } from '../../../test/learning.ts';
import { scorePending } from '../calls/quality/scoring.ts';
import { asLearning } from './role.ts';
import { consumeOutbox, QA_WAIT_MS } from './evidence.repo.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: LEARNING_TEST_ENV, worker: false });
});
after(() => srv.close());

async function calls(key: string, n: number, stream: boolean): Promise<void> {
  const start = await outboxCount(srv);
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 });
  for (let i = 0; i < n; i++) {
    const messages = [{ role: 'user' as const, content: `${LEARNING_PROMPTS[i % LEARNING_PROMPTS.length]} (${stream ? 's' : 'j'}${i})` }];
    if (stream) for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }));
    else await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    srv.clock.advance(10); // distinct settlement times: the scorer's "oldest first" is then the outbox's id order
  }
  for (let i = 0; i < 100 && (await outboxCount(srv)) < start + n; i++) await new Promise((r) => setTimeout(r, 50));
}

const flags = async () =>
  (await sql<{ qa_wait: boolean; consumed: boolean; scored: boolean; n: number }>`
    select o.qa_wait, o.consumed_at is not null as consumed, c.qa_scored_at is not null as scored, count(*)::int as n
      from learning_outbox o join call_logs c on c.id = o.call_id group by 1, 2, 3 order by 1, 2, 3`.execute(srv.services.db)).rows;

/** One claim of `batch` rows, with the index entries it read (this transaction's counters). */
async function claim(batch: number, now = srv.clock.now()) {
  return asLearning(srv.services.db, async (tx) => {
    const run = await consumeOutbox(tx, now, batch);
    const reads = (await sql<{ ready: number; waiting: number }>`
      select pg_stat_get_xact_tuples_returned('learning_outbox_ready'::regclass)::int as ready,
             pg_stat_get_xact_tuples_returned('learning_outbox_waiting'::regclass)::int as waiting`.execute(tx)).rows[0];
    return { ...run, reads };
  });
}

test('rows waiting for their QA score are neither claimed nor walked; they are claimed once scored, or once their wait is over', async () => {
  const t = await tenantWithKey(srv);
  await calls(t.key, 30, true);
  await calls(t.key, 6, false);
  // The settlement wrote which rows wait: the streamed calls', whose scores are not in yet.
  const before = await flags();
  const waiting = before.filter((f) => f.qa_wait && !f.scored).reduce((a, f) => a + f.n, 0);
  const ready = before.filter((f) => !f.qa_wait && f.scored).reduce((a, f) => a + f.n, 0);
  assert.ok(waiting >= 30 && ready >= 6, JSON.stringify(before));
  assert.equal(before.filter((f) => f.qa_wait === f.scored).length, 0, `qa_wait is exactly "not scored at settlement": ${JSON.stringify(before)}`);

  // Batches of 4: the ready rows are claimed 4 at a time; the 30 waiting rows (all older) are not
  // claimed, and each batch looks at no more than 4 of them.
  const first = await claim(4);
  assert.equal(first.consumed, 4);
  assert.ok(first.reads.waiting <= 4, `read ${first.reads.waiting} waiting-index entries for a batch of 4 (${waiting} wait)`);
  assert.ok(first.reads.ready <= 4, `read ${first.reads.ready} ready-index entries`);
  let consumed = first.consumed;
  for (let r = await claim(4); r.consumed > 0; r = await claim(4)) consumed += r.consumed;
  assert.equal(consumed, ready, 'every ready row, and nothing else');
  assert.equal((await flags()).filter((f) => f.qa_wait && f.consumed).length, 0, 'no waiting row was claimed');

  // Scored: claimed, oldest first, a batch at a time (the rows further back are reached as the
  // front is consumed).
  const scored = Math.min(12, waiting);
  await scorePending(srv.services, scored);
  let n = 0;
  for (let r = await claim(5); r.consumed > 0; r = await claim(5)) n += r.consumed;
  assert.equal(n, scored, 'the scored waiting rows, all of them');

  // The rest are claimed without a score once QA_WAIT_MS has passed.
  const late = new Date(srv.clock.now().getTime() + QA_WAIT_MS + 1_000);
  let m = 0;
  for (let r = await claim(7, late); r.consumed > 0; r = await claim(7, late)) m += r.consumed;
  assert.equal(m, waiting - scored);
  assert.equal((await flags()).filter((f) => !f.consumed).length, 0, 'the outbox is drained');
});

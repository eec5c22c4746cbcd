// The learning plane end to end on the real server and real PostgreSQL (D15): calls through the
// official OpenAI SDK fill the outbox; the stages turn them into evidence, patterns, coverage
// snapshots, signals and minted proposals, which are then validated (synthetic batches, replay,
// both gates, cost). Stages are driven by hand with the test clock (LEARNING_ENABLED=false keeps the
// worker's own timer out of the way); learning.job.test.ts shows the worker running them itself.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { scorePending } from '../calls/quality/scoring.ts';
import { runLearningTick } from './pipeline.ts';
import { asLearning } from './role.ts';
import { consumeOutbox } from './evidence.repo.ts';

let srv: TestServer;
const PROMPTS = [
  'Write a python function that parses ISO dates',
  'Translate into French: good morning, how are you?',
  'Summarize the key points of this meeting transcript: we agreed to ship on Friday.',
  'Hi, what do you think about houseplants?',
  'Solve the equation 2x + 3 = 11',
  'Extract the fields as json from this invoice: ACME, 12 EUR, 2026-01-02',
];

async function count(table: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(srv.services.db);
  return r.rows[0].n;
}

async function makeCalls(n: number, key: string): Promise<void> {
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 });
  for (let i = 0; i < n; i++) {
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPTS[i % PROMPTS.length] }] });
  }
  // Settlements are group-committed: wait until every call's outbox row is there, then score them.
  for (let i = 0; i < 100 && (await count('learning_outbox')) < n; i++) await new Promise((r) => setTimeout(r, 50));
  while ((await scorePending(srv.services)) > 0);
}

before(async () => {
  srv = await startTestServer({ env: { LEARNING_ENABLED: 'false', LEARNING_COVERAGE_MIN_EVIDENCE: '1000', LEARNING_INTERVAL_SECONDS: '60' } });
});
after(() => srv.close());

describe('outbox → evidence → patterns', () => {
  test('each outbox row is consumed once, de-duplicated by content hash, and a repeated run changes nothing', async () => {
    const t = await tenantWithKey(srv);
    await makeCalls(18, t.key);
    // Escalated calls add an outbox row per attempt (one per dispatch), with the same request.
    const dispatches = await count('learning_outbox');
    assert.ok(dispatches >= 18);
    const r = await runLearningTick(srv.services);
    assert.equal(r.consumed, dispatches);
    // Six distinct prompts: six evidence rows, whose occurrences add up to every dispatch.
    const ev = (await sql<{ occurrences: number; content_hash: string }>`select occurrences, content_hash from learning_evidence`.execute(srv.services.db)).rows;
    assert.equal(ev.length, 6);
    assert.equal(ev.reduce((a, e) => a + e.occurrences, 0), dispatches);
    assert.ok(ev.every((e) => e.occurrences >= 3));
    const out = (await sql<{ consumed_at: Date | null; request_sha256: string; evidence_id: bigint }>`select consumed_at, request_sha256, evidence_id from learning_outbox`.execute(srv.services.db)).rows;
    assert.ok(out.every((o) => o.consumed_at && /^[0-9a-f]{64}$/.test(o.request_sha256) && o.evidence_id));
    // Each outbox row's hash is its evidence's content hash: a proposal traces back to calls.
    assert.deepEqual(new Set(out.map((o) => o.request_sha256)), new Set(ev.map((e) => e.content_hash)));
    const calls = (await sql<{ n: number }>`select sum(call_count)::int as n from learning_patterns`.execute(srv.services.db)).rows[0].n;
    assert.equal(calls, dispatches);
    const fams = (await sql<{ task_family: string }>`select distinct task_family from learning_patterns order by 1`.execute(srv.services.db)).rows.map((x) => x.task_family);
    assert.ok(fams.includes('coding') && fams.includes('translation'), fams.join());

    const again = await runLearningTick(srv.services);
    assert.equal(again.consumed, 0);
    assert.equal((await sql<{ n: number }>`select sum(call_count)::int as n from learning_patterns`.execute(srv.services.db)).rows[0].n, dispatches);
  });

  test('a run that dies half-way leaves nothing behind; the next run produces the same rows', async () => {
    const t = await tenantWithKey(srv);
    await makeCalls(24, t.key);
    const before = (await sql<{ n: number }>`select sum(occurrences)::int as n from learning_evidence`.execute(srv.services.db)).rows[0].n;
    const pending = (await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is null`.execute(srv.services.db)).rows[0].n;
    const total = await count('learning_outbox');
    assert.ok(pending >= 24);
    await assert.rejects(
      asLearning(srv.services.db, async (tx) => {
        const r = await consumeOutbox(tx, srv.clock.now());
        assert.equal(r.consumed, pending);
        throw new Error('worker killed');
      }),
      /worker killed/,
    );
    assert.equal((await sql<{ n: number }>`select sum(occurrences)::int as n from learning_evidence`.execute(srv.services.db)).rows[0].n, before);
    assert.equal((await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is null`.execute(srv.services.db)).rows[0].n, pending);
    const r = await runLearningTick(srv.services);
    assert.equal(r.consumed, pending);
    assert.equal((await sql<{ n: number }>`select sum(occurrences)::int as n from learning_evidence`.execute(srv.services.db)).rows[0].n, before + pending);
    assert.equal((await sql<{ n: number }>`select sum(call_count)::int as n from learning_patterns`.execute(srv.services.db)).rows[0].n, total);
  });
});

describe('signals → proposals → validation', () => {
  test('a signal firing LEARNING_SIGNAL_MIN_FIRES times in 24 h mints one proposal, validated through both gates', async () => {
    // Coverage needs 1000 calls per family here, so every family seen fires once per run bucket;
    // the runs above (one bucket) fired once already.
    const subjects = (await sql<{ n: number }>`select count(distinct subject_key)::int as n from learning_signals_coverage`.execute(srv.services.db)).rows[0].n;
    assert.ok(subjects >= 4);
    assert.equal(await count('learning_signals_coverage'), subjects);
    assert.ok((await count('learning_coverage_snapshots')) >= 4);
    // Same bucket again: idempotent, no new fires.
    assert.equal((await runLearningTick(srv.services)).detect.signals.coverage, 0);
    srv.clock.advance(60_000);
    const second = await runLearningTick(srv.services);
    assert.equal(second.detect.signals.coverage, subjects);
    assert.equal(second.detect.minted, 0);
    srv.clock.advance(60_000);
    const third = await runLearningTick(srv.services);
    assert.equal(third.detect.minted, subjects);
    const proposals = (await sql<{ id: string; status: string; fires: number; source_signal: string; gate1_result_id: string | null; gate2_result_id: string | null; last_validated_at: Date | null; validation_cost_micros: bigint }>`
      select * from learning_proposals`.execute(srv.services.db)).rows;
    assert.ok(proposals.every((p) => p.status === 'minted' && p.fires === 3 && p.source_signal === 'coverage'));
    // The same run validated up to five of them (oldest first).
    assert.equal(third.validated, Math.min(5, proposals.length));
    const validated = proposals.filter((p) => p.last_validated_at);
    assert.equal(validated.length, third.validated);
    for (const p of validated) {
      assert.ok(p.gate1_result_id && p.gate2_result_id);
      const batches = (await sql<{ status: string; tier: string; actual_cost_micros: bigint; withdrawal_id: string | null; case_count: number }>`
        select b.status, p.tier, b.actual_cost_micros, b.withdrawal_id, b.case_count from learning_synthetic_batches b
          join learning_synthetic_generation_policies p on p.id = b.policy_id where b.proposal_id = ${p.id} order by p.tier`.execute(srv.services.db)).rows;
      assert.deepEqual(batches.map((b) => b.tier), ['A', 'B']);
      assert.equal(batches[0].actual_cost_micros, 0n);
      assert.ok(batches[0].case_count > 0 && batches[0].case_count <= 24);
      assert.ok(batches[1].actual_cost_micros > 0n && batches[1].withdrawal_id, 'Tier B (mock) debits its estimated cost');
      assert.equal(p.validation_cost_micros, batches[1].actual_cost_micros);
      for (const b of batches) assert.ok(b.status === 'scored' || b.status === 'rejected');
      const gates = (await sql<{ gate_id: string }>`select gate_id from learning_proposal_gate_results where proposal_id = ${p.id}`.execute(srv.services.db)).rows;
      assert.deepEqual(gates.map((g) => g.gate_id).sort(), ['replay', 'synthetic']);
    }
    // A fourth fire mints nothing new: one proposal per signal subject, forever.
    srv.clock.advance(60_000);
    assert.equal((await runLearningTick(srv.services)).detect.minted, 0);
  });

  test('stale validations run again: new gate rows, a new batch for the new window, cost recomputed', async () => {
    const p = (await sql<{ id: string }>`select id from learning_proposals where last_validated_at is not null order by created_at limit 1`.execute(srv.services.db)).rows[0];
    const gatesBefore = (await sql<{ n: number }>`select count(*)::int as n from learning_proposal_gate_results where proposal_id = ${p.id}`.execute(srv.services.db)).rows[0].n;
    srv.clock.advance(25 * 3_600_000);
    for (let i = 0; i < 4; i++) await runLearningTick(srv.services);
    const gates = (await sql<{ gate_id: string; id: string }>`select gate_id, id from learning_proposal_gate_results where proposal_id = ${p.id} order by evaluated_at`.execute(srv.services.db)).rows;
    assert.equal(gates.length, gatesBefore + 2);
    const row = (await sql<{ gate1_result_id: string; gate2_result_id: string; validation_cost_micros: bigint }>`select * from learning_proposals where id = ${p.id}`.execute(srv.services.db)).rows[0];
    assert.equal(row.gate1_result_id, gates.filter((g) => g.gate_id === 'synthetic').at(-1)!.id);
    assert.equal(row.gate2_result_id, gates.filter((g) => g.gate_id === 'replay').at(-1)!.id);
    const batches = (await sql<{ n: number }>`select count(*)::int as n from learning_synthetic_batches where proposal_id = ${p.id}`.execute(srv.services.db)).rows[0].n;
    assert.equal(batches, 4);
    const w = (await sql<{ total: bigint }>`select sum(amount_micros)::bigint as total from learning_plane_budget_withdrawals where proposal_id = ${p.id}`.execute(srv.services.db)).rows[0];
    assert.equal(row.validation_cost_micros, w.total);
  });

  test('after the retention window the outbox keeps hashes but no bodies', async () => {
    srv.clock.advance(31 * 86_400_000);
    const r = await runLearningTick(srv.services);
    assert.ok(r.bodiesDropped >= 42, String(r.bodiesDropped));
    const rows = (await sql<{ request: unknown; response: unknown; request_sha256: string; bodies_dropped_at: Date | null }>`select request, response, request_sha256, bodies_dropped_at from learning_outbox`.execute(srv.services.db)).rows;
    assert.ok(rows.every((x) => x.request === null && x.response === null && x.request_sha256 && x.bodies_dropped_at));
  });
});

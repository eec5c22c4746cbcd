// Tier B (spec §4, lock 7): live only with LEARNING_TIER_B_LIVE=true and an upstream key; then it
// calls the cheap model directly — never through the proxy's dispatch, so no call log, no wallet
// movement, no ledger entry — and its budget is debited BEFORE the call: a debit that does not fit
// means no call at all. Bounded by maxCostPerBatchMicros.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls, mintProposals } from '../../../test/learning.ts';
import { startSim } from '../../sim/index.ts';
import { tierBCaseMicros } from './orchestrator.ts';
import { loadEnabledPolicies } from './policy.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function liveServer(extra: Record<string, string>) {
  const sim = await startSim({ port: 0, host: '127.0.0.1' });
  const srv = await startTestServer({
    sim,
    env: { ...LEARNING_TEST_ENV, LEARNING_TIER_B_LIVE: 'true', OPENAI_API_KEY: 'simulated', OPENAI_BASE_URL: `${sim.url}/openai`, ...extra },
  });
  servers.push(srv);
  const close = srv.close;
  srv.close = async () => {
    await close();
    await sim.close();
  };
  return srv;
}

const n = async (srv: TestServer, q: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.raw(q)}`.execute(srv.services.db)).rows[0].n;

describe('Tier B live mode', () => {
  test('calls the cheap model directly: upstream calls happen, no call log, no ledger entry, cases marked live', async () => {
    const srv = await liveServer({});
    const t = await tenantWithKey(srv);
    await makeCalls(srv, t.key, 12);
    const upstream = srv.sim.stats.total;
    const calls = await n(srv, 'call_logs');
    const ledger = await n(srv, 'ledger_entries');
    const ids = await mintProposals(srv);
    assert.ok(ids.length > 0);
    const live = await n(srv, `learning_synthetic_cases where generation_method = 'cheap_model' and tags ? 'live'`);
    assert.ok(live > 0, 'live Tier B cases were written');
    const batches = (await sql<{ case_count: number; actual_cost_micros: bigint; estimated_cost_micros: bigint; max: bigint }>`
      select b.case_count, b.actual_cost_micros, b.estimated_cost_micros, p.max_cost_per_batch_micros as max from learning_synthetic_batches b
        join learning_synthetic_generation_policies p on p.id = b.policy_id where p.tier = 'B'`.execute(srv.services.db)).rows;
    const sent = batches.reduce((a, b) => a + b.case_count, 0);
    // One upstream request per case, straight to the provider: the simulated upstream saw them...
    assert.ok(srv.sim.stats.total - upstream >= sent, `${srv.sim.stats.total - upstream} upstream calls for ${sent} cases`);
    // ...and nothing of the dispatch path moved.
    assert.equal(await n(srv, 'call_logs'), calls);
    assert.equal(await n(srv, 'ledger_entries'), ledger);
    for (const b of batches) {
      assert.ok(b.estimated_cost_micros <= b.max, 'bounded by maxCostPerBatchMicros');
      assert.ok(b.actual_cost_micros <= b.estimated_cost_micros, 'actual cost never exceeds what was debited');
    }
  });

  test('the budget is debited before the call: when it cannot pay, no upstream call is made and no batch is written', async () => {
    const srv = await liveServer({ LEARNING_BUDGET_SYNTHGEN_MICROS: '1' });
    const t = await tenantWithKey(srv);
    await makeCalls(srv, t.key, 12);
    const upstream = srv.sim.stats.total;
    const ids = await mintProposals(srv);
    assert.ok(ids.length > 0);
    assert.equal(srv.sim.stats.total, upstream, 'no Tier B request left the service');
    assert.equal(await n(srv, `learning_synthetic_batches b join learning_synthetic_generation_policies p on p.id = b.policy_id where p.tier = 'B'`), 0);
    assert.equal(await n(srv, 'learning_plane_budget_withdrawals'), 0);
    assert.ok((await n(srv, `learning_synthetic_batches`)) > 0, 'Tier A (free) still ran');
    const b = (await sql<{ spent_micros: bigint }>`select spent_micros from learning_plane_budgets where category = 'synthgen'`.execute(srv.services.db)).rows[0];
    assert.equal(b.spent_micros, 0n);
  });

  test('maxCostPerBatchMicros bounds the batch to the cases it pays for', async () => {
    const srv = await liveServer({});
    const [policyB] = (await loadEnabledPolicies(srv.services.db)).filter((p) => p.tier === 'B');
    const per = tierBCaseMicros(policyB);
    assert.ok(per > 0n);
    await sql`update learning_synthetic_generation_policies set max_cost_per_batch_micros = ${per * 3n} where id = ${policyB.id}`.execute(srv.services.db);
    const t = await tenantWithKey(srv);
    await makeCalls(srv, t.key, 12);
    await mintProposals(srv);
    const rows = (await sql<{ case_count: number; estimated_cost_micros: bigint }>`select case_count, estimated_cost_micros from learning_synthetic_batches where policy_id = ${policyB.id}`.execute(srv.services.db)).rows;
    assert.ok(rows.length > 0);
    for (const r of rows) {
      assert.equal(r.estimated_cost_micros, per * 3n);
      assert.ok(r.case_count <= 3);
    }
  });
});

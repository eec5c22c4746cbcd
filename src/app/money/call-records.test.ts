// The call rows the wallet writes (D7, D8): their keys, failed calls, and the benchmark attribution
// of the call context, against real PostgreSQL. Reserve, release and settleCall are in
// wallet.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { MODEL, callId, credit, newTenant, settlement, walletRow } from '../../../test/money.ts';
import { AppError } from '../../core/errors.ts';
import {
  invalidateCallContext,
  loadCallContext,
  recordFailedCall,
  reserve,
  resolveBenchmark,
  settleCall,
} from './wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

const s = () => srv.services;

const rejectsWith = (code: string) => (e: unknown) => e instanceof AppError && e.code === code;

describe('keys of the call rows (migrations 011, 030)', () => {
  const logRow = (tenantId: string, projectId: string, id = callId()) => sql`
    insert into call_logs (id, tenant_id, project_id, status, channel, task_family, model_class, provider_key, model_id, region, escalated, created_at)
    values (${id}, ${tenantId}, ${projectId}, 'failed', 'proxy:chat', 'chat', 'economy', 'openai', ${MODEL}, 'us', false, now())`;
  test("a call log's project must belong to its tenant", async () => {
    const a = await newTenant(s(), 'keys a');
    const b = await newTenant(s(), 'keys b');
    await logRow(a.tenantId, a.projectId).execute(s().db);
    await assert.rejects(logRow(a.tenantId, b.projectId).execute(s().db), /call_logs_project_tenant_fkey/);
  });
  // Migration 030 dropped the keys call_logs.ledger_entry_id → ledger_entries and
  // learning_outbox.call_id → call_logs: the settlement writes the three rows in one statement from
  // one row of its input, so they name each other and commit together, on both paths.
  test("a settlement's ledger entry, call log and learning row name each other, on the locking and the fast path", async () => {
    const t = await newTenant(s(), 'keys c');
    await credit(s(), t.tenantId, 100_000n);
    const before = { ...s().settler.stats };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
      await settleCall(s(), settlement(t, r));
      ids.push(r.id);
    }
    assert.ok(s().settler.stats.locked > before.locked, 'the first settlement of a tenant takes the locking path');
    assert.ok(s().settler.stats.fast > before.fast, 'the next ones take the fast path');
    const rows = await sql<{ call: string; entry: string | null; logged_entry: string | null; learning: string | null; learning_rows: string }>`
      select l.call_id as call, l.id as entry, c.ledger_entry_id as logged_entry, o.call_id as learning,
             (select count(*) from learning_outbox x where x.call_id = l.call_id)::text as learning_rows
        from ledger_entries l
        left join call_logs c on c.id = l.call_id
        left join learning_outbox o on o.call_id = l.call_id
       where l.tenant_id = ${t.tenantId} and l.event_type = 'AI_USAGE'`.execute(s().db);
    assert.deepEqual(rows.rows.map((r) => r.call).sort(), [...ids].sort());
    for (const r of rows.rows) {
      assert.equal(r.logged_entry, r.entry, 'the call log names its AI_USAGE entry');
      assert.equal(r.learning, r.call, 'the learning row names its call log');
      assert.equal(r.learning_rows, '1');
    }
  });

  test('a settlement that fails writes none of the three rows', async () => {
    const t = await newTenant(s(), 'keys d');
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    await assert.rejects(settleCall(s(), settlement(t, r), { extra: async () => { throw new Error('refused'); } }), /refused/);
    const n = await sql<{ le: string; cl: string; lo: string }>`
      select (select count(*) from ledger_entries where call_id = ${r.id})::text as le,
             (select count(*) from call_logs where id = ${r.id})::text as cl,
             (select count(*) from learning_outbox where call_id = ${r.id})::text as lo`.execute(s().db);
    assert.deepEqual(n.rows[0], { le: '0', cl: '0', lo: '0' });
  });
});

describe('recordFailedCall', () => {
  test('releases the hold and writes a failed call-log row, with no ledger entry', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const base = settlement(t, r);
    await recordFailedCall(s(), { ...base, reservation: r, errorCode: 'upstream_failed', provider: 'openai', model: MODEL, region: 'us-east', modelClass: 'economy' });
    await recordFailedCall(s(), { ...base, reservation: r, errorCode: 'upstream_failed' }); // idempotent
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 10_000n);
    assert.equal(w.reserved_micros, 0n);
    const c = await s().db.selectFrom('call_logs').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal(c.status, 'failed');
    assert.equal(c.error_code, 'upstream_failed');
    assert.equal(c.ledger_entry_id, null);
    assert.equal(c.debited_micros, 0n);
    assert.equal(await s().db.selectFrom('ledger_entries').select('id').where('call_id', '=', r.id).executeTakeFirst(), undefined);
  });
});

describe('benchmark resolution and call context', () => {
  test('project override beats the tenant baseline; changing the benchmark touches new calls only', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 100_000n);
    assert.equal(await resolveBenchmark(s(), t.tenantId, t.projectId), null);
    const patch = await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'anthropic' } });
    assert.equal(patch.status, 200);
    assert.equal(await resolveBenchmark(s(), t.tenantId, t.projectId), 'anthropic');

    const r1 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const s1 = await settleCall(s(), settlement(t, r1, { benchmarkProvider: await resolveBenchmark(s(), t.tenantId, t.projectId) }));
    assert.equal(s1.savings?.benchmarkProvider, 'anthropic');

    await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'google' } });
    const r2 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const s2 = await settleCall(s(), settlement(t, r2, { benchmarkProvider: await resolveBenchmark(s(), t.tenantId, t.projectId) }));
    // google economy reference gemini-2.5-flash-lite ($0.10 / $0.40): 100 + 200 = 300 micros.
    assert.equal(s2.savings?.benchmarkProvider, 'google');
    assert.equal(s2.savings?.baselineCostMicros, 300n);
    assert.equal(s2.savings?.tokensSavedMicros, -150n, 'negative savings are shown as they are');

    const rows = await s().db.selectFrom('ledger_entries').select(['call_id', 'benchmark_provider', 'baseline_cost_usd_micros']).where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').execute();
    const byCall = new Map(rows.map((r) => [r.call_id, r]));
    assert.equal(byCall.get(r1.id)?.benchmark_provider, 'anthropic', 'the earlier row keeps its benchmark');
    assert.equal(byCall.get(r1.id)?.baseline_cost_usd_micros, 2_800n);
    assert.equal(byCall.get(r2.id)?.benchmark_provider, 'google');
    const logs = await s().db.selectFrom('call_logs').select(['id', 'benchmark_provider']).where('tenant_id', '=', t.tenantId).execute();
    assert.equal(logs.find((l) => l.id === r1.id)?.benchmark_provider, 'anthropic');

    await s().db.updateTable('projects').set({ benchmark_override: 'mistral' }).where('id', '=', t.projectId).execute();
    assert.equal(await resolveBenchmark(s(), t.tenantId, t.projectId), 'mistral');
  });

  test('loadCallContext returns settings in one query and is cached briefly; API changes evict at once', async () => {
    const t = await newTenant(s());
    await s().db.updateTable('projects').set({ monthly_budget_micros: 5_000_000n, quality_floor: '0.750', region: 'eu' }).where('id', '=', t.projectId).execute();
    const c1 = await loadCallContext(s(), { tenantId: t.tenantId, projectId: t.projectId });
    assert.deepEqual(
      [c1.qualityFloor, c1.monthlyBudgetMicros, c1.region, c1.benchmarkProvider, c1.tenantBaselineProvider, c1.projectBenchmarkOverride],
      [0.75, 5_000_000n, 'eu', null, null, null],
    );
    // A direct SQL change (another replica) is seen after the TTL, not before.
    await s().db.updateTable('tenants').set({ baseline_provider_key: 'openai' }).where('id', '=', t.tenantId).execute();
    assert.equal((await loadCallContext(s(), { tenantId: t.tenantId, projectId: t.projectId })).benchmarkProvider, null);
    srv.clock.advance(5_001);
    assert.equal((await loadCallContext(s(), { tenantId: t.tenantId, projectId: t.projectId })).benchmarkProvider, 'openai');
    // A change through this replica's API evicts at once.
    await srv.api('PATCH', `/api/projects/${t.projectId}`, { token: t.accessToken, body: { benchmarkOverride: 'deepseek' } });
    assert.equal((await loadCallContext(s(), { tenantId: t.tenantId, projectId: t.projectId })).benchmarkProvider, 'deepseek');
    await s().db.updateTable('projects').set({ benchmark_override: null }).where('id', '=', t.projectId).execute();
    invalidateCallContext(s(), t.tenantId);
    assert.equal((await loadCallContext(s(), { tenantId: t.tenantId, projectId: t.projectId })).benchmarkProvider, 'openai');
    await assert.rejects(loadCallContext(s(), { tenantId: t.tenantId, projectId: callId() }), rejectsWith('not_found'));
  });
});

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

describe('keys of the call rows (migration 011)', () => {
  const logRow = (tenantId: string, projectId: string, id = callId()) => sql`
    insert into call_logs (id, tenant_id, project_id, status, channel, task_family, model_class, provider_key, model_id, region, escalated, created_at)
    values (${id}, ${tenantId}, ${projectId}, 'failed', 'proxy:chat', 'chat', 'economy', 'openai', ${MODEL}, 'us', false, now())`;
  test("a call log's project must belong to its tenant", async () => {
    const a = await newTenant(s(), 'keys a');
    const b = await newTenant(s(), 'keys b');
    await logRow(a.tenantId, a.projectId).execute(s().db);
    await assert.rejects(logRow(a.tenantId, b.projectId).execute(s().db), /call_logs_project_tenant_fkey/);
  });
  test('a learning-outbox row needs its call log, and goes with it', async () => {
    const t = await newTenant(s(), 'keys c');
    const learn = (id: string) => sql`
      insert into learning_outbox (call_id, tenant_id, project_id, model_id, request, input_tokens, output_tokens, latency_ms, created_at)
      values (${id}, ${t.tenantId}, ${t.projectId}, ${MODEL}, '{}'::jsonb, 1, 1, 1, now())`;
    await assert.rejects(learn(callId()).execute(s().db), /learning_outbox_call_id_fkey/);
    const id = callId();
    await logRow(t.tenantId, t.projectId, id).execute(s().db);
    await learn(id).execute(s().db);
    await s().db.deleteFrom('call_logs').where('id', '=', id).execute();
    assert.equal((await s().db.selectFrom('learning_outbox').select('id').where('call_id', '=', id).execute()).length, 0);
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

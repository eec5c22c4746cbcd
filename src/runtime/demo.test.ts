// The default run tells the product's story at once (D13): the demo tenant has benchmark provider
// openai and a few days of simulated history, so the overview's savings tiles, savings chart,
// runway and activity feed show real numbers; and the chart compares like with like (issue 14).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { signIn } from '../../test/helpers.ts';
import { callId, credit, newTenant, settlement } from '../../test/money.ts';
import { ensureDemo } from './demo.ts';
import { reserve, settleCall } from '../app/money/wallet.ts';
import { verifyLedger } from '../app/money/ledger-view.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

test('the demo tenant shows savings, a chart, a runway and activity on its first start', async () => {
  const demo = await ensureDemo(srv.services);
  const token = await signIn(srv, { email: demo.email, password: demo.password! });
  const o = (await srv.api('GET', '/api/tenant/insights/overview', { token })).body.data;
  assert.match(JSON.stringify(o.benchmark), /openai/, 'benchmark provider openai');
  assert.ok(BigInt(o.tiles.tokensSaved30d) > 0n, `tokens saved: ${o.tiles.tokensSaved30d}`);
  assert.ok(BigInt(o.tiles.percentSaved30dBps) > 0n);
  assert.ok(BigInt(o.tiles.serviceBurn30d) > 0n);
  assert.ok(typeof o.tiles.runway === 'number' && o.tiles.runway > 0, `runway: ${o.tiles.runway}`);
  const days = o.savingsChart.series.filter((d: { serviceBurnMicros: string }) => BigInt(d.serviceBurnMicros) > 0n);
  assert.ok(days.length >= 3, `${days.length} days with calls`);
  for (const d of days) assert.ok(BigInt(d.equivalentBurnMicros) > BigInt(d.serviceBurnMicros), `${d.day}: the openai equivalent costs more`);
  const usage = o.activity.items ?? o.activity;
  assert.ok(usage.filter((i: { kind: string }) => i.kind === 'ai_usage').length >= 10, 'the feed shows the calls');
  // The history is sealed like any call; a second start adds nothing.
  const t = await srv.services.db.selectFrom('memberships').innerJoin('users', 'users.id', 'memberships.user_id').select('tenant_id').where('users.email', '=', demo.email).executeTakeFirstOrThrow();
  assert.equal((await verifyLedger(srv.services.db, srv.services.secrets.ledger, t.tenant_id)).verified, true);
  const count = async () => (await srv.services.db.selectFrom('ledger_entries').select('id').where('tenant_id', '=', t.tenant_id).execute()).length;
  const before = await count();
  await ensureDemo(srv.services);
  assert.equal(await count(), before);
});

test('the savings chart sums the same rows on both lines: calls without a benchmark are counted apart', async () => {
  const t = await newTenant(srv.services);
  await credit(srv.services, t.tenantId, 10_000_000n);
  const token = t.accessToken;
  assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token, body: { providerKey: 'anthropic' } })).status < 300, true);
  // Two calls priced against the benchmark and one settled before any benchmark (null).
  for (const bench of ['anthropic', 'anthropic', null] as const) {
    const r = await reserve(srv.services, { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    await settleCall(srv.services, settlement(t, r, { benchmarkProvider: bench }));
  }
  const chart = (await srv.api('GET', '/api/tenant/insights/savings?window=7', { token })).body.data;
  const today = chart.series.at(-1);
  // gpt-4o-mini on 1000 in / 500 out = 450 micros a call.
  assert.equal(today.serviceBurnMicros, '900', 'only the two benchmarked calls');
  assert.equal(today.unbenchmarkedBurnMicros, '450');
  assert.ok(BigInt(today.equivalentBurnMicros) > 900n);
});

// /overview and /analytics numbers driven by real proxied calls: the five tiles, the savings chart
// in the locked vocabulary (and no fabricated 0 % without a benchmark), usage rollups, and the
// activity feed with its search and filters; no model names in customer copy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { signIn } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000' } });
});
after(() => srv.close());

const ask = (client: OpenAI, content: string) => client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content }] });

test('without a benchmark provider: savings are null and the chart asks for one, never 0 %', async () => {
  const t = await tenantWithKey(srv);
  await ask(new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }), 'Write a haiku about rain.');
  const o = await srv.api('GET', '/api/tenant/insights/overview', { token: t.accessToken });
  assert.equal(o.status, 200);
  assert.equal(o.body.data.benchmark, null);
  assert.equal(o.body.data.tiles.tokensSaved30d, null);
  assert.equal(o.body.data.tiles.percentSaved30dBps, null);
  assert.equal(o.body.data.equivalentLabel, 'Benchmark-equivalent burn');
  assert.ok(o.body.data.savingsChart.series.every((d: { equivalentBurnMicros: string | null }) => d.equivalentBurnMicros === null));
  assert.ok(BigInt(o.body.data.tiles.serviceBurn30d) > 0n);
});

test('with a benchmark: tiles, the 7/30/90-day chart, rollups and the feed agree with the calls made', async () => {
  const t = await tenantWithKey(srv);
  await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } });
  const p2 = (await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'Research bot' } })).body.data.id;
  const k2 = (await srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'r', environment: 'dev', projectId: p2 } })).body.data.key;
  const c1 = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  const c2 = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: k2, maxRetries: 0 });
  await ask(c1, 'Summarise the plot of Hamlet in two sentences.');
  await ask(c1, 'Write a Python function that reverses a string.');
  await ask(c2, 'Find three papers about coral bleaching zebrafish.');

  const o = (await srv.api('GET', '/api/tenant/insights/overview', { token: t.accessToken })).body.data;
  assert.deepEqual(o.benchmark, { providerKey: 'openai', brand: 'OpenAI' });
  assert.equal(o.equivalentLabel, 'OpenAI-equivalent burn');
  const wallet = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data;
  assert.equal(o.tiles.walletBalance.tokens, wallet.balance);
  const ledger = (await srv.api('GET', '/api/tenant/ledger?type=AI_USAGE', { token: t.accessToken })).body.data.items;
  const burn = ledger.reduce((a: bigint, e: { amountMicros: string }) => a - BigInt(e.amountMicros), 0n);
  assert.equal(o.tiles.serviceBurn30d, burn.toString());
  assert.notEqual(o.tiles.tokensSaved30d, null);
  assert.equal(o.savingsChart.series.length, 30);
  const today = o.savingsChart.series.at(-1);
  assert.equal(today.serviceBurnMicros, burn.toString());
  assert.notEqual(today.equivalentBurnMicros, null);
  for (const w of ['7', '90']) {
    const r = await srv.api('GET', `/api/tenant/insights/savings?window=${w}`, { token: t.accessToken });
    assert.equal(r.body.data.series.length, Number(w));
  }
  assert.equal((await srv.api('GET', '/api/tenant/insights/savings?window=14', { token: t.accessToken })).status, 400);
  // Customer copy never names a model.
  assert.equal(/gpt|claude|gemini|mistral-|deepseek-/i.test(JSON.stringify(o)), false);
  assert.equal(o.activity.filter((a: { kind: string }) => a.kind !== 'wallet').length, 3);
  assert.ok(o.activity.some((a: { kind: string; label: string }) => a.kind === 'wallet' && a.label === 'Adjustment'));

  const u = (await srv.api('GET', '/api/tenant/insights/usage', { token: t.accessToken })).body.data;
  assert.equal(u.byProject.reduce((a: number, r: { calls: number }) => a + r.calls, 0), 3);
  assert.deepEqual(u.byProject.map((r: { projectName: string; calls: number }) => [r.projectName, r.calls]).sort(), [['Default project', 2], ['Research bot', 1]]);
  assert.ok(u.byTaskFamily.length >= 1);
  assert.equal(u.byHour.reduce((a: number, r: { calls: number }) => a + r.calls, 0), 3);

  const search = (q: string) => srv.api('GET', `/api/tenant/insights/activity?${q}`, { token: t.accessToken }).then((r) => r.body.data.items);
  assert.equal((await search('search=Hamlet')).length, 1);
  assert.equal((await search('search=research%20bot')).length, 1, 'project names are searched');
  assert.equal((await search(`projectId=${p2}`)).length, 1);
  assert.ok((await search('channel=wallet')).every((a: { kind: string }) => a.kind === 'wallet'));
  const analytics = await search('channel=proxy');
  assert.equal(analytics.length, 3);
  assert.ok(analytics[0].deliveryPath.model, 'the analytics feed shows the approved delivery path');
  assert.equal((await search(`search=${encodeURIComponent(analytics[0].deliveryPath.model)}`)).length >= 1, true, 'model ids are searchable in analytics');
  assert.equal((await search('search=100%25')).length, 0, 'LIKE wildcards are matched literally');
});

test('a balance alert appears in the overview feed (the feed carries threshold alerts, spec §1 /overview)', async () => {
  const { evaluateWalletThresholds } = await import('../../../app/events/notifications.ts');
  const t = await tenantWithKey(srv, { micros: 2_000_000n });
  const patch = await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { balanceThresholdMicros: '5000000' } });
  assert.equal(patch.status, 200, JSON.stringify(patch.body));
  const fired = await evaluateWalletThresholds(srv.services, t.tenantId);
  assert.deepEqual(fired.map((f) => f.type), ['wallet.threshold']);
  const o = await srv.api('GET', '/api/tenant/insights/overview', { token: t.accessToken });
  const alert = o.body.data.activity.find((i: { kind: string }) => i.kind === 'alert');
  assert.ok(alert, JSON.stringify(o.body.data.activity));
  assert.equal(alert.label, 'Balance below your alert threshold');
  assert.equal(alert.amountMicros, '2000000');
  assert.deepEqual(alert.threshold, { kind: 'balance', thresholdMicros: '5000000', runwayDays: null, thresholdDays: null });
  // Another tenant sees none of it.
  const other = await tenantWithKey(srv);
  const o2 = await srv.api('GET', '/api/tenant/insights/overview', { token: other.accessToken });
  assert.equal(o2.body.data.activity.filter((i: { kind: string }) => i.kind === 'alert').length, 0);
});

test('usage by hour: exactly the last 48 UTC hours, oldest first, the current one last, zeros for hours without calls', async () => {
  const t = await tenantWithKey(srv);
  const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  const HOUR = 3_600_000;
  const hourKey = (ms: number) => new Date(Math.floor(ms / HOUR) * HOUR).toISOString().replace('.000Z', 'Z');
  await ask(c, 'Name a prime number.');
  const first = hourKey(srv.clock.now().getTime());
  srv.clock.advance(3 * HOUR);
  await ask(c, 'Name another prime number.');
  const now = srv.clock.now().getTime();
  // Three hours on, the access token has expired (15 minutes): sign in again.
  const u = (await srv.api('GET', '/api/tenant/insights/usage', { token: await signIn(srv, t) })).body.data;
  assert.equal(u.byHour.length, 48);
  const keys = u.byHour.map((r: { hour: string }) => r.hour);
  assert.deepEqual(keys, Array.from({ length: 48 }, (_, i) => hourKey(now - (47 - i) * HOUR)), 'every hour, in order, ending with the current one');
  const at = (k: string) => u.byHour.find((r: { hour: string }) => r.hour === k);
  assert.equal(at(first).calls, 1);
  assert.equal(at(hourKey(now)).calls, 1);
  assert.ok(BigInt(at(first).serviceBurnMicros) > 0n);
  for (const k of [hourKey(now - HOUR), hourKey(now - 2 * HOUR), hourKey(now - 47 * HOUR)]) {
    assert.deepEqual(at(k), { hour: k, calls: 0, tokens: '0', serviceBurnMicros: '0' }, `${k} had no call`);
  }
  assert.equal(u.byHour.filter((r: { calls: number }) => r.calls > 0).length, 2);
});

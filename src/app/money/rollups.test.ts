// The insights' daily rollups (issue 15 item 8): whatever the rollup's progress, the sums are the
// ledger's own. A tenant gets a seeded history (scripts/seed-large.ts, rolled up as it ends) and
// then real calls through the proxy that are not rolled up yet; every range (partial days at both
// edges, whole days, less than a day, the whole history) and every grouping must equal the plain
// scan of the ledger, before and after the job runs, and after two jobs race. The server runs
// without its worker, so the job runs only when a test runs it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { seedLargeHistory } from '../../../scripts/seed-large.ts';
import { ledgerSums, rollUpLedger, type GroupBy } from './ledger-rollups.repo.ts';
import { callSums, pathSums } from './call-rollups.repo.ts';
import { verifyLedger } from './ledger-view.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
const DAY = 86_400_000;

/** Run `f` with the tenant's rollup out of the way (a plain scan of the ledger and call log), then put it back. */
async function withoutRollup<T>(f: () => Promise<T>): Promise<T> {
  const st = await srv.services.db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', t.tenantId).executeTakeFirst();
  await srv.services.db.deleteFrom('insights_rollup_state').where('tenant_id', '=', t.tenantId).execute();
  try {
    return await f();
  } finally {
    if (st) await srv.services.db.insertInto('insights_rollup_state').values({ tenant_id: t.tenantId, last_seq: st.last_seq }).execute();
  }
}

/** The same sums with the rollup out of the way: a plain scan, the reference. */
async function scan(from: Date, to: Date, g: GroupBy, calls = true) {
  const st = await srv.services.db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', t.tenantId).executeTakeFirst();
  await srv.services.db.deleteFrom('insights_rollup_state').where('tenant_id', '=', t.tenantId).execute();
  try {
    return await ledgerSums(srv.services.db, t.tenantId, from, to, g, { calls });
  } finally {
    if (st) await srv.services.db.insertInto('insights_rollup_state').values({ tenant_id: t.tenantId, last_seq: st.last_seq }).execute();
  }
}

async function call(text: string) {
  const r = await fetch(`${srv.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
    body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: text }] }),
  });
  assert.equal(r.status, 200, await r.text());
}

function ranges(now: Date) {
  const n = now.getTime();
  return [
    ['the whole history', new Date(n - 12 * DAY), new Date(n + 1)],
    ['partial days at both edges', new Date(n - 9 * DAY + 5 * 3_600_000 + 17), new Date(n - 2 * DAY - 3 * 3_600_000)],
    ['less than a day', new Date(n - 4 * DAY + 3_600_000), new Date(n - 4 * DAY + 9 * 3_600_000)],
    ['from a midnight to now', new Date(Math.floor((n - 6 * DAY) / DAY) * DAY), new Date(n + 1)],
    ['the last 30 minutes', new Date(n - 30 * 60_000), new Date(n + 1)],
  ] as const;
}

before(async () => {
  // No worker: its rollup job would refill the buckets while a test has the watermark out of the way.
  srv = await startTestServer({ worker: false });
  t = await tenantWithKey(srv);
  const seeded = await seedLargeHistory(srv.services.db, srv.services.secrets.ledger, { tenantId: t.tenantId, calls: 3_000, days: 10, now: new Date(srv.clock.now().getTime() - 3_600_000) });
  assert.equal(seeded.calls, 3_000);
});
after(async () => srv?.close());

describe('insights rollups', () => {
  test('the seeded history is a sealed chain that verifies, and it is rolled up', async () => {
    const v = await verifyLedger(srv.services.db, srv.services.secrets.ledger, t.tenantId);
    assert.equal(v.verified, true, JSON.stringify(v));
    const st = await srv.services.db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    const w = await srv.services.db.selectFrom('wallets').select('ledger_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.equal(st.last_seq, w.ledger_seq);
    const buckets = await sql<{ n: number }>`select count(*)::int as n from insights_ledger_hourly where tenant_id = ${t.tenantId}`.execute(srv.services.db);
    assert.ok(buckets.rows[0]!.n >= 200, 'a bucket per hour and project');
  });

  test('with entries above the watermark, every range and grouping equals the plain scan', async () => {
    for (let i = 0; i < 4; i++) await call(`Summarise the note number ${i} in one line.`);
    const st = await srv.services.db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    const w = await srv.services.db.selectFrom('wallets').select('ledger_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.ok(w.ledger_seq > st.last_seq, 'the proxy calls are not rolled up yet');
    for (const [what, from, to] of ranges(srv.clock.now())) {
      for (const g of ['none', 'day', 'hour', 'project'] as const) {
        assert.deepEqual(await ledgerSums(srv.services.db, t.tenantId, from, to, g, { calls: true }), await scan(from, to, g), `${what}, grouped by ${g}`);
        assert.deepEqual(await ledgerSums(srv.services.db, t.tenantId, from, to, g), await scan(from, to, g, false), `${what}, grouped by ${g}, money only`);
      }
    }
    const whole = (await ledgerSums(srv.services.db, t.tenantId, new Date(0), new Date(srv.clock.now().getTime() + 1), 'none', { calls: true }))[0]!;
    const direct = await sql<{ burn: bigint; n: bigint }>`select sum(-amount_micros)::bigint as burn, count(*)::bigint as n from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(srv.services.db);
    assert.equal(whole.burn, direct.rows[0]!.burn, 'burn is the sum of the AI usage debits');
    assert.ok(whole.calls > 3_000n && whole.escalations > 0n, 'first attempts and escalations are counted');
  });

  test('two jobs racing add each entry once, and the sums stay the scan’s', async () => {
    await call('One more call before the jobs run.');
    const [a, b] = await Promise.all([rollUpLedger(srv.services.db), rollUpLedger(srv.services.db)]);
    assert.ok(a + b > 0, 'the new entries were added');
    const st = await srv.services.db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    const w = await srv.services.db.selectFrom('wallets').select('ledger_seq').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.equal(st.last_seq, w.ledger_seq);
    for (const [what, from, to] of ranges(srv.clock.now())) {
      for (const g of ['none', 'day', 'hour', 'project'] as const) {
        assert.deepEqual(await ledgerSums(srv.services.db, t.tenantId, from, to, g, { calls: true }), await scan(from, to, g), `${what}, grouped by ${g}`);
        assert.deepEqual(await ledgerSums(srv.services.db, t.tenantId, from, to, g), await scan(from, to, g, false), `${what}, grouped by ${g}, money only`);
      }
    }
  });

  test('the call log’s sums (by family, project, class, delivery path) equal the plain scan', async () => {
    await call('A call above the watermark for the call sums.');
    for (const [what, from, to] of ranges(srv.clock.now())) {
      for (const g of ['none', 'family', 'project', 'class'] as const) {
        const rolled = await callSums(srv.services.db, t.tenantId, from, to, g);
        assert.deepEqual(rolled, await withoutRollup(() => callSums(srv.services.db, t.tenantId, from, to, g)), `${what}, by ${g}`);
      }
      assert.deepEqual(await pathSums(srv.services.db, t.tenantId, from, to), await withoutRollup(() => pathSums(srv.services.db, t.tenantId, from, to)), `${what}, paths`);
    }
  });

  test('the usage and audit answers are the same with and without the rollup', async () => {
    const login = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const token = login.body.data.tokens.accessToken as string;
    for (const path of ['/api/tenant/insights/usage', '/api/tenant/insights/audit', '/api/tenant/insights/overview', '/api/tenant/insights/summary?period=mtd']) {
      const rolled = await srv.api('GET', path, { token });
      assert.equal(rolled.status, 200, JSON.stringify(rolled.body));
      const plain = await withoutRollup(() => srv.api('GET', path, { token }));
      assert.deepEqual(rolled.body, plain.body, path);
    }
    const audit = await srv.api('GET', '/api/tenant/insights/audit', { token });
    assert.ok(audit.body.data.decisions.attempts > 3_000 && audit.body.data.decisions.byTaskFamily.length > 1 && audit.body.data.decisions.deliveryPaths.length > 1);
  });

  test('the API’s savings series and custom summary read the same numbers as the scan', async () => {
    const login = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const token = login.body.data.tokens.accessToken as string;
    const series = await srv.api('GET', '/api/tenant/insights/savings?window=7', { token });
    assert.equal(series.status, 200, JSON.stringify(series.body));
    const now = srv.clock.now();
    const since = new Date(Math.floor(now.getTime() / DAY) * DAY - 6 * DAY);
    const byDay = new Map((await scan(since, new Date(now.getTime() + 1), 'day')).map((r) => [r.key, r]));
    for (const d of series.body.data.series as Array<{ day: string; serviceBurnMicros: string; equivalentBurnMicros: string | null }>) {
      const r = byDay.get(d.day);
      assert.equal(d.serviceBurnMicros, (r?.compared ?? 0n).toString(), d.day);
      assert.equal(d.equivalentBurnMicros, (r?.baseline ?? 0n).toString(), d.day);
    }
    const from = new Date(now.getTime() - 8 * DAY + 7 * 3_600_000);
    const to = new Date(now.getTime() - 2 * DAY - 5 * 3_600_000);
    const sum = await srv.api('GET', `/api/tenant/insights/summary?period=custom&from=${from.toISOString()}&to=${to.toISOString()}`, { token });
    assert.equal(sum.status, 200, JSON.stringify(sum.body));
    const [ref] = await scan(from, to, 'none');
    assert.equal(sum.body.data.current.serviceBurnMicros, ref!.burn.toString());
    assert.equal(sum.body.data.current.tokensSaved, (ref!.baseline - ref!.actual).toString());
    assert.equal(sum.body.data.current.calls, Number(ref!.calls));
    assert.equal(sum.body.data.current.escalations, Number(ref!.escalations));
    assert.ok(ref!.calls > 1_000n, 'the range holds a good part of the history');
  });
});

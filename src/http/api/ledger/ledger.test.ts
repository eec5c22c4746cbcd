// The ledger API (D8, D9): filters, cursor pages, the server-side running balance, the customer
// view without internal columns, the admin view with all of them, and verification that names
// exactly the altered row and recomputes HMAC, not plain SHA-256 (the reference's known fault).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { callId, credit, makePlatformAdmin, memberOf, newTenant, settlement, type Tenant } from '../../../../test/money.ts';
import { reserve, settleCall } from '../../../app/money/wallet.ts';
import { sealedRowOf, verifyLedger } from '../../../app/money/ledger-view.ts';
import { ledgerPayloadOf } from '../../../core/ledger/payload.ts';
import { seal } from '../../../core/ledger/seal.ts';
import { canonicalJson } from '../../../core/ledger/canonical-json.ts';
import { createProject } from '../../../app/projects/projects.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());
const s = () => srv.services;

const CUSTOMER_KEYS = [
  'amountMicros',
  'balanceAfterMicros',
  'benchmarkProvider',
  'callId',
  'createdAt',
  'customerLabel',
  'id',
  'memo',
  'prevHash',
  'projectId',
  'runningBalanceMicros',
  'sealHash',
  'tenantId',
];
const INTERNAL = ['eventType', 'modelId', 'providerKey', 'actualCostUsdMicros', 'baselineCostUsdMicros', 'benchmarkPricingVersion', 'benchmarkMethodologyVersion'];

/** A tenant with a credit, usage on two projects (one with a large call) and a second credit. */
async function populated(): Promise<Tenant & { second: string; calls: string[] }> {
  const t = await newTenant(s());
  const second = (await createProject(s().db, t.tenantId, { name: 'Second' })).id;
  await credit(s(), t.tenantId, 10_000_000n, 'Opening credit');
  const calls: string[] = [];
  for (const [project, out] of [
    [t.projectId, 500],
    [second, 500],
    [t.projectId, 200_000], // 150 + 120,000 = 120,150 micros
    [second, 1_000],
  ] as const) {
    srv.clock.advance(1_000);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: project, callId: callId(), amountMicros: 200_000n });
    await settleCall(s(), settlement({ tenantId: t.tenantId, projectId: project }, r, { usage: { inputTokens: 1000, outputTokens: out } }));
    calls.push(r.id);
  }
  srv.clock.advance(1_000);
  await credit(s(), t.tenantId, 2_000_000n, 'Goodwill');
  return { ...t, second, calls };
}

const list = async (token: string, qs = '') => {
  const r = await srv.api('GET', `/api/tenant/ledger${qs}`, { token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as { items: Array<Record<string, string | null>>; nextCursor: string | null };
};

describe('GET /api/tenant/ledger', () => {
  test('customer rows: labels, no internal columns, decimal strings, seal hashes, newest first, running balance', async () => {
    const t = await populated();
    const page = await list(t.accessToken);
    assert.equal(page.items.length, 6);
    assert.equal(page.nextCursor, null);
    for (const row of page.items) {
      assert.deepEqual(Object.keys(row).sort(), CUSTOMER_KEYS, 'exactly the customer columns');
      for (const k of INTERNAL) assert.equal(k in row, false, `${k} is internal`);
      assert.match(row.amountMicros!, /^-?\d+$/);
      assert.match(row.sealHash!, /^[0-9a-f]{64}$/);
      assert.equal(row.runningBalanceMicros, row.balanceAfterMicros);
    }
    assert.deepEqual(
      page.items.map((r) => r.customerLabel),
      ['Adjustment', 'AI usage', 'AI usage', 'AI usage', 'AI usage', 'Adjustment'],
    );
    assert.equal(page.items[0].runningBalanceMicros, (10_000_000n - 450n - 450n - 120_150n - 750n + 2_000_000n).toString());
    assert.equal(page.items[5].prevHash, '0'.repeat(64));
    assert.equal(page.items[4].prevHash, page.items[5].sealHash, 'each row links to the one before');
    const usage = page.items.find((r) => r.customerLabel === 'AI usage')!;
    assert.equal(usage.benchmarkProvider, 'anthropic', 'the benchmark is a brand key, not an internal column');
  });

  test('filters: type (code or label), project, time range, amount magnitude; running balance does not move with filters', async () => {
    const t = await populated();
    const all = await list(t.accessToken);
    const running = new Map(all.items.map((r) => [r.id, r.runningBalanceMicros]));
    const check = (items: Array<Record<string, string | null>>) => {
      for (const r of items) assert.equal(r.runningBalanceMicros, running.get(r.id!), 'same running balance whatever the filter');
    };

    const usage = await list(t.accessToken, '?type=AI_USAGE');
    assert.equal(usage.items.length, 4);
    check(usage.items);
    const credits = await list(t.accessToken, '?type=adjustment');
    assert.equal(credits.items.length, 2);
    const byLabel = await list(t.accessToken, `?type=${encodeURIComponent('AI usage,Top-up')}`);
    assert.equal(byLabel.items.length, 4);
    const bad = await srv.api('GET', '/api/tenant/ledger?type=BONUS', { token: t.accessToken });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'type');

    const second = await list(t.accessToken, `?projectId=${t.second}`);
    assert.equal(second.items.length, 2);
    assert.ok(second.items.every((r) => r.projectId === t.second));
    check(second.items);

    const big = await list(t.accessToken, '?minAmount=1000&maxAmount=3000000');
    // |−120,150| and +2,000,000 (the 450 / 750 debits and the 10,000,000 credit fall outside).
    assert.deepEqual(big.items.map((r) => r.amountMicros), ['2000000', '-120150']);
    check(big.items);
    const exact = await list(t.accessToken, '?minAmount=750&maxAmount=750');
    assert.deepEqual(exact.items.map((r) => r.amountMicros), ['-750'], 'bounds are inclusive');

    const times = all.items.map((r) => r.createdAt!).reverse(); // oldest first
    const window = await list(t.accessToken, `?from=${encodeURIComponent(times[1])}&to=${encodeURIComponent(times[3])}`);
    assert.deepEqual(window.items.map((r) => r.createdAt), [times[2], times[1]], 'from inclusive, to exclusive');
    check(window.items);

    const combo = await list(t.accessToken, `?type=AI_USAGE&projectId=${t.projectId}&minAmount=451`);
    assert.deepEqual(combo.items.map((r) => r.amountMicros), ['-120150']);

    for (const q of ['?projectId=nope', '?from=yesterday', '?minAmount=-5', '?minAmount=1.5', '?limit=201', '?limit=0', '?bogus=1']) {
      const r = await srv.api('GET', `/api/tenant/ledger${q}`, { token: t.accessToken });
      assert.equal(r.status, 400, q);
    }
  });

  test('cursor pages walk the whole ledger once; the default page is 50 rows, at most 200', async () => {
    const t = await populated();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const p = await list(t.accessToken, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...p.items.map((r) => r.id!));
      for (const r of p.items) assert.equal(r.runningBalanceMicros, r.balanceAfterMicros, 'running balance holds across page boundaries');
      cursor = p.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 2);
    assert.equal(new Set(seen).size, 6);
    const filtered = await list(t.accessToken, '?type=AI_USAGE&limit=3');
    assert.equal(filtered.items.length, 3);
    const rest = await list(t.accessToken, `?type=AI_USAGE&limit=3&cursor=${filtered.nextCursor}`);
    assert.equal(rest.items.length, 1);
    assert.equal(rest.nextCursor, null);
    const badCursor = await srv.api('GET', '/api/tenant/ledger?cursor=garbage', { token: t.accessToken });
    assert.equal(badCursor.status, 400);

    const many = await newTenant(s());
    for (let i = 0; i < 55; i++) await credit(s(), many.tenantId, 1n);
    assert.equal((await list(many.accessToken)).items.length, 50);
    assert.equal((await list(many.accessToken, '?limit=200')).items.length, 55);
  });

  test('the running balance is computed from the chain, not copied from the row', async () => {
    const t = await populated();
    const before = await list(t.accessToken);
    const middle = before.items[2];
    await sql`update ledger_entries set balance_after_micros = balance_after_micros + 1 where id = ${middle.id}`.execute(s().db);
    const after = await list(t.accessToken);
    const row = after.items.find((r) => r.id === middle.id)!;
    assert.equal(BigInt(row.balanceAfterMicros!), BigInt(middle.balanceAfterMicros!) + 1n);
    assert.equal(row.runningBalanceMicros, middle.runningBalanceMicros, 'the computed balance exposes the edited column');
  });

  test('tenants see only their own ledger; any member reads it', async () => {
    const a = await populated();
    const b = await newTenant(s());
    assert.equal((await list(b.accessToken)).items.length, 0);
    assert.equal((await list(b.accessToken, `?projectId=${a.projectId}`)).items.length, 0);
    const viewer = await memberOf(s(), a.tenantId, 'viewer');
    assert.equal((await list(viewer.accessToken)).items.length, 6);
    const v = await srv.api('GET', '/api/tenant/ledger/verify', { token: viewer.accessToken });
    assert.equal(v.status, 200);
    assert.equal(v.body.data.checked, 6);
  });
});

describe('admin ledger view', () => {
  test('platform admins see every column of any tenant; nobody else gets in', async () => {
    const t = await populated();
    const admin = await newTenant(s());
    const denied = await srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger`, { token: t.accessToken });
    assert.equal(denied.status, 403, 'a tenant owner is not a platform admin');
    assert.equal((await srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger/verify`, { token: t.accessToken })).status, 403);
    await makePlatformAdmin(s(), admin.userId);
    const r = await srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger?type=AI_USAGE&limit=1`, { token: admin.accessToken });
    assert.equal(r.status, 200);
    const row = r.body.data.items[0];
    for (const k of [...CUSTOMER_KEYS, ...INTERNAL, 'seq']) assert.ok(k in row, `${k} is shown to admins`);
    assert.equal(row.eventType, 'AI_USAGE');
    assert.equal(row.modelId, 'gpt-4o-mini');
    assert.equal(row.providerKey, 'openai');
    assert.equal(row.actualCostUsdMicros, '750');
    assert.equal(row.baselineCostUsdMicros, '4800');
    assert.equal(row.benchmarkPricingVersion, 'pb-2026-11-01');
    assert.equal(row.benchmarkMethodologyVersion, 'sav-v1');
    const v = await srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger/verify`, { token: admin.accessToken });
    assert.deepEqual(v.body.data, { verified: true, firstBroken: null, checked: 6, reason: null });
  });
});

describe('GET /api/tenant/ledger/verify', () => {
  test('an intact chain verifies; altering one row in SQL names exactly that row', async () => {
    const t = await populated();
    const ok = await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken });
    assert.deepEqual(ok.body.data, { verified: true, firstBroken: null, checked: 6, reason: null });
    const rows = (await list(t.accessToken)).items.reverse(); // chain order
    // Each kind of edit to the third row: amount, a sealed audit column, the timestamp.
    for (const edit of [
      sql`update ledger_entries set amount_micros = amount_micros - 1 where id = ${rows[2].id}`,
      sql`update ledger_entries set baseline_cost_usd_micros = 1 where id = ${rows[2].id}`,
      sql`update ledger_entries set created_at = created_at + interval '1 second' where id = ${rows[2].id}`,
    ]) {
      const snapshot = await s().db.selectFrom('ledger_entries').selectAll().where('id', '=', rows[2].id!).executeTakeFirstOrThrow();
      await edit.execute(s().db);
      const bad = await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken });
      assert.equal(bad.body.data.verified, false);
      assert.equal(bad.body.data.firstBroken, rows[2].id, 'the altered row, not its successor');
      assert.equal(bad.body.data.checked, 3);
      await s().db
        .updateTable('ledger_entries')
        .set({ amount_micros: snapshot.amount_micros, baseline_cost_usd_micros: snapshot.baseline_cost_usd_micros, created_at: snapshot.created_at })
        .where('id', '=', rows[2].id!)
        .execute();
      assert.equal((await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken })).body.data.verified, true);
    }
  });

  test('a deleted row breaks the next link; a deleted tail shows against the wallet head', async () => {
    const t = await populated();
    const rows = (await list(t.accessToken)).items.reverse();
    await sql`update call_logs set ledger_entry_id = null where ledger_entry_id = ${rows[1].id}`.execute(s().db);
    await sql`delete from ledger_entries where id = ${rows[1].id}`.execute(s().db);
    const gap = await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken });
    assert.equal(gap.body.data.verified, false);
    assert.equal(gap.body.data.firstBroken, rows[2].id);

    const u = await populated();
    const urows = (await list(u.accessToken)).items;
    await sql`delete from ledger_entries where id = ${urows[0].id}`.execute(s().db);
    const tail = await srv.api('GET', '/api/tenant/ledger/verify', { token: u.accessToken });
    assert.equal(tail.body.data.verified, false);
    assert.equal(tail.body.data.firstBroken, null);
    assert.match(tail.body.data.reason, /entries are missing/);

    const w = await populated();
    await sql`update wallets set balance_micros = balance_micros + 1000000 where tenant_id = ${w.tenantId}`.execute(s().db);
    const minted = await srv.api('GET', '/api/tenant/ledger/verify', { token: w.accessToken });
    assert.equal(minted.body.data.verified, false);
    assert.match(minted.body.data.reason, /balance does not match/);
  });

  test('verification streams the chain in batches and finds a break in a later batch', async () => {
    const t = await populated();
    for (let i = 0; i < 7; i++) await credit(s(), t.tenantId, 1n);
    const whole = await verifyLedger(s().db, s().secrets.ledger, t.tenantId);
    assert.deepEqual(await verifyLedger(s().db, s().secrets.ledger, t.tenantId, 2), whole);
    assert.equal(whole.checked, 13);
    const rows = await s().db.selectFrom('ledger_entries').select(['id', 'seq']).where('tenant_id', '=', t.tenantId).orderBy('seq').execute();
    await sql`update ledger_entries set memo = 'not sealed', amount_micros = 2 where id = ${rows[10].id}`.execute(s().db);
    const v = await verifyLedger(s().db, s().secrets.ledger, t.tenantId, 3);
    assert.deepEqual([v.verified, v.firstBroken, v.checked], [false, rows[10].id, 11]);
  });

  test('the known fault is absent: seals are HMAC with the server secret, never plain SHA-256', async () => {
    const t = await populated();
    const rows = await s().db.selectFrom('ledger_entries').selectAll().where('tenant_id', '=', t.tenantId).orderBy('seq').execute();
    // The sealed columns exactly as verification reads them.
    const payloadOf = (r: (typeof rows)[number]) => ledgerPayloadOf(sealedRowOf(r));
    const sha = (prev: string, p: object) => createHash('sha256').update(prev).update(canonicalJson(p)).digest('hex');
    for (const r of rows) {
      assert.equal(r.seal_hash, seal(s().secrets.ledger, r.prev_hash, payloadOf(r)), 'HMAC-SHA256 keyed with the ledger secret');
      assert.notEqual(r.seal_hash, sha(r.prev_hash, payloadOf(r)), 'not a plain SHA-256');
    }
    // The faulty verifier (plain SHA-256) would report a false break on the very first, correct row:
    assert.notEqual(rows[0].seal_hash, sha(rows[0].prev_hash, payloadOf(rows[0])));
    // ...while the real one verifies the chain.
    assert.equal((await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken })).body.data.verified, true);

    // And a forger without the secret who rewrites a row and re-chains everything after it with
    // plain SHA-256 is caught at the rewritten row.
    let prev = rows[1].prev_hash;
    for (const r of rows.slice(1)) {
      const forged = { ...r, amount_micros: r.id === rows[1].id ? r.amount_micros + 1_000n : r.amount_micros };
      const h = sha(prev, payloadOf(forged));
      await sql`update ledger_entries set amount_micros = ${forged.amount_micros}, prev_hash = ${prev}, seal_hash = ${h} where id = ${r.id}`.execute(s().db);
      prev = h;
    }
    await sql`update wallets set last_seal_hash = ${prev} where tenant_id = ${t.tenantId}`.execute(s().db);
    const v = await srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken });
    assert.equal(v.body.data.verified, false);
    assert.equal(v.body.data.firstBroken, rows[1].id);
  });
});

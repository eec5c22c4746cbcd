// The eight admin learning-plane endpoints (spec §4, D9, D15) over HTTP on the real server:
// platform admins only, filters and cursor pages, a proposal's gate history, synthetic batches and
// cases, replay runs and results, cost breakdown, and the audited budget PATCH. Also the default
// run's seeded platform admin and `switchboard admin grant <email>`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { signupTenant, startTestServer, tenantWithKey, type TestServer } from '../../../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls, mintProposals } from '../../../../../test/learning.ts';
import { ADMIN_EMAIL, ensurePlatformAdmin, grantPlatformAdmin } from '../../../../app/identity/platform-admin.ts';

let srv: TestServer;
let admin: string;
let member: string;
let proposals: string[];

before(async () => {
  srv = await startTestServer({ env: LEARNING_TEST_ENV });
  const t = await tenantWithKey(srv);
  member = t.accessToken;
  await makeCalls(srv, t.key, 12);
  proposals = await mintProposals(srv);
  const a = await signupTenant(srv, 'ops');
  await grantPlatformAdmin(srv.services.db, a.email);
  admin = a.accessToken;
});
after(() => srv.close());

const get = (path: string, token = admin) => srv.api('GET', path, { token });

describe('admin learning-plane endpoints', () => {
  test('platform admins only: a tenant owner gets 403 on every one of them', async () => {
    const id = proposals[0];
    for (const p of ['', `/${id}`, `/${id}/synthetic`, `/${id}/replay`, `/${id}/gates`, `/${id}/cost`]) {
      const r = await get(`/api/admin/learning/proposals${p}`, member);
      assert.equal(r.status, 403, p);
      assert.equal(r.body.success, false);
    }
    assert.equal((await get('/api/admin/learning/budget', member)).status, 403);
    const patch = await srv.api('PATCH', `/api/admin/learning/budget/${id}`, { token: member, body: { budgetMicros: '1' } });
    assert.equal(patch.status, 403);
  });

  test('proposals: minted, filterable by status, priority and source signal, in cursor pages', async () => {
    const all = await get('/api/admin/learning/proposals');
    assert.equal(all.status, 200);
    assert.equal(all.body.data.items.length, proposals.length);
    const p = all.body.data.items[0];
    assert.equal(p.status, 'minted');
    assert.equal(p.sourceSignal, 'coverage');
    assert.equal(p.priority, 'low');
    assert.equal(p.manifestId, null);
    assert.equal(p.approvedByUserId, null);
    assert.equal(p.rejectReason, null);
    assert.equal(p.approvedAt, null);
    assert.match(p.validationCostMicros, /^\d+$/);
    assert.equal(typeof p.validationStale, 'boolean');
    assert.equal(p.override.kind, 'class');
    assert.equal((await get('/api/admin/learning/proposals?sourceSignal=coverage&priority=low&status=minted')).body.data.items.length, proposals.length);
    assert.equal((await get('/api/admin/learning/proposals?sourceSignal=quality')).body.data.items.length, 0);
    assert.equal((await get('/api/admin/learning/proposals?priority=high')).body.data.items.length, 0);
    const bad = await get('/api/admin/learning/proposals?sourceSignal=vibes');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
    // Pages of one, following nextCursor, visit every proposal once.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const r = await get(`/api/admin/learning/proposals?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...r.body.data.items.map((x: { id: string }) => x.id));
      cursor = r.body.data.nextCursor;
    } while (cursor);
    assert.deepEqual([...seen].sort(), [...proposals].sort());
  });

  test('one proposal: all gate rows, cost summary, synthetic summary; and its four detail views', async () => {
    const validated = (await sql<{ id: string }>`select id from learning_proposals where last_validated_at is not null limit 1`.execute(srv.services.db)).rows[0].id;
    const r = await get(`/api/admin/learning/proposals/${validated}`);
    assert.equal(r.status, 200);
    const d = r.body.data;
    assert.equal(d.gateResults.length, 2);
    assert.deepEqual(d.gateResults.map((g: { gateId: string }) => g.gateId).sort(), ['replay', 'synthetic']);
    assert.ok(d.gateResults.some((g: { id: string }) => g.id === d.gate1ResultId));
    assert.ok(d.gateResults.some((g: { id: string }) => g.id === d.gate2ResultId));
    assert.equal(d.syntheticSummary.batchCount, 2);
    assert.match(d.cost.totalValidationCostMicros, /^\d+$/);
    assert.equal(d.validationStale, false);

    const synth = (await get(`/api/admin/learning/proposals/${validated}/synthetic`)).body.data;
    assert.equal(synth.batches.length, 2);
    const tierA = synth.batches.find((b: { tier: string }) => b.tier === 'A');
    assert.equal(tierA.actualCostMicros, '0');
    assert.equal(tierA.cases.length, tierA.caseCount);
    const c = tierA.cases[0];
    assert.match(c.caseHash, /^[0-9a-f]{64}$/);
    assert.equal(c.generationMethod, 'template');
    for (const k of ['duplicationScore', 'noveltyScore', 'discriminativePower', 'coverageContribution', 'accepted']) assert.ok(k in c.qualityScore, k);

    const replay = (await get(`/api/admin/learning/proposals/${validated}/replay`)).body.data;
    assert.equal(replay.runs.length, 2);
    const run = replay.runs[0];
    assert.equal(run.results.length, run.caseCount);
    assert.equal(run.passedCount + run.failedCount, run.caseCount);
    if (run.results[0]) for (const k of ['actualOutput', 'expectedOutput', 'passed', 'divergenceReason']) assert.ok(k in run.results[0], k);

    const gates = (await get(`/api/admin/learning/proposals/${validated}/gates`)).body.data;
    assert.equal(gates.items.length, 2);
    assert.ok('nextCursor' in gates, 'the gate history pages like every list (D9)');
    const cost = (await get(`/api/admin/learning/proposals/${validated}/cost`)).body.data;
    assert.equal(cost.breakdown.syntheticBatches.length, 2);
    assert.equal(cost.breakdown.withdrawals.length, 1);
    assert.equal(cost.totalValidationCostMicros, cost.breakdown.withdrawals[0].amountMicros);
    assert.match(cost.breakdown.withdrawals[0].idempotencyKey, new RegExp(`^synthgen:synth:${validated}:`));

    assert.equal((await get('/api/admin/learning/proposals/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await get('/api/admin/learning/proposals/not-a-uuid/gates')).status, 400);
  });

  test('budget: per-window rows with spent and available; PATCH sets the current window and is audited', async () => {
    const r = await get('/api/admin/learning/budget');
    assert.equal(r.status, 200);
    const synth = r.body.data.items.find((b: { category: string }) => b.category === 'synthgen');
    assert.equal(synth.windowKey, srv.clock.now().toISOString().slice(0, 7));
    assert.equal(BigInt(synth.budgetMicros) - BigInt(synth.spentMicros), BigInt(synth.availableMicros));
    assert.ok(BigInt(synth.spentMicros) > 0n, 'Tier B batches spent from it');

    const bad = await srv.api('PATCH', `/api/admin/learning/budget/${synth.id}`, { token: admin, body: { budgetMicros: '-5' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'budgetMicros');
    const p = await srv.api('PATCH', `/api/admin/learning/budget/${synth.id}`, { token: admin, body: { budgetMicros: '7500000' } });
    assert.equal(p.status, 200);
    assert.equal(p.body.data.budget.budgetMicros, '7500000');
    assert.equal(p.body.data.change.previousBudgetMicros, synth.budgetMicros);
    const after = (await get('/api/admin/learning/budget')).body.data;
    assert.equal(after.changes[0].budgetMicros, '7500000');
    assert.equal(after.changes[0].budgetId, synth.id);
    const who = (await get('/api/users/me')).body.data;
    assert.equal(after.changes[0].changedByUserId, who.id ?? who.user?.id);

    // Last month's row cannot be changed any more.
    await sql`insert into learning_plane_budgets (id, category, window_key, budget_micros, created_at, updated_at) values ('00000000-0000-4000-8000-0000000000aa', 'synthgen', '2001-01', 1, now(), now())`.execute(srv.services.db);
    const old = await srv.api('PATCH', '/api/admin/learning/budget/00000000-0000-4000-8000-0000000000aa', { token: admin, body: { budgetMicros: 5 } });
    assert.equal(old.status, 409);
    assert.equal((await srv.api('PATCH', '/api/admin/learning/budget/00000000-0000-4000-8000-0000000000ab', { token: admin, body: { budgetMicros: 5 } })).status, 404);
  });
});

describe('platform admins (D13)', () => {
  test('the default run seeds admin@switchboard.local once; it signs in and reaches the admin endpoints', async () => {
    const a = await ensurePlatformAdmin(srv.services);
    const again = await ensurePlatformAdmin(srv.services);
    assert.equal(a.email, ADMIN_EMAIL);
    assert.deepEqual(again, a);
    const login = await srv.api('POST', '/api/auth/login', { body: { email: ADMIN_EMAIL, password: a.password } });
    assert.equal(login.status, 200);
    assert.equal((await get('/api/admin/learning/budget', login.body.data.tokens.accessToken)).status, 200);
  });

  test('`switchboard admin grant <email>` makes an existing user a platform admin, and says so for an unknown one', async () => {
    const u = await signupTenant(srv, 'grantee');
    const env = { ...process.env, DATABASE_URL: srv.database.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'sb-grant-')), LOG_LEVEL: 'silent', REDIS_URL: '' };
    const run = (email: string) => spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'admin', 'grant', email], { env, encoding: 'utf8', timeout: 60_000 });
    const ok = run(u.email.toUpperCase());
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /is now a platform admin/);
    const flag = (await sql<{ platform_admin: boolean }>`select platform_admin from users where email = ${u.email}`.execute(srv.services.db)).rows[0];
    assert.equal(flag.platform_admin, true);
    const missing = run('nobody@example.test');
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /must sign up first/);
  });
});

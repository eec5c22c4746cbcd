// The eight locks of spec §3 that hold through every Phase 2 operation, one test each, on a real
// server whose plane has minted and validated proposals from real calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { signupTenant, startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls, mintProposals } from '../../../test/learning.ts';
import { asLearning } from './role.ts';
import { runValidation } from './orchestrator.ts';
import { assertTierAllowed, checkApproval, loadEnabledPolicies, TierCRefusedError, type Policy } from './policy.ts';
import { generateTierC, TierCDisabledError } from './generators.ts';
import { grantPlatformAdmin } from '../identity/platform-admin.ts';

let srv: TestServer;
let proposals: string[];
before(async () => {
  srv = await startTestServer({ env: LEARNING_TEST_ENV });
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 12);
  proposals = await mintProposals(srv);
  assert.ok(proposals.length > 0);
});
after(() => srv.close());

const db = () => srv.services.db;

/** Every source file under src/ except tests and migrations (migrations declare the columns). */
function sources(dir = 'src', out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (p.endsWith('.ts') && !p.endsWith('.test.ts') && !p.includes('/migrations/')) out.push(p);
  }
  return out;
}
const RESERVED = /\b(approve|reject|publish|promote|rollout|rollback|manifest)s?\b/i;
/**
 * The verbs are reserved for the learning plane's later phases (spec §9, D15): no admin route, and
 * no route about learning, proposals or manifests, may carry one. (A desktop bridge's device
 * approval, D14, is another subject and keeps its own word.)
 */
const planeRoute = (url: string) => url.startsWith('/api/admin') || /learning|proposal|manifest|rollout|rollback/i.test(url);

async function refused(p: Promise<unknown>, code: RegExp): Promise<void> {
  await assert.rejects(p, (e: Error & { code?: string }) => {
    assert.match(`${e.code} ${e.message}`, code);
    return true;
  });
}

describe('the eight locks', () => {
  test('lock 1: proposal.status stays minted, and the database refuses any other', async () => {
    const rows = (await sql<{ status: string }>`select status from learning_proposals`.execute(db())).rows;
    assert.ok(rows.length > 0 && rows.every((r) => r.status === 'minted'));
    await refused(sql`update learning_proposals set status = 'approved' where id = ${proposals[0]}`.execute(db()), /23514|check constraint/);
    await refused(asLearning(db(), (tx) => sql`update learning_proposals set status = 'published'`.execute(tx)), /23514|check constraint/);
  });

  test('lock 2: approvedByUserId, rejectReason and approvedAt are never written, and cannot be', async () => {
    const rows = (await sql<{ n: number }>`select count(*)::int as n from learning_proposals where approved_by_user_id is not null or reject_reason is not null or approved_at is not null`.execute(db())).rows;
    assert.equal(rows[0].n, 0);
    await refused(sql`update learning_proposals set approved_by_user_id = ${randomUUID()} where id = ${proposals[0]}`.execute(db()), /23514/);
    await refused(sql`update learning_proposals set reject_reason = 'no' where id = ${proposals[0]}`.execute(db()), /23514/);
    await refused(sql`update learning_proposals set approved_at = now() where id = ${proposals[0]}`.execute(db()), /23514/);
    // No code outside the migration writes them.
    for (const f of sources()) {
      const text = readFileSync(f, 'utf8');
      assert.doesNotMatch(text, /(approved_by_user_id|reject_reason|approved_at)\s*=\s*[^=]/, `${f} writes a lock-2 column`);
    }
  });

  test('lock 3: no approve, reject, publish or promote route and no manifest write path, in the server or the code', async () => {
    const t = await signupTenant(srv, 'admin');
    await grantPlatformAdmin(db(), t.email);
    const routes = srv.app!.routeList.map((r) => `${r.method} ${r.url}`);
    assert.ok(routes.some((r) => r.startsWith('GET /api/admin/learning/proposals')));
    assert.deepEqual(routes.filter((r) => planeRoute(r.split(' ')[1]) && RESERVED.test(r)), []);
    for (const verb of ['approve', 'reject', 'publish', 'promote']) {
      const r = await srv.api('POST', `/api/admin/learning/proposals/${proposals[0]}/${verb}`, { token: t.accessToken, body: {} });
      assert.equal(r.status, 404, verb);
    }
    const manifests = await srv.api('POST', '/api/admin/learning/manifests', { token: t.accessToken, body: {} });
    assert.equal(manifests.status, 404);
    // Nothing in src/ registers such a path (app.get/post/... with a reserved word in its URL).
    for (const f of sources()) {
      for (const m of readFileSync(f, 'utf8').matchAll(/app\.(?:get|post|put|patch|delete|route)\(\s*['"`]([^'"`]+)['"`]/g)) {
        if (planeRoute(m[1])) assert.doesNotMatch(m[1], RESERVED, `${f} registers ${m[1]}`);
      }
    }
    // And no table of the plane is a manifest.
    const tables = (await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = 'public' and tablename ~ 'manifest'`.execute(db())).rows;
    assert.deepEqual(tables, []);
  });

  test('lock 4: proposal.manifestId stays null, and the database refuses a value', async () => {
    const n = (await sql<{ n: number }>`select count(*)::int as n from learning_proposals where manifest_id is not null`.execute(db())).rows[0].n;
    assert.equal(n, 0);
    await refused(asLearning(db(), (tx) => sql`update learning_proposals set manifest_id = ${randomUUID()}`.execute(tx)), /23514/);
  });

  test('lock 5: no rollout and no rollback, anywhere', async () => {
    const t = await signupTenant(srv, 'admin5');
    await grantPlatformAdmin(db(), t.email);
    for (const verb of ['rollout', 'rollback']) {
      const r = await srv.api('POST', `/api/admin/learning/proposals/${proposals[0]}/${verb}`, { token: t.accessToken, body: {} });
      assert.equal(r.status, 404);
    }
    for (const f of sources()) assert.doesNotMatch(readFileSync(f, 'utf8'), /\/roll(?:out|back)\b/i, f);
  });

  test('lock 6: as switchboard_learning, every write to what the request path reads fails in the database', async () => {
    const call = (await sql<{ id: string }>`select id from call_logs limit 1`.execute(db())).rows[0];
    const attempts: Array<[string, (tx: import('../../store/db.ts').Tx) => Promise<unknown>]> = [
      ['update call_logs', (tx) => sql`update call_logs set model_class = 'frontier' where id = ${call.id}`.execute(tx)],
      ['insert call_logs', (tx) => sql`insert into call_logs (id, tenant_id, project_id, status, channel, created_at) select ${randomUUID()}, tenant_id, project_id, 'succeeded', 'api', now() from call_logs limit 1`.execute(tx)],
      ['delete call_logs', (tx) => sql`delete from call_logs where id = ${call.id}`.execute(tx)],
      ['insert layer3_rulesets', (tx) => sql`insert into layer3_rulesets (version, rules, rules_version, stats_window_ms, calls_considered, created_at) values (999999, '[]', 'x', 1, 0, now())`.execute(tx)],
      ['update projects', (tx) => sql`update projects set quality_floor = 0.1`.execute(tx)],
      ['update wallets', (tx) => sql`update wallets set balance_micros = balance_micros + 1`.execute(tx)],
      ['insert learning_outbox', (tx) => sql`insert into learning_outbox (call_id, tenant_id, project_id, model_id, request, input_tokens, output_tokens, created_at) select id, tenant_id, project_id, 'm', '{}', 0, 0, now() from call_logs limit 1`.execute(tx)],
      ['delete learning_outbox', (tx) => sql`delete from learning_outbox`.execute(tx)],
      ['update outbox tokens', (tx) => sql`update learning_outbox set input_tokens = 0`.execute(tx)],
    ];
    for (const [what, run] of attempts) await refused(asLearning(db(), run), /42501|permission denied/).catch((e) => assert.fail(`${what}: ${e}`));
    // The role may write no table outside the plane's own: checked for every table in the schema.
    const writable = (await sql<{ t: string }>`
      select c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v') and c.relname !~ '^learning_'
         and (has_table_privilege('switchboard_learning', c.oid, 'INSERT')
           or has_table_privilege('switchboard_learning', c.oid, 'UPDATE')
           or has_table_privilege('switchboard_learning', c.oid, 'DELETE')
           or has_table_privilege('switchboard_learning', c.oid, 'TRUNCATE'))`.execute(db())).rows;
    assert.deepEqual(writable, []);
    // While its own tables take its writes.
    const ok = await asLearning(db(), (tx) => sql<{ n: number }>`select count(*)::int as n from learning_evidence`.execute(tx));
    assert.ok(ok.rows[0].n > 0);
  });

  test('lock 7: Tier B is mock by default and never reaches the upstream or the dispatch path', async () => {
    assert.equal(srv.services.config.LEARNING_TIER_B_LIVE, false);
    const upstreamBefore = srv.sim.stats.total;
    const callsBefore = (await sql<{ n: number }>`select count(*)::int as n from call_logs`.execute(db())).rows[0].n;
    const tierB = (await sql<{ n: number }>`select count(*)::int as n from learning_synthetic_batches b join learning_synthetic_generation_policies p on p.id = b.policy_id where p.tier = 'B'`.execute(db())).rows[0].n;
    assert.ok(tierB > 0, 'Tier B batches were generated (mock)');
    srv.clock.advance(25 * 3_600_000);
    assert.ok((await runValidation(srv.services, srv.clock.now())) > 0);
    assert.equal(srv.sim.stats.total, upstreamBefore, 'mock Tier B made no upstream call');
    assert.equal((await sql<{ n: number }>`select count(*)::int as n from call_logs`.execute(db())).rows[0].n, callsBefore);
    // The plane does not import the call pipeline (dispatch) at all.
    for (const f of sources('src/app/learning')) assert.doesNotMatch(readFileSync(f, 'utf8'), /from '\.\.\/calls\//, f);
  });

  describe('lock 8: Tier C is refused four independent ways', () => {
    const tierC: Policy = {
      id: randomUUID(), name: 'c', tier: 'C', maxCasesPerBatch: 4, maxCostPerBatchMicros: 1000n, minQualityThreshold: 0.5,
      generatorTemplate: 'frontier-v1', modelId: 'frontier', enabled: true, approvedAt: new Date(),
    };

    test('1. the schema: a policy is disabled unless someone enables it, and disabled ones are never loaded', async () => {
      const id = randomUUID();
      await sql`insert into learning_synthetic_generation_policies (id, name, tier, max_cases_per_batch, min_quality_threshold, generator_template) values (${id}, ${`c-${id}`}, 'C', 4, 0.5, 'frontier-v1')`.execute(db());
      const row = (await sql<{ enabled: boolean }>`select enabled from learning_synthetic_generation_policies where id = ${id}`.execute(db())).rows[0];
      assert.equal(row.enabled, false);
      const seeded = (await sql<{ enabled: boolean }>`select enabled from learning_synthetic_generation_policies where tier = 'C' and name = 'tier-c-frontier'`.execute(db())).rows[0];
      assert.equal(seeded.enabled, false);
      assert.ok((await loadEnabledPolicies(db())).every((p) => p.tier !== 'C'));
    });

    test('2. the orchestrator’s approval check refuses Tier C even when enabled and marked approved', () => {
      const a = checkApproval(tierC);
      assert.equal(a.approved, false);
      assert.match(a.approved ? '' : a.reason, /Tier C/);
      assert.equal(checkApproval({ ...tierC, tier: 'A' }).approved, true);
    });

    test('3. the orchestrator’s hard error on tier C, whatever the policy’s flags', () => {
      assert.throws(() => assertTierAllowed(tierC), TierCRefusedError);
      assert.doesNotThrow(() => assertTierAllowed({ ...tierC, tier: 'B' }));
    });

    test('4. the Tier C generator fails on every call', () => {
      for (let i = 0; i < 3; i++) assert.throws(() => generateTierC(), TierCDisabledError);
    });

    test('together: an enabled, approved Tier C policy in the database yields no batch and no spend', async () => {
      await sql`update learning_synthetic_generation_policies set enabled = true, approved_at = now() where name = 'tier-c-frontier'`.execute(db());
      srv.clock.advance(25 * 3_600_000);
      assert.ok((await runValidation(srv.services, srv.clock.now())) > 0);
      const c = (await sql<{ b: number; w: number }>`
        select (select count(*)::int from learning_synthetic_batches b join learning_synthetic_generation_policies p on p.id = b.policy_id where p.tier = 'C') as b,
               (select count(*)::int from learning_plane_budget_withdrawals w join learning_synthetic_generation_policies p on p.id = w.policy_id where p.tier = 'C') as w`.execute(db())).rows[0];
      assert.deepEqual(c, { b: 0, w: 0 });
    });
  });
});

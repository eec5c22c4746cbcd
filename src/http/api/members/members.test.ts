// A tenant always keeps an owner (D2; issue 22 item 2), also when two owners act at the same
// moment: the last-owner check and the write are one serialised step, so of two owners demoting
// (or removing) each other at once exactly one succeeds.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { addMember } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

const MIN = 60_000;

/** A tenant with two owners, each signed in to it. */
async function twoOwners(i: number) {
  const a = await signupTenant(srv, `a${i}`);
  const b = await signupTenant(srv, `b${i}`);
  const joined = await addMember(srv, a, b, 'owner');
  srv.clock.advance(MIN); // the sign-in limit of the accept
  return { tenantId: a.tenantId, a: { id: a.userId, token: a.accessToken }, b: { id: b.userId, token: joined.tokens.accessToken } };
}

async function owners(tenantId: string): Promise<string[]> {
  const rows = await srv.services.db.selectFrom('memberships').select('user_id').where('tenant_id', '=', tenantId).where('role', '=', 'owner').execute();
  return rows.map((r) => r.user_id);
}

describe('the last owner under concurrency', () => {
  test('two owners demoting each other at the same moment: one wins, the tenant keeps an owner', async () => {
    const tenants = [];
    for (let i = 0; i < 8; i++) tenants.push(await twoOwners(i));
    const results = await Promise.all(
      tenants.map(({ a, b }) =>
        Promise.all([
          srv.api('PATCH', `/api/members/${b.id}`, { token: a.token, body: { role: 'member' } }),
          srv.api('PATCH', `/api/members/${a.id}`, { token: b.token, body: { role: 'member' } }),
        ]),
      ),
    );
    for (const [i, pair] of results.entries()) {
      const statuses = pair.map((r) => r.status).sort();
      assert.equal(statuses[0], 200, `tenant ${i}: ${statuses}`);
      assert.ok(statuses[1] === 403 || statuses[1] === 409, `tenant ${i}: the loser is refused, got ${statuses}`);
      assert.equal((await owners(tenants[i].tenantId)).length, 1, `tenant ${i} keeps exactly one owner`);
    }
  });

  test('two owners removing each other at the same moment: one wins, the tenant keeps an owner', async () => {
    const tenants = [];
    for (let i = 0; i < 8; i++) tenants.push(await twoOwners(10 + i));
    const results = await Promise.all(
      tenants.map(({ a, b }) =>
        Promise.all([srv.api('DELETE', `/api/members/${b.id}`, { token: a.token }), srv.api('DELETE', `/api/members/${a.id}`, { token: b.token })]),
      ),
    );
    for (const [i, pair] of results.entries()) {
      assert.equal(pair.filter((r) => r.status === 200).length, 1, `tenant ${i}: ${pair.map((r) => r.status)}`);
      assert.equal((await owners(tenants[i].tenantId)).length, 1, `tenant ${i} keeps exactly one owner`);
    }
  });

  test('the last owner can neither be demoted nor removed, and says what to do', async () => {
    const t = await signupTenant(srv, 'solo');
    const d = await srv.api('PATCH', `/api/members/${t.userId}`, { token: t.accessToken, body: { role: 'admin' } });
    assert.equal(d.status, 409);
    assert.match(d.body.error, /make another member owner first/);
    assert.equal((await srv.api('DELETE', `/api/members/${t.userId}`, { token: t.accessToken })).status, 409);
    assert.deepEqual(await owners(t.tenantId), [t.userId]);
  });
});

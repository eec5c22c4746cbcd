// A device session's service key (D14 `endsWithSession`) stops working the moment its session ends,
// however it ends, on the replica that ended it and on every other (D17: serve replicas share one
// Redis). Before session 9, only a sign-out, a revocation on /security and refresh-token reuse
// evicted the key from the caches: after a password change or reset, an idle expiry or a removal
// from the team the trigger had revoked the key in PostgreSQL, but replicas that had it cached kept
// accepting it for up to the cache's 60 s.
//
// Each case warms both replicas' caches with a real call, ends the session through replica A, and
// expects both replicas to refuse the key within a pub/sub hop. The replicas' clocks are manual and
// never reach the cache's lifetime, so only an eviction can make a replica refuse.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestDatabase, signupTenant, startTestServer, type TestDatabase, type TestServer } from './harness.ts';
import { addMember, eventually, keyWorks, linkTokenFor } from './helpers.ts';

describe('a device session’s key ends with the session on every replica', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, () => {
  let a: TestServer;
  let b: TestServer;
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
    const env = { REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `sbt:${randomUUID()}:`, RATE_LIMIT_LOGIN_PER_MIN: '1000' };
    a = await startTestServer({ env, database });
    b = await startTestServer({ env, database, sim: a.sim });
  });
  after(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  /** A device sign-in on A confirmed by `user`, and the key that session makes tied to itself. */
  const deviceKey = async (user: { accessToken: string }, name: string) => {
    const d = await a.api('POST', '/api/auth/device', { body: { deviceName: name } });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal((await a.api('POST', '/api/auth/device/confirm', { token: user.accessToken, body: { userCode: d.body.data.userCode } })).status, 200);
    a.clock.advance(16_000);
    const got = await a.api('POST', '/api/auth/device/token', { body: { deviceCode: d.body.data.deviceCode } });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const session = got.body.data as { accessToken: string; refreshToken: string; sessionId: string };
    const k = await a.api('POST', '/api/keys', { token: session.accessToken, body: { name, environment: 'production', endsWithSession: true } });
    assert.equal(k.status, 201, JSON.stringify(k.body));
    return { session, key: k.body.data.key as string, keyId: k.body.data.record.id as string };
  };
  const works = keyWorks;
  /** Both replicas serve the key (so both have it cached); after `end`, both refuse it within a pub/sub hop. */
  const endsEverywhere = async (key: string, end: () => Promise<void>) => {
    assert.equal(await works(a, key), true, 'A serves the key before');
    assert.equal(await works(b, key), true, 'B serves the key before');
    await end();
    assert.equal(await works(a, key), false, 'A refuses the key at once');
    await eventually(async () => ((await works(b, key)) ? undefined : true), 2_000, 'B refusing the key');
  };

  test('password change: every other session’s key', async () => {
    const u = await signupTenant(a, 'pwchange');
    const dev = await deviceKey(u, 'Laptop (password change)');
    await endsEverywhere(dev.key, async () => {
      const r = await a.api('POST', '/api/users/me/password', { token: u.accessToken, body: { currentPassword: u.password, newPassword: 'another horse battery staple' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    });
  });

  test('password reset: every session’s key', async () => {
    const u = await signupTenant(a, 'pwreset');
    const dev = await deviceKey(u, 'Laptop (password reset)');
    await endsEverywhere(dev.key, async () => {
      assert.equal((await a.api('POST', '/api/auth/password/forgot', { body: { email: u.email } })).status, 200);
      const token = await linkTokenFor(a, u.email, 'reset-password');
      const r = await a.api('POST', '/api/auth/password/reset', { body: { token, password: 'a third horse battery staple' } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    });
  });

  test('idle timeout: the session’s next request ends it, and its key with it', async () => {
    const u = await signupTenant(a, 'idle');
    assert.equal((await a.api('PATCH', '/api/users/me', { token: u.accessToken, body: { idleTimeout: '15min' } })).status, 200);
    const dev = await deviceKey(u, 'Laptop (idle)');
    await endsEverywhere(dev.key, async () => {
      // The device has been quiet for 16 minutes (its access token, good for 15, was just issued).
      await a.services.db.updateTable('sessions').set({ last_seen_at: new Date(a.clock.now().getTime() - 16 * 60_000) }).where('id', '=', dev.session.sessionId).execute();
      const r = await a.api('GET', '/api/users/me', { token: dev.session.accessToken });
      assert.equal(r.status, 401);
      assert.equal(r.body.code, 'session_revoked');
    });
  });

  test('sign-out, revocation on /security, removal from the team, key revocation', async () => {
    const owner = await signupTenant(a, 'owner');
    const out = await deviceKey(owner, 'Laptop (sign-out)');
    await endsEverywhere(out.key, async () => {
      assert.equal((await a.api('POST', '/api/auth/logout', { token: out.session.accessToken })).status, 200);
    });
    const rev = await deviceKey(owner, 'Laptop (revoked)');
    await endsEverywhere(rev.key, async () => {
      assert.equal((await a.api('DELETE', `/api/users/me/sessions/${rev.session.sessionId}`, { token: owner.accessToken })).status, 200);
    });
    const key = await deviceKey(owner, 'Laptop (key revoked)');
    await endsEverywhere(key.key, async () => {
      assert.equal((await a.api('DELETE', `/api/keys/${key.keyId}`, { token: owner.accessToken })).status, 200);
    });
    // An admin of the owner's team signs in a device and makes its key; the owner removes them.
    const other = await signupTenant(a, 'admin');
    const joined = await addMember(a, owner, other, 'admin');
    const member = await deviceKey(joined.tokens, 'Laptop (removed admin)');
    await endsEverywhere(member.key, async () => {
      assert.equal((await a.api('DELETE', `/api/members/${other.userId}`, { token: owner.accessToken })).status, 200);
    });
  });
});

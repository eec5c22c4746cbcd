// Authentication at its boundaries (D2): token lifetimes, refresh rotation and reuse detection,
// session revocation, idle sign-out, lockout, login rate limit, PATs and the audit chain.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { sql } from 'kysely';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const MIN = 60_000;

describe('signup and login', () => {
  test('signup returns the login result; login answers at /auth/login and /api/auth/login', async () => {
    const t = await signupTenant(srv);
    for (const path of ['/auth/login', '/api/auth/login']) {
      const r = await srv.api('POST', path, { body: { email: t.email.toUpperCase(), password: t.password } });
      assert.equal(r.status, 200);
      assert.equal(r.body.success, true);
      assert.equal(r.body.data.user.email, t.email);
      assert.equal(typeof r.body.data.user.name, 'string');
      const access = decodeJwt(r.body.data.tokens.accessToken);
      const refresh = decodeJwt(r.body.data.tokens.refreshToken);
      assert.equal(access.exp! - access.iat!, 15 * 60);
      assert.equal(refresh.exp! - refresh.iat!, 7 * 24 * 3600);
    }
    srv.clock.advance(MIN); // refill the per-IP login bucket for the other tests
  });

  test('signup rejects a short password, a duplicate e-mail and unknown fields with the envelope', async () => {
    const t = await signupTenant(srv);
    const short = await srv.api('POST', '/api/auth/signup', { body: { email: 'x@example.test', password: '12345678901', name: 'x', tenantName: 'x' } });
    assert.equal(short.status, 400);
    assert.deepEqual(Object.keys(short.body).sort(), ['code', 'error', 'field', 'success']);
    assert.equal(short.body.field, 'password');
    const ok12 = await srv.api('POST', '/api/auth/signup', { body: { email: `ok12-${Date.now()}@example.test`, password: '123456789012', name: 'x', tenantName: 'x' } });
    assert.equal(ok12.status, 201, 'exactly 12 characters is enough');
    const dup = await srv.api('POST', '/api/auth/signup', { body: { email: t.email, password: 'another long password', name: 'x', tenantName: 'x' } });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.code, 'email_taken');
    const extra = await srv.api('POST', '/api/auth/signup', { body: { email: 'y@example.test', password: 'another long password', name: 'x', tenantName: 'x', admin: true } });
    assert.equal(extra.status, 400);
    assert.match(extra.body.error, /unknown field 'admin'/);
    srv.clock.advance(MIN);
  });
});

describe('tokens and sessions', () => {
  test('an access token works until 15 minutes and not a second later', async () => {
    const t = await signupTenant(srv);
    await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { idleTimeout: 'never' } });
    srv.clock.advance(15 * MIN - 1000);
    assert.equal((await srv.api('GET', '/api/users/me', { token: t.accessToken })).status, 200);
    srv.clock.advance(1000);
    const r = await srv.api('GET', '/api/users/me', { token: t.accessToken });
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_token');
  });

  test('refresh rotates; reusing the old refresh token revokes the whole session', async () => {
    const t = await signupTenant(srv);
    const r1 = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
    assert.equal(r1.status, 200);
    assert.notEqual(r1.body.data.refreshToken, t.refreshToken);
    assert.equal((await srv.api('GET', '/api/users/me', { token: r1.body.data.accessToken })).status, 200);
    const reuse = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
    assert.equal(reuse.status, 401);
    assert.match(reuse.body.error, /reuse/);
    // The legitimate holder is signed out too: both the new refresh and access tokens are dead.
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: r1.body.data.refreshToken } })).status, 401);
    assert.equal((await srv.api('GET', '/api/users/me', { token: r1.body.data.accessToken })).status, 401);
    srv.clock.advance(MIN);
  });

  test('a refresh token expires after 7 days', async () => {
    const t = await signupTenant(srv);
    await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { idleTimeout: 'never' } });
    srv.clock.advance(7 * 24 * 3600_000 + 1000);
    const r = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
    assert.equal(r.status, 401);
    srv.clock.advance(MIN);
  });

  test('DELETE a session kills its refresh token at once; logout ends the current one', async () => {
    const t = await signupTenant(srv);
    const second = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const list = await srv.api('GET', '/api/users/me/sessions', { token: t.accessToken });
    assert.equal(list.body.data.items.length, 2);
    const other = list.body.data.items.find((x: { current: boolean }) => !x.current);
    assert.equal((await srv.api('DELETE', `/api/users/me/sessions/${other.id}`, { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: second.body.data.tokens.refreshToken } })).status, 401);
    assert.equal((await srv.api('GET', '/api/users/me', { token: second.body.data.tokens.accessToken })).status, 401);
    assert.equal((await srv.api('POST', '/api/auth/logout', { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('GET', '/api/users/me', { token: t.accessToken })).status, 401);
    srv.clock.advance(MIN);
  });

  test('idle sign-out is enforced server-side at the user setting', async () => {
    const t = await signupTenant(srv);
    assert.equal((await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { idleTimeout: '15min' } })).status, 200);
    srv.clock.advance(10 * MIN);
    assert.equal((await srv.api('GET', '/api/users/me', { token: t.accessToken })).status, 200, 'activity at 10 min');
    srv.clock.advance(14 * MIN);
    // 14 minutes idle is within the limit, though the access token itself is now 24 minutes old.
    const r = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
    assert.equal(r.status, 200);
    srv.clock.advance(15 * MIN + 1000);
    const idle = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: r.body.data.refreshToken } });
    assert.equal(idle.status, 401);
    assert.match(idle.body.error, /inactivity/);
    srv.clock.advance(MIN);
  });
});

describe('lockout and rate limit', () => {
  test('five failed logins lock the account for 15 minutes with the same generic answer', async () => {
    const t = await signupTenant(srv);
    srv.clock.advance(MIN);
    for (let i = 0; i < 4; i++) {
      const r = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: 'wrong password!' } });
      assert.equal(r.status, 401);
    }
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 200, 'four failures do not lock');
    for (let i = 0; i < 5; i++) await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: 'wrong password!' } });
    srv.clock.advance(MIN);
    const locked = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    assert.equal(locked.status, 401);
    const unknown = await srv.api('POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: t.password } });
    assert.deepEqual(locked.body, unknown.body, 'a locked account answers like an unknown e-mail');
    srv.clock.advance(14 * MIN - 2000);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 401);
    srv.clock.advance(2000);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 200);
    srv.clock.advance(MIN);
  });

  test('the eleventh login attempt in a minute from one address gets 429 with Retry-After', async () => {
    srv.clock.advance(MIN);
    const codes: number[] = [];
    let last: { status: number; body: any; headers: Headers } | null = null;
    for (let i = 0; i < 11; i++) {
      last = await srv.api('POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: 'whatever it is' } });
      codes.push(last.status);
    }
    assert.deepEqual(codes, [...Array(10).fill(401), 429]);
    assert.ok(Number(last!.headers.get('retry-after')) >= 1);
    assert.equal(last!.headers.get('x-ratelimit-limit'), '10');
    assert.equal(last!.body.code, 'rate_limited');
    srv.clock.advance(MIN);
  });
});

describe('personal access tokens and the audit log', () => {
  test('a PAT acts as its user within its tenant until revoked', async () => {
    const t = await signupTenant(srv);
    const c = await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'cli', expiresInDays: 1 } });
    assert.equal(c.status, 201);
    assert.match(c.body.data.token, /^svc_pat_/);
    const me = await srv.api('GET', '/api/users/me', { token: c.body.data.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.data.id, t.userId);
    const list = await srv.api('GET', '/api/users/me/tokens', { token: t.accessToken });
    assert.equal(list.body.data.items.length, 1);
    assert.equal(JSON.stringify(list.body).includes(c.body.data.token), false, 'the token is shown only once');
    assert.equal((await srv.api('DELETE', `/api/users/me/tokens/${c.body.data.record.id}`, { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('GET', '/api/users/me', { token: c.body.data.token })).status, 401);
  });

  test('a PAT stops working when it expires', async () => {
    const t = await signupTenant(srv);
    await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { idleTimeout: 'never' } });
    const c = await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'short', expiresInDays: 1 } });
    srv.clock.advance(24 * 3600_000 - 1000);
    assert.equal((await srv.api('GET', '/api/users/me', { token: c.body.data.token })).status, 200);
    srv.clock.advance(1000);
    assert.equal((await srv.api('GET', '/api/users/me', { token: c.body.data.token })).status, 401);
    srv.clock.advance(MIN);
  });

  test('the security audit log is HMAC-chained: it verifies, and an altered row is named', async () => {
    const t = await signupTenant(srv);
    await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: 'not the password' } });
    await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const log = await srv.api('GET', '/api/users/me/audit', { token: t.accessToken });
    const events = log.body.data.items.map((x: { event: string }) => x.event);
    assert.deepEqual(events, ['login', 'login_failed', 'signup']);
    const v = await srv.api('GET', '/api/users/me/audit/verify', { token: t.accessToken });
    assert.deepEqual(v.body.data, { verified: true, firstBroken: null, checked: 3 });
    const failed = log.body.data.items[1];
    await sql`update security_audit set ip = '10.9.9.9' where id = ${failed.id}`.execute(srv.services.db);
    const broken = await srv.api('GET', '/api/users/me/audit/verify', { token: t.accessToken });
    assert.equal(broken.body.data.verified, false);
    assert.equal(broken.body.data.firstBroken, failed.id);
    srv.clock.advance(MIN);
  });
});

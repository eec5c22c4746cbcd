// The identity endpoints the web app's screens stand on (D13): the tenant's name, the tenant
// switcher, the forgotten-password link and reset, a password change, e-mail verification links
// that open the web pages, and the browser session's refresh cookie.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { addMember, eventually, linkTokenFor, outboxMails } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const MIN = 60_000;

/** The cookies a response sets, by name: value and attributes. */
function setCookies(h: Headers): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of h.getSetCookie()) out.set(c.split('=')[0], c);
  return out;
}
const cookieValue = (c: string) => c.split(';')[0].split('=').slice(1).join('=');

describe('the tenant', () => {
  test('GET /api/tenant reads it; PATCH renames it (admins and owners only)', async () => {
    const owner = await signupTenant(srv, 'owner');
    const r = await srv.api('GET', '/api/tenant', { token: owner.accessToken });
    assert.equal(r.status, 200);
    assert.deepEqual({ ...r.body.data, createdAt: undefined }, { id: owner.tenantId, name: 'Tenant owner', role: 'owner', createdAt: undefined });
    const p = await srv.api('PATCH', '/api/tenant', { token: owner.accessToken, body: { name: '  Acme Ltd  ' } });
    assert.equal(p.status, 200);
    assert.equal(p.body.data.name, 'Acme Ltd');
    assert.equal((await srv.api('GET', '/api/tenant', { token: owner.accessToken })).body.data.name, 'Acme Ltd');
    const empty = await srv.api('PATCH', '/api/tenant', { token: owner.accessToken, body: { name: ' ' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.field, 'name');
    const viewer = await signupTenant(srv, 'viewer');
    const joined = await addMember(srv, owner, viewer, 'viewer');
    assert.equal((await srv.api('PATCH', '/api/tenant', { token: joined.tokens.accessToken, body: { name: 'Mine now' } })).status, 403);
    assert.equal((await srv.api('GET', '/api/tenant', { token: joined.tokens.accessToken })).body.data.name, 'Acme Ltd');
    srv.clock.advance(MIN);
  });
});

describe('switching tenant', () => {
  test('a new token pair for another membership in the same session; the old access token stops working', async () => {
    const owner = await signupTenant(srv, 'owner');
    const user = await signupTenant(srv, 'user');
    await addMember(srv, owner, user, 'member');
    const list = await srv.api('GET', '/api/auth/tenants', { token: user.accessToken });
    assert.deepEqual(list.body.data.items.map((t: { tenantId: string; current: boolean }) => [t.tenantId, t.current]), [[user.tenantId, true], [owner.tenantId, false]]);

    const sw = await srv.api('POST', '/api/auth/switch', { token: user.accessToken, body: { tenantId: owner.tenantId } });
    assert.equal(sw.status, 200);
    assert.equal(sw.body.data.tenantId, owner.tenantId);
    assert.equal(sw.body.data.role, 'member');
    assert.equal(decodeJwt(sw.body.data.tokens.accessToken).sid, decodeJwt(user.accessToken).sid, 'same session');
    const cookies = setCookies(sw.headers);
    assert.ok(cookies.has('sb_access') && cookies.has('sb_refresh'));
    const t = await srv.api('GET', '/api/tenant', { token: sw.body.data.tokens.accessToken });
    assert.equal(t.body.data.id, owner.tenantId);
    const projects = await srv.api('GET', '/api/projects', { token: sw.body.data.tokens.accessToken });
    assert.ok(projects.body.data.items.some((p: { id: string }) => p.id === owner.defaultProjectId));
    assert.equal((await srv.api('GET', '/api/tenant', { token: user.accessToken })).status, 401, 'the token naming the previous tenant is refused');
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: sw.body.data.tokens.refreshToken } })).status, 200);

    const stranger = await signupTenant(srv, 'stranger');
    const no = await srv.api('POST', '/api/auth/switch', { token: sw.body.data.tokens.accessToken, body: { tenantId: stranger.tenantId } });
    assert.equal(no.status, 404);
    srv.clock.advance(MIN);
  });
});

describe('forgotten password', () => {
  test('forgot answers 200 for any address; the link opens /reset-password, works once within 30 minutes and ends every session', async () => {
    const t = await signupTenant(srv, 'forgetful');
    const second = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const unknown = await srv.api('POST', '/api/auth/password/forgot', { body: { email: `nobody-${Date.now()}@example.test` } });
    const known = await srv.api('POST', '/api/auth/password/forgot', { body: { email: t.email.toUpperCase() } });
    assert.equal(unknown.status, 200);
    assert.deepEqual(known.body, unknown.body);
    const token = await linkTokenFor(srv, t.email, 'reset-password');
    const mail = (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('/reset-password?token='))!;
    assert.ok(mail.includes(`${srv.services.publicUrl}/reset-password?token=`));

    const weak = await srv.api('POST', '/api/auth/password/reset', { body: { token, password: 'short' } });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.field, 'password');
    const r = await srv.api('POST', '/api/auth/password/reset', { body: { token, password: 'a brand new password' } });
    assert.equal(r.status, 200);
    for (const access of [t.accessToken, second.body.data.tokens.accessToken]) assert.equal((await srv.api('GET', '/api/users/me', { token: access })).status, 401);
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } })).status, 401);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 401, 'the old password is gone');
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: 'a brand new password' } })).status, 200);
    const reused = await srv.api('POST', '/api/auth/password/reset', { body: { token, password: 'yet another password' } });
    assert.equal(reused.status, 400);
    assert.equal(reused.body.code, 'invalid_link');
    srv.clock.advance(MIN);

    await srv.api('POST', '/api/auth/password/forgot', { body: { email: t.email } });
    const late = await eventually(async () => {
      const newest = await linkTokenFor(srv, t.email, 'reset-password');
      return newest === token ? undefined : newest;
    });
    srv.clock.advance(30 * MIN + 1000);
    assert.equal((await srv.api('POST', '/api/auth/password/reset', { body: { token: late, password: 'yet another password' } })).body.code, 'invalid_link', 'expired after 30 minutes');
    srv.clock.advance(MIN);
  });
});

describe('changing the password', () => {
  test('needs the current password; ends the other sessions and keeps this one', async () => {
    const t = await signupTenant(srv, 'changer');
    const other = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const wrong = await srv.api('POST', '/api/users/me/password', { token: t.accessToken, body: { currentPassword: 'not my password', newPassword: 'my next long password' } });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.field, 'currentPassword');
    const weak = await srv.api('POST', '/api/users/me/password', { token: t.accessToken, body: { currentPassword: t.password, newPassword: 'short' } });
    assert.equal(weak.status, 400);
    assert.equal(weak.body.field, 'newPassword');
    const ok = await srv.api('POST', '/api/users/me/password', { token: t.accessToken, body: { currentPassword: t.password, newPassword: 'my next long password' } });
    assert.equal(ok.status, 200);
    assert.equal((await srv.api('GET', '/api/users/me', { token: t.accessToken })).status, 200, 'this session stays');
    assert.equal((await srv.api('GET', '/api/users/me', { token: other.body.data.tokens.accessToken })).status, 401, 'the other one ended');
    srv.clock.advance(MIN);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: 'my next long password' } })).status, 200);
    const events = (await srv.api('GET', '/api/users/me/audit', { token: t.accessToken })).body.data.items.map((x: { event: string }) => x.event);
    assert.ok(events.includes('password_changed'));
    srv.clock.advance(MIN);
  });
});

describe('e-mail verification', () => {
  test('the link opens <PUBLIC_URL>/verify-email?token=..., and the page confirms with POST /api/auth/verify-email', async () => {
    const t = await signupTenant(srv, 'verify');
    assert.equal((await srv.api('POST', '/api/users/me/verify-email', { token: t.accessToken })).status, 202);
    const mail = (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('verify-email?token='))!;
    assert.ok(mail.includes(`${srv.services.publicUrl}/verify-email?token=`), 'a web page, not an API path');
    assert.ok(!mail.includes('/api/auth/verify-email'));
    const token = await linkTokenFor(srv, t.email, 'verify-email');
    const r = await srv.api('POST', '/api/auth/verify-email', { body: { token } });
    assert.equal(r.status, 200);
    assert.ok(r.body.data.emailVerifiedAt);
  });
});

describe('the browser session (D13 refresh cookie)', () => {
  test('login sets an httpOnly SameSite=Strict refresh cookie on /api/auth; refresh accepts it from our origin; logout clears it', async () => {
    const t = await signupTenant(srv, 'browser');
    const login = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const c = setCookies(login.headers);
    const refresh = c.get('sb_refresh')!;
    assert.match(refresh, /HttpOnly/i);
    assert.match(refresh, /SameSite=Strict/i);
    assert.match(refresh, /Path=\/api\/auth(;|$)/);
    assert.doesNotMatch(refresh, /Secure/i, 'plain http here: Secure would make the browser drop it');
    assert.match(c.get('sb_access')!, /SameSite=Strict/i);
    assert.equal(cookieValue(refresh), login.body.data.tokens.refreshToken);

    const cookie = `sb_refresh=${cookieValue(refresh)}`;
    const cross = await srv.api('POST', '/api/auth/refresh', { headers: { cookie, origin: 'http://evil.example:8080' } });
    assert.equal(cross.status, 403, JSON.stringify(cross.body));
    const r = await srv.api('POST', '/api/auth/refresh', { headers: { cookie, origin: srv.url } });
    assert.equal(r.status, 200);
    assert.notEqual(r.body.data.refreshToken, login.body.data.tokens.refreshToken);
    assert.equal(cookieValue(setCookies(r.headers).get('sb_refresh')!), r.body.data.refreshToken, 'the rotated token replaces the cookie');
    assert.equal((await srv.api('POST', '/api/auth/refresh', { headers: { origin: srv.url } })).status, 401, 'no cookie, no body');

    const out = await srv.api('POST', '/api/auth/logout', { token: r.body.data.accessToken });
    assert.equal(out.status, 200);
    const cleared = setCookies(out.headers);
    for (const name of ['sb_access', 'sb_refresh']) assert.match(cleared.get(name)!, /Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    assert.match(cleared.get('sb_refresh')!, /Path=\/api\/auth/);
    srv.clock.advance(MIN);
  });

  test('over https (PUBLIC_URL) the session cookies are Secure', async () => {
    const https = await startTestServer({ env: { PUBLIC_URL: 'https://switchboard.example' }, database: srv.database, worker: false, sim: srv.sim });
    try {
      const t = await signupTenant(https, 'secure');
      const r = await https.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
      for (const name of ['sb_access', 'sb_refresh']) assert.match(setCookies(r.headers).get(name)!, /;\s*Secure/i);
    } finally {
      await https.close();
    }
  });
});

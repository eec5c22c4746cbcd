// Device authorisation (D14, RFC 8628) end to end over HTTP: a device starts, polls (pending,
// slow_down), a signed-in user confirms the code, the device gets a session named after it,
// once; expiry after 15 minutes, denial, the same-origin rule on cookie approvals, revocation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { keyWorks } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const start = async (deviceName = 'Ada’s laptop') => {
  const r = await srv.api('POST', '/api/auth/device', { body: { deviceName } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.data as { deviceCode: string; userCode: string; verificationUri: string; verificationUriComplete: string; expiresIn: number; interval: number };
};
const poll = (deviceCode: string) => srv.api('POST', '/api/auth/device/token', { body: { deviceCode } });
const tick = (s: number) => srv.clock.advance(s * 1000);

describe('device authorisation', () => {
  test('start, pending, slow_down, approve, one exchange for a named session; revoking it ends the refresh', async () => {
    const u = await signupTenant(srv, 'dev');
    const d = await start();
    assert.match(d.userCode, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(d.verificationUri, `${srv.url}/device`);
    assert.equal(d.verificationUriComplete, `${srv.url}/device?code=${d.userCode}`);
    assert.equal(d.expiresIn, 900);
    assert.equal(d.interval, 5);
    assert.ok(d.deviceCode.length >= 40);

    const p1 = await poll(d.deviceCode);
    assert.equal(p1.status, 400);
    assert.equal(p1.body.code, 'authorization_pending');
    const p2 = await poll(d.deviceCode);
    assert.equal(p2.body.code, 'slow_down', 'a poll sooner than the interval');
    assert.match(p2.body.error, /every 10 seconds/);
    tick(6);
    const p3 = await poll(d.deviceCode);
    assert.equal(p3.body.code, 'slow_down', 'the interval grew to 10 s');
    assert.match(p3.body.error, /every 15 seconds/, 'and grows by 5 s at every slow_down');
    tick(16);
    assert.equal((await poll(d.deviceCode)).body.code, 'authorization_pending');

    // The /device page: which device asks, then the user's confirmation (lower case and no dash work too).
    const v = await srv.api('GET', `/api/auth/device/verify?userCode=${d.userCode.toLowerCase()}`, { token: u.accessToken });
    assert.equal(v.status, 200);
    assert.equal(v.body.data.deviceName, 'Ada’s laptop');
    const a = await srv.api('POST', '/api/auth/device/confirm', { token: u.accessToken, body: { userCode: d.userCode.replace('-', '') } });
    assert.deepEqual(a.body.data, { deviceName: 'Ada’s laptop', approved: true });
    assert.equal((await srv.api('POST', '/api/auth/device/confirm', { token: u.accessToken, body: { userCode: d.userCode } })).body.code, 'invalid_user_code', 'a code is confirmed once');

    tick(16);
    const got = await poll(d.deviceCode);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    const t = got.body.data;
    assert.equal(t.tokenType, 'Bearer');
    assert.equal(t.expiresIn, 900);
    assert.equal(t.tenantId, u.tenantId);
    const me = await srv.api('GET', '/api/users/me', { token: t.accessToken });
    assert.equal(me.body.data.id ?? me.body.data.user?.id, u.userId);
    tick(16);
    assert.equal((await poll(d.deviceCode)).body.code, 'invalid_grant', 'the device code works once');

    const sessions = (await srv.api('GET', '/api/users/me/sessions', { token: u.accessToken })).body.data.items;
    const device = sessions.find((x: { id: string }) => x.id === t.sessionId);
    assert.equal(device.name, 'Ada’s laptop');
    assert.equal(sessions.find((x: { current: boolean }) => x.current).name, null, 'a browser session has no device name');

    // The device refreshes like any session; revoked on /security, its refresh token is dead.
    const r1 = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } });
    assert.equal(r1.status, 200);
    assert.equal((await srv.api('DELETE', `/api/users/me/sessions/${t.sessionId}`, { token: u.accessToken })).status, 200);
    const r2 = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: r1.body.data.refreshToken } });
    assert.equal(r2.status, 401);
    assert.equal(r2.body.code, 'session_revoked');
    assert.equal((await srv.api('GET', '/api/users/me', { token: r1.body.data.accessToken })).status, 401);
  });

  test('the service key a bridge session makes ends with the session: revoked on /security, or by refresh-token reuse', async () => {
    const u = await signupTenant(srv, 'bkey');
    const signIn = async (name: string) => {
      const d = await start(name);
      assert.equal((await srv.api('POST', '/api/auth/device/confirm', { token: u.accessToken, body: { userCode: d.userCode } })).status, 200);
      tick(16);
      const got = await poll(d.deviceCode);
      assert.equal(got.status, 200, JSON.stringify(got.body));
      return got.body.data as { accessToken: string; refreshToken: string; sessionId: string };
    };
    const newKey = async (token: string, name: string, endsWithSession = true) => {
      const r = await srv.api('POST', '/api/keys', { token, body: { name, environment: 'production', ...(endsWithSession ? { endsWithSession } : {}) } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body.data as { key: string; record: { id: string } };
    };
    const works = (key: string) => keyWorks(srv, key);
    const revokedAt = async (id: string) => ((await srv.api('GET', '/api/keys?limit=100', { token: u.accessToken })).body.data.items as Array<{ id: string; revokedAt: string | null }>).find((k) => k.id === id)?.revokedAt;

    const desk = await signIn('Bridge desk');
    const bridgeKey = await newKey(desk.accessToken, 'Desktop bridge (Bridge desk)');
    const browserKey = await newKey(u.accessToken, 'Made in the browser', false);
    // A device session that mints a key without asking to tie it (the browser extension, which
    // ends its session once it has the key) keeps the key after the session ends.
    const ext = await signIn('Browser extension');
    const extKey = await newKey(ext.accessToken, 'Browser extension', false);
    assert.equal((await srv.api('POST', '/api/auth/logout', { token: ext.accessToken })).status, 200);
    assert.equal(await works(extKey.key), true, 'a key not tied to its session outlives it');
    // Tying a key to a browser session is refused: only a device session can own one.
    const tied = await srv.api('POST', '/api/keys', { token: u.accessToken, body: { name: 'tied', environment: 'production', endsWithSession: true } });
    assert.equal(tied.status, 400, JSON.stringify(tied.body));
    // Both work, and both now sit in the server's key cache.
    assert.equal(await works(bridgeKey.key), true);
    assert.equal(await works(browserKey.key), true);
    assert.equal((await srv.api('DELETE', `/api/users/me/sessions/${desk.sessionId}`, { token: u.accessToken })).status, 200);
    assert.equal(await works(bridgeKey.key), false, 'the bridge session’s key is refused at once');
    assert.ok(await revokedAt(bridgeKey.record.id), 'and shows revoked on the keys page');
    assert.equal(await works(browserKey.key), true, 'a key made in a browser session is not tied to it');
    assert.equal(await revokedAt(browserKey.record.id), null);

    // A session ended by refresh-token reuse takes its key along too.
    const lap = await signIn('Bridge lap');
    const lapKey = await newKey(lap.accessToken, 'Desktop bridge (Bridge lap)');
    assert.equal(await works(lapKey.key), true);
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: lap.refreshToken } })).status, 200);
    const reuse = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: lap.refreshToken } });
    assert.equal(reuse.body.code, 'session_revoked');
    assert.equal(await works(lapKey.key), false);

    // Signing out in the browser ends the browser session only; its key stays.
    assert.equal((await srv.api('POST', '/api/auth/logout', { token: u.accessToken })).status, 200);
    assert.equal(await works(browserKey.key), true);
  });

  test('codes expire after 15 minutes, for the device and for the approval page', async () => {
    const u = await signupTenant(srv, 'exp');
    const d = await start('Old desktop');
    tick(15 * 60 + 1);
    assert.equal((await poll(d.deviceCode)).body.code, 'expired_token');
    const token = (await srv.api('POST', '/api/auth/login', { body: { email: u.email, password: u.password } })).body.data.tokens.accessToken;
    const a = await srv.api('POST', '/api/auth/device/confirm', { token, body: { userCode: d.userCode } });
    assert.equal(a.status, 400);
    assert.equal(a.body.code, 'invalid_user_code');
    assert.match(a.body.error, /start its sign-in again/);
  });

  test('a denied code answers access_denied; unknown codes are refused', async () => {
    const u = await signupTenant(srv, 'deny');
    const d = await start('Not mine');
    const a = await srv.api('POST', '/api/auth/device/confirm', { token: u.accessToken, body: { userCode: d.userCode, approve: false } });
    assert.deepEqual(a.body.data, { deviceName: 'Not mine', approved: false });
    assert.equal((await poll(d.deviceCode)).body.code, 'access_denied');
    assert.equal((await poll('nope'.repeat(10))).body.code, 'invalid_grant');
    assert.equal((await srv.api('GET', '/api/auth/device/verify?userCode=BCDF-GHJK', { token: u.accessToken })).body.code, 'invalid_user_code');
    assert.equal((await srv.api('POST', '/api/auth/device', { body: { deviceName: '  ' } })).status, 400);
  });

  test('a cookie approval must come from the app’s own origin; a personal access token cannot approve', async () => {
    const u = await signupTenant(srv, 'cookie');
    const login = await fetch(`${srv.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: u.email, password: u.password }) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const d = await start('Cookie laptop');
    const approve = (origin: string) =>
      fetch(`${srv.url}/api/auth/device/confirm`, { method: 'POST', headers: { 'content-type': 'application/json', cookie, origin }, body: JSON.stringify({ userCode: d.userCode }) });
    const evil = await approve('https://evil.example');
    assert.equal(evil.status, 403);
    assert.equal((await evil.json()).code, 'cross_site');
    const own = await approve(srv.url);
    assert.equal(own.status, 200, await own.clone().text());

    const pat = await srv.api('POST', '/api/users/me/tokens', { token: u.accessToken, body: { name: 'cli' } });
    const d2 = await start('PAT laptop');
    const r = await srv.api('POST', '/api/auth/device/confirm', { token: pat.body.data.token, body: { userCode: d2.userCode } });
    assert.equal(r.status, 403);
  });
});

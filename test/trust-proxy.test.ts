// TRUST_PROXY: behind a load balancer every connection comes from the balancer, so per-address
// limits (sign-in, sign-up, device codes) and the addresses in sessions and the audit log must
// come from X-Forwarded-For, but only when the balancer is trusted; otherwise a client could pick
// its own address with the header and escape the limit. Two real servers: one with the default
// (nobody trusted), one trusting 127.0.0.1 as the cluster's HAProxy is trusted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from './harness.ts';

const MIN = 60_000;
let plain: TestServer;
let trusted: TestServer;

before(async () => {
  [plain, trusted] = await Promise.all([startTestServer({ worker: false }), startTestServer({ worker: false, env: { TRUST_PROXY: '127.0.0.1' } })]);
});
after(async () => {
  await Promise.all([plain?.close(), trusted?.close()]);
});

const login = (srv: TestServer, body: { email: string; password: string }, xff?: string) =>
  srv.api('POST', '/api/auth/login', { body: { email: body.email, password: body.password }, headers: xff ? { 'x-forwarded-for': xff } : {} });
const wrong = { email: 'nobody@example.test', password: 'not the password' };

async function auditIp(srv: TestServer, userId: string): Promise<string | null> {
  const r = await srv.services.db.selectFrom('security_audit').select('ip').where('user_id', '=', userId).where('event', '=', 'login').orderBy('seq', 'desc').executeTakeFirstOrThrow();
  return r.ip;
}

describe('TRUST_PROXY off (the default)', () => {
  test('X-Forwarded-For is ignored: a client cannot leave its sign-in bucket by naming other addresses', async () => {
    plain.clock.advance(MIN);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login(plain, wrong, `203.0.113.${i + 1}`)).status);
    assert.deepEqual(codes, [...Array(10).fill(401), 429]);
    plain.clock.advance(MIN);
  });

  test('the audit log records the connection address, not the header', async () => {
    plain.clock.advance(MIN);
    const t = await signupTenant(plain, 'plain');
    assert.equal((await login(plain, t, '198.51.100.20')).status, 200);
    assert.equal(await auditIp(plain, t.userId), '127.0.0.1');
    plain.clock.advance(MIN);
  });
});

describe('TRUST_PROXY=127.0.0.1 (a balancer on loopback)', () => {
  test('sign-in attempts are limited per client address the balancer forwards', async () => {
    trusted.clock.advance(MIN);
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await login(trusted, wrong, '203.0.113.7')).status);
    assert.deepEqual(codes, [...Array(10).fill(401), 429], 'the eleventh from one client is refused');
    assert.equal((await login(trusted, wrong, '198.51.100.9')).status, 401, 'another client behind the same balancer has its own bucket');
    assert.equal((await login(trusted, wrong)).status, 401, 'a request without the header counts against the balancer address itself');
    trusted.clock.advance(MIN);
  });

  test('sessions and the audit log record the client address; only the hop the trusted balancer added is believed', async () => {
    trusted.clock.advance(MIN);
    const t = await signupTenant(trusted, 'trusted');
    assert.equal((await login(trusted, t, '198.51.100.20')).status, 200);
    assert.equal(await auditIp(trusted, t.userId), '198.51.100.20');
    // A client that sends its own X-Forwarded-For through the balancer: the balancer appends the
    // address it saw, and that one (the last, from a trusted hop) is the client's.
    assert.equal((await login(trusted, t, '6.6.6.6, 198.51.100.21')).status, 200);
    assert.equal(await auditIp(trusted, t.userId), '198.51.100.21');
    trusted.clock.advance(MIN);
  });
});

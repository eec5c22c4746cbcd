// One shared suite over EVERY registered /api route (CONVENTIONS 9): without credentials, or with
// a forged or expired token, each answers 401 in the envelope, never 500 and never data.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import { startTestServer, type TestServer } from './harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

/** Routes that are public by design: they authenticate with what is in their body or query. */
const PUBLIC = new Set([
  'POST /auth/login',
  'POST /api/auth/login',
  'POST /api/auth/signup',
  'POST /api/auth/refresh',
  'GET /api/auth/verify-email',
  'POST /api/auth/verify-email',
  'POST /api/auth/password/forgot',
  'POST /api/auth/password/reset',
  'GET /api/members/invites/preview',
  'POST /api/members/invites/accept',
  // Device authorisation (D14): the device holds no credential yet; its device code is one.
  'POST /api/auth/device',
  'POST /api/auth/device/token',
]);
const isPublic = (method: string, url: string) => PUBLIC.has(`${method} ${url}`) || url.startsWith('/api/billing/sandbox') || url.startsWith('/api/billing/stripe');

const fill = (url: string) => url.replace(/:[a-zA-Z]+/g, '00000000-0000-4000-8000-000000000000');

test('every protected /api route answers 401 in the envelope without valid credentials', async () => {
  const routes = srv.app!.routeList.filter((r) => r.url.startsWith('/api/') && !isPublic(r.method, r.url));
  assert.ok(routes.length >= 20, `expected the /api surface, found ${routes.length} routes`);
  const forged = await new SignJWT({ tid: crypto.randomUUID(), sid: crypto.randomUUID(), typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(crypto.randomUUID())
    .setExpirationTime('15m')
    .sign(new TextEncoder().encode('not the server secret, at least 32 chars'));
  for (const r of routes) {
    for (const token of [undefined, forged, 'garbage', 'svc_pat_notreal']) {
      const res = await srv.api(r.method, fill(r.url), { token, body: ['POST', 'PATCH', 'PUT'].includes(r.method) ? {} : undefined });
      assert.equal(res.status, 401, `${r.method} ${r.url} with ${token ? 'a bad token' : 'no token'} → ${res.status}`);
      assert.equal(res.body.success, false);
      assert.equal(typeof res.body.error, 'string');
      assert.equal(res.body.data, undefined);
    }
  }
});

test('bad input never produces a 500: malformed JSON, wrong content type, huge body, unknown route', async () => {
  const r1 = await srv.api('POST', '/api/auth/login', { body: '{"email":', headers: { 'content-type': 'application/json' } });
  assert.equal(r1.status, 400);
  assert.equal(r1.body.code, 'malformed_json');
  const r2 = await srv.api('POST', '/api/auth/login', { body: 'email=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  assert.equal(r2.status, 415);
  const huge = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(srv.services.config.BODY_LIMIT_BYTES) });
  const r3 = await srv.api('POST', '/api/auth/login', { body: huge });
  assert.equal(r3.status, 413);
  assert.equal(r3.body.code, 'body_too_large');
  const r4 = await srv.api('GET', '/api/nope');
  assert.equal(r4.status, 404);
  assert.equal(r4.body.success, false);
  const r5 = await srv.api('POST', '/api/auth/login', { body: { email: 42, password: ['x'] } });
  assert.equal(r5.status, 400);
  assert.equal(r5.body.field, 'email');
  const r6 = await srv.api('GET', '/health');
  assert.equal(r6.status, 200);
});

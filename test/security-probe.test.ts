// The outside probe of issue 22, replayed: cross-site writes with the session cookie (item 1),
// inputs that reached a 500 (item 4), internal errors logged but never shown (item 5), and access
// tokens that must be refused (item 6). Each case answers what a client of that surface expects:
// the envelope on /api, the vendor's own error body on the proxy.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, decodeJwt } from 'jose';
import { sql } from 'kysely';
import { credit, signupTenant, startTestServer, tenantWithKey, type TestServer } from './harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const MIN = 60_000;
const EVIL = 'http://evil.example:8080';

/** Signs in through the API and returns the access cookie as a browser would send it back. */
async function browserSession(t: { email: string; password: string }) {
  const r = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
  const set = r.headers.getSetCookie().find((c) => c.startsWith('sb_access='))!;
  srv.clock.advance(MIN);
  return { cookie: set.split(';')[0], setCookie: set, accessToken: r.body.data.tokens.accessToken as string };
}

describe('cross-site writes with the session cookie (item 1)', () => {
  test('the access cookie is SameSite=Strict and httpOnly', async () => {
    const t = await signupTenant(srv, 'cookie');
    const s = await browserSession(t);
    assert.match(s.setCookie, /SameSite=Strict/i);
    assert.match(s.setCookie, /HttpOnly/i);
  });

  test('rotate a key, create a project, change the baseline: refused from another origin, allowed from ours', async () => {
    const t = await tenantWithKey(srv);
    const { cookie } = await browserSession(t);
    const writes = [
      ['POST', `/api/keys/${t.keyId}/rotate`, undefined],
      ['POST', '/api/projects', { name: 'from evil' }],
      ['PATCH', '/api/tenant/baseline', { providerKey: 'anthropic' }],
    ] as const;
    const crossSite: Array<Record<string, string>> = [
      { origin: EVIL },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { referer: `${EVIL}/page` },
      {},
    ];
    for (const [method, path, body] of writes) {
      for (const h of crossSite) {
        const r = await srv.api(method, path, { body, headers: { cookie, ...h } });
        assert.equal(r.status, 403, `${method} ${path} with ${JSON.stringify(h)}`);
        assert.equal(r.body.success, false);
        assert.equal(r.body.code, 'cross_site');
      }
    }
    // Nothing changed.
    const keys = await srv.api('GET', '/api/keys', { token: t.accessToken });
    assert.equal(keys.body.data.items.length, 1, 'no rotated key was created');
    const projects = await srv.api('GET', '/api/projects', { token: t.accessToken });
    assert.equal(projects.body.data.items.length, 1);
    assert.equal((await srv.api('GET', '/api/tenant/baseline', { token: t.accessToken })).body.data.providerKey, null);
    // The same writes from the service's own pages pass.
    const own: Array<Record<string, string>> = [{ origin: srv.url }, { 'sec-fetch-site': 'same-origin' }, { referer: `${srv.url}/billing` }];
    const statuses: number[] = [];
    for (const [i, [method, path, body]] of writes.entries()) {
      const r = await srv.api(method, path, { body, headers: { cookie, ...own[i] } });
      statuses.push(r.status);
    }
    assert.deepEqual(statuses, [201, 201, 200]);
    // Reads with the cookie are not writes; a Bearer token needs no origin (a page cannot set it).
    assert.equal((await srv.api('GET', '/api/projects', { headers: { cookie, origin: EVIL } })).status, 200);
    assert.equal((await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'script' }, headers: { origin: EVIL } })).status, 201);
    srv.clock.advance(MIN);
  });
});

/** The vendor error body each proxy shape answers with, reduced to what its SDK reads. */
function vendorError(shape: 'openai' | 'anthropic' | 'gemini', body: any): { message: string } {
  if (shape === 'anthropic') {
    assert.equal(body.type, 'error');
    assert.equal(typeof body.error.type, 'string');
    return body.error;
  }
  assert.equal(typeof body.error, 'object', JSON.stringify(body));
  if (shape === 'gemini') assert.equal(typeof body.error.status, 'string');
  else assert.equal(typeof body.error.type, 'string');
  assert.equal(typeof body.error.message, 'string');
  return body.error;
}

describe('no input reaches a 500 (item 4)', () => {
  test('huge token limits on every proxy route are a 400 in the vendor shape', async () => {
    const t = await tenantWithKey(srv);
    const auth = { authorization: `Bearer ${t.key}` };
    const routes = [
      ['openai', '/v1/chat/completions', (n: number) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: n })],
      ['openai', '/v1/chat-proxy/v1/chat/completions', (n: number) => ({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: n })],
      ['anthropic', '/v1/messages', (n: number) => ({ model: 'claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'hi' }], max_tokens: n })],
      ['anthropic', '/v1/messages-proxy/v1/messages', (n: number) => ({ model: 'claude-3-5-haiku-latest', messages: [{ role: 'user', content: 'hi' }], max_tokens: n })],
      ['gemini', '/v1/generate/generateContent', (n: number) => ({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: n } })],
      ['gemini', '/v1/generate/v1beta/models/gemini-2.0-flash:generateContent', (n: number) => ({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: n } })],
      ['gemini', '/v1/generate-proxy/v1beta/models/gemini-2.0-flash:streamGenerateContent', (n: number) => ({ contents: [{ parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: n } })],
    ] as const;
    for (const [shape, path, body] of routes) {
      for (const n of [9007199254740992, 1e30]) {
        const r = await srv.api('POST', path, { body: body(n), headers: auth });
        assert.equal(r.status, 400, `${path} with ${n}: ${JSON.stringify(r.body)}`);
        assert.match(vendorError(shape, r.body).message, /max_tokens|max_completion_tokens|maxOutputTokens/);
      }
    }
    // The largest exact integer is accepted: the reservation is capped at the model's own limit.
    const ok = await srv.api('POST', '/v1/chat/completions', { body: routes[0][2](Number.MAX_SAFE_INTEGER), headers: auth });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    srv.clock.advance(MIN);
  });

  test('a stray % in a Gemini model path, unauthenticated, is a 401 in the Gemini shape', async () => {
    for (const path of ['/v1/generate/v1beta/models/%25zz:generateContent', '/v1/generate-proxy/v1beta/models/%25zz:generateContent']) {
      const r = await srv.api('POST', path, { body: { contents: [{ parts: [{ text: 'hi' }] }] } });
      assert.equal(r.status, 401, `${path}: ${JSON.stringify(r.body)}`);
      vendorError('gemini', r.body);
    }
  });

  test('a URL whose percent-encoding does not decode is a 400 in the surface shape, not Fastify\'s', async () => {
    const t = await signupTenant(srv, 'badurl');
    const api = await srv.api('GET', '/api/projects/%E0%A4%A', { token: t.accessToken });
    assert.equal(api.status, 400);
    assert.deepEqual(Object.keys(api.body).sort(), ['code', 'error', 'field', 'success']);
    assert.equal(api.body.code, 'validation');
    const proxy = await srv.api('POST', '/v1/generate/v1beta/models/%E0%A4%A:generateContent', { body: {} });
    assert.equal(proxy.status, 400);
    vendorError('gemini', proxy.body);
    const chat = await srv.api('POST', '/v1/chat/%E0%A4%A', { body: {} });
    assert.ok(chat.status === 400 || chat.status === 404, String(chat.status));
    vendorError('openai', chat.body);
  });

  test('ledger filters and cursors beyond a bigint are a 400 with the field, on the listing and the export', async () => {
    const t = await signupTenant(srv, 'ledger');
    await credit(srv, t.tenantId, 5_000_000n);
    const big = '9223372036854775808'; // 2^63
    const cursor = Buffer.from(JSON.stringify({ seq: big })).toString('base64url');
    for (const base of ['/api/tenant/ledger', '/api/tenant/ledger/export']) {
      for (const [q, field] of [
        [`maxAmount=${big}`, 'maxAmount'],
        [`minAmount=${big}`, 'minAmount'],
        ['maxAmount=9999999999999999999', 'maxAmount'],
        [`cursor=${cursor}`, 'cursor'],
      ] as const) {
        const r = await srv.api('GET', `${base}?${q}`, { token: t.accessToken });
        assert.equal(r.status, 400, `${base}?${q}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.code, 'validation');
        assert.equal(r.body.field, field);
      }
    }
    const max = await srv.api('GET', '/api/tenant/ledger?maxAmount=9223372036854775807', { token: t.accessToken });
    assert.equal(max.status, 200);
    assert.equal(max.body.data.items.length, 1);
  });
});

describe('internal errors (item 5)', () => {
  test('are logged with message and stack, and the client sees only a generic 500', async () => {
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const loud = await startTestServer({ env: { LOG_LEVEL: 'error' }, database: srv.database, worker: false, sim: srv.sim });
    try {
      const t = await signupTenant(loud, 'broken');
      // Break the storage under one route, as a failed migration or a lost table would.
      await sql`alter table invoices rename to invoices_gone`.execute(loud.services.db);
      process.stderr.write = ((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      }) as typeof process.stderr.write;
      const r = await loud.api('GET', '/api/tenant/invoices', { token: t.accessToken });
      process.stderr.write = write;
      assert.equal(r.status, 500);
      assert.deepEqual(r.body, { success: false, error: 'Internal error', code: 'internal' });
      assert.doesNotMatch(JSON.stringify(r.body), /invoices_gone|invoices|relation|stack|at /);
      const logged = lines.find((l) => l.includes('unhandled error'));
      assert.ok(logged, `an error line was written: ${lines.join('\n')}`);
      const entry = JSON.parse(logged!);
      assert.match(entry.err.message, /relation "invoices" does not exist/, 'the message');
      assert.match(entry.err.stack, /\n\s+at .*invoices/, 'the stack, down to the code that ran the query');
    } finally {
      process.stderr.write = write;
      await sql`alter table if exists invoices_gone rename to invoices`.execute(loud.services.db);
      await loud.close();
    }
  });
});

describe('access tokens (item 6)', () => {
  const sign = (claims: Record<string, unknown>, sub: string, opts: { exp?: boolean } = { exp: true }) => {
    let j = new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(sub).setIssuedAt(Math.floor(srv.clock.now().getTime() / 1000));
    if (opts.exp) j = j.setExpirationTime(Math.floor(srv.clock.now().getTime() / 1000) + 600);
    return j.sign(srv.services.secrets.jwt);
  };

  test('a token without exp is refused even when correctly signed', async () => {
    const t = await signupTenant(srv, 'noexp');
    const c = decodeJwt(t.accessToken);
    const withExp = await sign({ tid: c.tid, sid: c.sid, typ: 'access' }, c.sub!);
    assert.equal((await srv.api('GET', '/api/users/me', { token: withExp })).status, 200, 'the control token works');
    const noExp = await sign({ tid: c.tid, sid: c.sid, typ: 'access' }, c.sub!, { exp: false });
    const r = await srv.api('GET', '/api/users/me', { token: noExp });
    assert.equal(r.status, 401);
    assert.equal(r.body.code, 'invalid_token');
  });

  test('the tenant comes from the session: a token naming another tenant than its session is refused', async () => {
    const victim = await signupTenant(srv, 'victim');
    const attacker = await signupTenant(srv, 'attacker');
    const c = decodeJwt(attacker.accessToken);
    const forged = await sign({ tid: victim.tenantId, sid: c.sid, typ: 'access' }, c.sub!);
    for (const path of ['/api/projects', '/api/tenant/wallet', '/api/keys']) {
      const r = await srv.api('GET', path, { token: forged });
      assert.equal(r.status, 401, path);
      assert.equal(r.body.data, undefined);
    }
  });

  test('sid or sub that is not a UUID is a 401, not a database error', async () => {
    const t = await signupTenant(srv, 'notuuid');
    const c = decodeJwt(t.accessToken);
    for (const [claims, sub] of [
      [{ tid: c.tid, sid: 'not-a-uuid', typ: 'access' }, c.sub!],
      [{ tid: c.tid, sid: c.sid, typ: 'access' }, "1' or '1'='1"],
      [{ tid: 'x', sid: c.sid, typ: 'access' }, c.sub!],
    ] as const) {
      const r = await srv.api('GET', '/api/users/me', { token: await sign(claims, sub) });
      assert.equal(r.status, 401, JSON.stringify(claims));
      assert.equal(r.body.code, 'invalid_token');
    }
    const refresh = await sign({ tid: c.tid, sid: 'nope', typ: 'refresh', jti: 'x' }, c.sub!);
    assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: refresh } })).status, 401);
    srv.clock.advance(MIN);
  });
});

// Tenant isolation on EVERY route the server registers (CONVENTIONS 9, issue 24 item 5). The route
// list comes from the server's own route table (`app.routeList`, filled by an onRoute hook), and
// every route must be classified in test/route-table.ts: a route added without a decision about its
// guard fails this file (fail closed), and public routes are listed there with their reason.
// For each classified route: no credential (or a forged, expired-looking or garbage one) is 401 in
// the surface's own shape; a role below the route's minimum is 403; another tenant's ids are 404.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { SignJWT } from 'jose';
import { signupTenant, startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { addMember, signIn } from './helpers.ts';
import { ROLE_RANK, ROLES, type Role } from '../src/core/identity.ts';
import { ROUTES, errorShapeProblem, routeKey, surfaceOf, type Resource } from './route-table.ts';

let srv: TestServer;
const MIN = 61_000;
type Tenant = Awaited<ReturnType<typeof tenantWithKey>>;
let A: Tenant;
let B: Tenant;
/** Tokens of tenant A per role (A.accessToken is its owner's). */
const roleTokens = new Map<Role, string>();
/** Tenant B's ids, one of each kind a path parameter can name. */
const bIds = new Map<Resource, string>();
/** Tenant A's own ids of the same kinds (the positive control: the 404 is about tenancy). */
const aIds = new Map<Resource, string>();
let adminToken = '';

async function fixtures(t: Tenant, ids: Map<Resource, string>) {
  const db = srv.services.db;
  const p = await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'second' } });
  assert.equal(p.status, 201, JSON.stringify(p.body));
  ids.set('project', p.body.data.id);
  ids.set('key', t.keyId);
  ids.set('member', t.userId);
  const session = await db.selectFrom('sessions').select('id').where('user_id', '=', t.userId).executeTakeFirstOrThrow();
  ids.set('session', session.id);
  const pat = await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'guard' } });
  assert.equal(pat.status, 201, JSON.stringify(pat.body));
  ids.set('pat', pat.body.data.record?.id ?? pat.body.data.id);
  const top = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
  assert.equal(top.status, 201, JSON.stringify(top.body));
  const conf = await fetch(`${top.body.data.checkoutUrl}/confirm`, { method: 'POST', redirect: 'manual' });
  assert.ok(conf.status < 400);
  const inv = await srv.api('GET', '/api/tenant/invoices', { token: t.accessToken });
  ids.set('invoice', inv.body.data.items[0].id);
  const hook = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: 'http://127.0.0.1:9/hook', events: ['stage.changed'] } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const hookId = hook.body.data.webhook?.id ?? hook.body.data.id;
  ids.set('webhook', hookId);
  // A finished delivery row (no receiver needed: the read path is what is checked).
  const deliveryId = randomUUID();
  await db
    .insertInto('webhook_deliveries')
    .values({ id: deliveryId, tenant_id: t.tenantId, webhook_id: hookId, event_type: 'stage.changed', body: '{}', status: 'failed', attempts: 1, created_at: srv.clock.now(), completed_at: srv.clock.now() } as never)
    .execute();
  ids.set('delivery', deliveryId);
  const invite = await srv.api('POST', '/api/members/invites', { token: t.accessToken, body: { email: `invitee-${randomUUID()}@example.test`, role: 'member' } });
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  ids.set('invite', invite.body.data.id);
  const imp = await fetch(`${srv.url}/api/advisory/imports?format=ndjson`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-ndjson' },
    body: `${JSON.stringify({ request: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, response: { id: 'c', object: 'chat.completion', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } })}\n`,
  });
  assert.equal(imp.status, 202, await imp.clone().text());
  ids.set('advisoryImport', ((await imp.json()) as { data: { id: string } }).data.id);
  const resp = await fetch(`${srv.url}/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'gpt-4o-mini', input: 'hello' }),
  });
  assert.equal(resp.status, 200, await resp.clone().text());
  ids.set('storedResponse', ((await resp.json()) as { id: string }).id);
  ids.set('tool', 'openai-sdk');
}

before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_LOGIN_PER_MIN: '1000', ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
  A = await tenantWithKey(srv);
  B = await tenantWithKey(srv);
  roleTokens.set('owner', A.accessToken);
  for (const role of ['admin', 'member', 'viewer'] as const) {
    const u = await signupTenant(srv, role);
    const joined = await addMember(srv, A, u, role);
    // The invitation's tokens act in tenant A with the invited role.
    roleTokens.set(role, joined.tokens.accessToken);
  }
  // A platform administrator (D11) of its own tenant.
  const pa = await signupTenant(srv, 'platform');
  await srv.services.db.updateTable('users').set({ platform_admin: true }).where('id', '=', pa.userId).execute();
  adminToken = await signIn(srv, pa);
  await fixtures(A, aIds);
  await fixtures(B, bIds);
  srv.clock.advance(MIN);
});
after(() => srv.close());

const ZERO = '00000000-0000-4000-8000-000000000000';
/** Fill a route's parameters: with the ids of `ids` where the route names a resource, else a well-formed unknown value. */
function fill(url: string, params: Record<string, Resource> | undefined, ids?: Map<Resource, string>): string {
  return url
    .replace(/:([a-zA-Z]+)/g, (_m, name: string) => {
      const kind = params?.[name];
      if (kind === 'tool') return 'openai-sdk';
      if (name === 'checkoutId') return 'cs_sandbox_000000000000000000000000';
      return (kind && ids?.get(kind)) ?? ZERO;
    })
    .replace('*', 'gemini-2.5-flash:generateContent');
}
const bodyFor = (method: string) => (['POST', 'PATCH', 'PUT'].includes(method) ? {} : undefined);

/** Every few dozen requests the per-user limit (600 a minute) would bite: move the clock on. */
let sent = 0;
function pace() {
  if (++sent % 200 === 0) srv.clock.advance(MIN);
}

function shapeOk(url: string, res: { status: number; body: unknown }, what: string) {
  const problem = errorShapeProblem(surfaceOf(url), res.body);
  assert.equal(problem, null, `${what}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 300)}: ${problem}`);
}

describe('the route table', () => {
  test('every registered route is classified, and every classified route exists (fail closed)', () => {
    const registered = srv.app!.routeList.map(routeKey);
    assert.ok(registered.length >= 140, `expected the whole surface, found ${registered.length} routes`);
    const unclassified = registered.filter((k) => !(k in ROUTES));
    assert.deepEqual(unclassified, [], 'classify these routes in test/route-table.ts (a guard, or public with a reason)');
    const stale = Object.keys(ROUTES).filter((k) => !registered.includes(k));
    assert.deepEqual(stale, [], 'these classified routes are no longer registered: remove them from test/route-table.ts');
    for (const [k, c] of Object.entries(ROUTES)) {
      if (c.guard.kind === 'public') assert.ok(c.guard.reason.length > 10, `${k}: a public route needs its reason`);
      for (const name of k.match(/:([a-zA-Z]+)/g) ?? []) if (c.guard.kind !== 'public') assert.ok(c.params?.[name.slice(1)], `${k}: say what ${name} names`);
    }
  });
});

describe('no credential → 401', () => {
  test('every guarded route answers 401 in its surface shape without valid credentials', async () => {
    const forged = await new SignJWT({ tid: A.tenantId, sid: randomUUID(), typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(A.userId)
      .setExpirationTime('15m')
      .sign(new TextEncoder().encode('not the server secret, at least 32 chars'));
    let checked = 0;
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (!c || c.guard.kind === 'public') continue;
      const url = fill(r.url, c.params, aIds);
      const bad = c.guard.kind === 'proxy' || c.guard.kind === 'key' ? [undefined, 'garbage', 'svc_live_notarealkey0000000000', forged] : [undefined, forged, 'garbage', 'svc_pat_notreal'];
      for (const token of bad) {
        pace();
        const res = await srv.api(r.method, url, { token, body: bodyFor(r.method) });
        assert.equal(res.status, 401, `${r.method} ${r.url} with ${token ? 'a bad credential' : 'no credential'} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        shapeOk(url, res, `${r.method} ${r.url}`);
        if (surfaceOf(url) === 'api') assert.equal(res.body.data, undefined);
        checked++;
      }
    }
    assert.ok(checked >= 4 * 110, `checked ${checked}`);
  });

  test('a proxy key is refused on the user routes and a user token on the key routes', async () => {
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (!c) continue;
      const url = fill(r.url, c.params, aIds);
      let token: string | undefined;
      if (c.guard.kind === 'user' || c.guard.kind === 'platform') token = A.key;
      else if (c.guard.kind === 'key' || c.guard.kind === 'proxy') token = A.accessToken;
      else continue;
      pace();
      const res = await srv.api(r.method, url, { token, body: bodyFor(r.method) });
      assert.equal(res.status, 401, `${r.method} ${r.url} with the wrong kind of credential → ${res.status}`);
      shapeOk(url, res, `${r.method} ${r.url}`);
    }
  });
});

describe('a lower role → 403', () => {
  test('every role below a route’s minimum is refused, in the envelope', async () => {
    let checked = 0;
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (!c) continue;
      const min = c.guard.kind === 'user' || c.guard.kind === 'userOrKey' ? c.guard.role : null;
      if (!min) continue;
      for (const role of ROLES.filter((x) => ROLE_RANK[x] < ROLE_RANK[min])) {
        pace();
        const res = await srv.api(r.method, fill(r.url, c.params, aIds), { token: roleTokens.get(role), body: bodyFor(r.method) });
        assert.equal(res.status, 403, `${r.method} ${r.url} as ${role} (needs ${min}) → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.code, 'forbidden');
        checked++;
      }
    }
    assert.ok(checked >= 40, `checked ${checked}`);
  });

  test('/api/admin answers 403 to everyone but platform administrators, owners included', async () => {
    let checked = 0;
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (c?.guard.kind !== 'platform') continue;
      assert.ok(r.url.startsWith('/api/admin/'), `${r.url}: platform routes live under /api/admin`);
      for (const role of ROLES) {
        pace();
        const res = await srv.api(r.method, fill(r.url, c.params), { token: roleTokens.get(role), body: bodyFor(r.method) });
        assert.equal(res.status, 403, `${r.method} ${r.url} as a tenant ${role} → ${res.status}`);
        assert.equal(res.body.code, 'forbidden');
        checked++;
      }
      // The positive control: a platform administrator gets past the guard.
      const ok = await srv.api(r.method, fill(r.url, c.params), { token: adminToken, body: bodyFor(r.method) });
      assert.ok(![401, 403].includes(ok.status) && ok.status < 500, `${r.method} ${r.url} as a platform admin → ${ok.status}`);
    }
    assert.ok(checked >= 60, `checked ${checked}`);
    // Every /api/admin route is a platform route.
    for (const r of srv.app!.routeList) if (r.url.startsWith('/api/admin')) assert.equal(ROUTES[routeKey(r)]?.guard.kind, 'platform', r.url);
  });
});

describe("another tenant's ids → 404", () => {
  test('every route naming a tenant-owned id answers 404 to another tenant, and not to its own', async () => {
    let checked = 0;
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (!c?.params || c.guard.kind === 'public' || c.guard.kind === 'platform') continue;
      const credentials = c.guard.kind === 'proxy' ? [A.key] : c.guard.kind === 'userOrKey' ? [A.accessToken, A.key] : [A.accessToken];
      for (const token of credentials) {
        const url = fill(r.url, c.params, bIds);
        pace();
        const res = await srv.api(r.method, url, { token, body: c.sample ?? bodyFor(r.method) });
        assert.equal(res.status, 404, `${r.method} ${url} (${Object.values(c.params).join(', ')} of tenant B) as tenant A → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
        shapeOk(url, res, `${r.method} ${r.url}`);
        checked++;
        // Reads with tenant A's own ids succeed: the 404 above is the tenancy, not the id's form.
        if (r.method === 'GET' && !r.url.endsWith('/events')) {
          const own: { status: number; body: unknown } = await srv.api('GET', fill(r.url, c.params, aIds), { token });
          assert.equal(own.status, 200, `GET ${r.url} with tenant A's own ids → ${own.status} ${JSON.stringify(own.body)?.slice(0, 200)}`);
        }
      }
    }
    assert.ok(checked >= 30, `checked ${checked}`);
  });

  test("ids in bodies and queries: another tenant's project is 404", async () => {
    const cases: Array<[string, string, unknown]> = [
      ['POST', '/api/keys', { name: 'x', environment: 'dev', projectId: bIds.get('project') }],
      ['POST', '/api/copy-paste', { projectId: bIds.get('project'), prompt: 'hello' }],
    ];
    for (const [method, path, body] of cases) {
      const res = await srv.api(method, path, { token: A.accessToken, body });
      assert.equal(res.status, 404, `${method} ${path} with tenant B's project → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
      assert.equal(res.body.success, false);
    }
    const imp = await fetch(`${srv.url}/api/advisory/imports?projectId=${bIds.get('project')}`, { method: 'POST', headers: { authorization: `Bearer ${A.accessToken}`, 'content-type': 'application/x-ndjson' }, body: '{}\n' });
    assert.equal(imp.status, 404, 'an advisory upload into tenant B’s project');
    const sw = await srv.api('POST', '/api/auth/switch', { token: A.accessToken, body: { tenantId: B.tenantId } });
    assert.ok(sw.status === 404 || sw.status === 403, `switching into a tenant one is not a member of → ${sw.status}`);
    assert.equal(sw.body.data, undefined);
  });
});

describe('positive control', () => {
  test('every guarded GET route without parameters lets its own credential through', async () => {
    for (const r of srv.app!.routeList) {
      const c = ROUTES[routeKey(r)];
      if (!c || r.method !== 'GET' || r.url.includes(':') || c.guard.kind === 'public' || c.guard.kind === 'platform') continue;
      const token = c.guard.kind === 'key' || c.guard.kind === 'proxy' ? A.key : A.accessToken;
      pace();
      const res = await srv.api('GET', r.url, { token });
      assert.ok(![401, 403, 404].includes(res.status) && res.status < 500, `GET ${r.url} with its own credential → ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`);
    }
  });
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

/** One raw exchange on a fresh socket: what the server answers to bytes no HTTP client would send. */
function rawExchange(bytes: string): Promise<{ status: number; body: any; raw: string }> {
  return new Promise((resolve, reject) => {
    const u = new URL(srv.url);
    const sock = connect(Number(u.port), u.hostname, () => sock.end(bytes));
    let data = '';
    sock.on('data', (c) => (data += c.toString('latin1')));
    sock.on('error', reject);
    sock.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      let body: unknown = null;
      try {
        body = JSON.parse(rest.join('\r\n\r\n'));
      } catch {
        /* more than one answer: see raw */
      }
      resolve({ status: Number(head.split(' ')[1]), body, raw: data });
    });
  });
}

test('requests the HTTP parser refuses answer in the surface shape too (issue 24 item 4)', async () => {
  // A GET whose body has no Content-Length: the body is read as a second request, which is garbage.
  const unframed = await rawExchange(`GET /api/tenant HTTP/1.1\r\nHost: x\r\n\r\n{"model":1,"model":{}}`);
  const garbage = await rawExchange('{"model":1}\r\n\r\n');
  assert.equal(garbage.status, 400);
  assert.deepEqual({ success: garbage.body.success, code: garbage.body.code }, { success: false, code: 'validation' });
  assert.match(unframed.raw, /HTTP\/1\.1 400 [^]*"success":false,"error":"The request is not valid HTTP\/1\.1[^"]*","code":"validation"/, unframed.raw);
  assert.doesNotMatch(unframed.raw, /Client Error/);
  const big = 'x'.repeat(20_000);
  const anthropic = await rawExchange(`POST /v1/messages HTTP/1.1\r\nHost: x\r\nx-big: ${big}\r\n\r\n`);
  assert.equal(anthropic.status, 431);
  assert.equal(errorShapeProblem('anthropic', anthropic.body), null, JSON.stringify(anthropic.body));
  const gemini = await rawExchange(`POST /v1/generate/generateContent HTTP/1.1\r\nHost: x\r\nx-big: ${big}\r\n\r\n`);
  assert.equal(gemini.status, 431);
  assert.equal(errorShapeProblem('gemini', gemini.body), null, JSON.stringify(gemini.body));
  const api = await rawExchange(`GET /api/tenant HTTP/1.1\r\nHost: x\r\nx-big: ${big}\r\n\r\n`);
  assert.equal(api.status, 431);
  assert.equal(api.body.code, 'headers_too_large');
  assert.equal(errorShapeProblem('api', api.body), null);
});

// Conformance (issue 14 item 2): every path, field, header, event, enum, error and limit that
// service-spec.md and decisions.md name (test/conformance/spec-items.ts), checked item by item
// against the real server over plain HTTP, the way an acceptance check written from those two
// files alone would see it. Items marked `open` are reported as diagnostics, not asserted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { credit, signupTenant, startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { eventually, signIn } from './helpers.ts';
import { openStream } from './sse-client.ts';
import { startReceiver, verifyServiceSignature, verifyStandardSignature, type Receiver } from './webhook-receiver.ts';
import { makePlatformAdmin } from './money.ts';
import { BEHAVIOURS, ENUMS, EVENTS, FIELDS, FRAME_FIELDS, HEADERS, ROUTES, WEB_ROUTES, type FieldType, type RouteItem } from './conformance/spec-items.ts';

let srv: TestServer;
let rx: Receiver;
type Tenant = Awaited<ReturnType<typeof tenantWithKey>>;
let t: Tenant;
let adminToken: string;
let hookSecret: string;

interface Res {
  status: number;
  body: any;
  headers: Headers;
}

before(async () => {
  // Sign-ups and logins share the per-address limit (10 a minute, D9), asserted on a server of its own below.
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', SSE_HEARTBEAT_MS: '300', RATE_LIMIT_LOGIN_PER_MIN: '100000' } });
  rx = await startReceiver();
  t = await tenantWithKey(srv);
  const b = await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } });
  assert.equal(b.status, 200);
  const hook = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/conformance`, events: ['llm.call'], description: 'conformance' } });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  hookSecret = hook.body.data.secret;
  const a = await signupTenant(srv, 'admin');
  await makePlatformAdmin(srv.services, a.userId);
  adminToken = a.accessToken;
});
after(async () => {
  await srv.close();
  await rx.close();
});

// ---------------------------------------------------------------------------------------------
// Type checks for the field tables.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function isType(v: unknown, type: FieldType): boolean {
  return type.split('|').some((one) => {
    switch (one) {
      case 'null':
        return v === null;
      case 'string':
        return typeof v === 'string';
      case 'number':
        return typeof v === 'number' && Number.isFinite(v);
      case 'integer':
        return Number.isInteger(v);
      case 'boolean':
        return typeof v === 'boolean';
      case 'object':
        return typeof v === 'object' && v !== null && !Array.isArray(v);
      case 'array':
        return Array.isArray(v);
      case 'uuid':
        return typeof v === 'string' && UUID.test(v);
      case 'iso':
        return typeof v === 'string' && ISO.test(v);
      case 'int':
        return typeof v === 'string' && /^-?\d+$/.test(v);
      case 'uint':
        return typeof v === 'string' && /^\d+$/.test(v);
      case 'hex64':
        return typeof v === 'string' && /^[0-9a-f]{64}$/.test(v);
      case 'jwt':
        return typeof v === 'string' && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(v);
      default:
        throw new Error(`unknown field type ${one}`);
    }
  });
}

/** `data.items[0].id` → the value, or undefined with `has` false when a step is missing. */
function at(obj: unknown, path: string): { has: boolean; value: unknown } {
  let cur: any = obj;
  for (const step of path.split('.')) {
    const m = /^([^[]+)(?:\[(\d+)\])?$/.exec(step)!;
    if (cur === null || typeof cur !== 'object' || !(m[1] in cur)) return { has: false, value: undefined };
    cur = cur[m[1]];
    if (m[2] !== undefined) {
      if (!Array.isArray(cur) || cur.length <= Number(m[2])) return { has: false, value: undefined };
      cur = cur[Number(m[2])];
    }
  }
  return { has: true, value: cur };
}

/** No route: 405, or a 404 that is the server's no-route answer (envelope or vendor shape) or the web app's not-found page. */
const isNoRoute = (r: Res) => r.status === 405 || (r.status === 404 && (typeof r.body === 'string' || /No route /.test(JSON.stringify(r.body))));

const proxyHeaders = (key: string) => ({ authorization: `Bearer ${key}` });
const chat = (key: string, extra: Record<string, string> = {}) =>
  srv.api('POST', '/v1/chat/completions', { headers: { ...proxyHeaders(key), ...extra }, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Write a haiku about the sea' }] } });

// ---------------------------------------------------------------------------------------------
// Probes: the responses the field and header tables are read from, each fetched once.

let webhookDelivery: Promise<{ headers: Record<string, unknown>; body: Buffer }> | undefined;
const probes: Record<string, () => Promise<Res>> = {
  'GET /api/users/me': () => srv.api('GET', '/api/users/me', { token: t.accessToken }),
  'error 404': () => srv.api('GET', `/api/projects/${randomUUID()}`, { token: t.accessToken }),
  'error 400': () => srv.api('GET', '/api/tenant/ledger?limit=201', { token: t.accessToken }),
  'POST /auth/login': () => srv.api('POST', '/auth/login', { body: { email: t.email, password: t.password } }),
  'POST /api/auth/signup': () =>
    srv.api('POST', '/api/auth/signup', { body: { email: `signup-${randomUUID()}@example.test`, password: 'correct horse battery staple', name: 'Signup', tenantName: 'Signup Co' } }),
  'POST /api/auth/refresh': async () => {
    const l = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    return srv.api('POST', '/api/auth/refresh', { body: { refreshToken: l.body.data.tokens.refreshToken } });
  },
  'GET /api/users/me/sessions': () => srv.api('GET', '/api/users/me/sessions', { token: t.accessToken }),
  'GET /api/tenant/wallet': () => srv.api('GET', '/api/tenant/wallet', { token: t.accessToken }),
  'POST /api/tenant/wallet/topup': () => srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } }),
  'GET /api/tenant/ledger': async () => {
    await chat(t.key);
    return srv.api('GET', '/api/tenant/ledger', { token: t.accessToken });
  },
  'GET /api/admin/tenants/:id/ledger': async () => {
    await chat(t.key);
    return srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger`, { token: adminToken });
  },
  'GET /api/tenant/ledger/verify': () => srv.api('GET', '/api/tenant/ledger/verify', { token: t.accessToken }),
  'GET /api/tenant/baseline': () => srv.api('GET', '/api/tenant/baseline', { token: t.accessToken }),
  'PATCH /api/tenant/baseline': () => srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } }),
  'GET /api/tenant/insights/overview': () => srv.api('GET', '/api/tenant/insights/overview', { token: t.accessToken }),
  'GET /api/tenant/insights/activity': () => srv.api('GET', '/api/tenant/insights/activity', { token: t.accessToken }),
  'GET /api/tenant/insights/usage': () => srv.api('GET', '/api/tenant/insights/usage', { token: t.accessToken }),
  'GET /api/tenant/insights/savings': () => srv.api('GET', '/api/tenant/insights/savings', { token: t.accessToken }),
  'GET /api/tenant/insights/audit': () => srv.api('GET', '/api/tenant/insights/audit', { token: t.accessToken }),
  'POST /api/keys': () => srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'conformance', environment: 'staging' } }),
  'GET /api/keys': () => srv.api('GET', '/api/keys', { token: t.accessToken }),
  'POST /api/keys/:id/rotate': async () => {
    const k = await srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'to rotate', environment: 'dev' } });
    return srv.api('POST', `/api/keys/${k.body.data.record.id}/rotate`, { token: t.accessToken });
  },
  'GET /api/projects/:id': () => srv.api('GET', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken }),
  'GET /api/projects': () => srv.api('GET', '/api/projects', { token: t.accessToken }),
  'GET /api/users/me/tokens': async () => {
    await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'listed' } });
    return srv.api('GET', '/api/users/me/tokens', { token: t.accessToken });
  },
  'POST /api/users/me/tokens': () => srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'cli' } }),
  'GET /api/users/me/audit': () => srv.api('GET', '/api/users/me/audit', { token: t.accessToken }),
  'POST /api/webhooks': () => srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/other`, events: ['stage.changed'], description: 'd' } }),
  'GET /api/webhooks': () => srv.api('GET', '/api/webhooks', { token: t.accessToken }),
  'GET /api/webhooks/:id/deliveries': async () => {
    const hooks = await srv.api('GET', '/api/webhooks', { token: t.accessToken });
    return srv.api('GET', `/api/webhooks/${hooks.body.data.items[0].id}/deliveries`, { token: t.accessToken });
  },
  'GET /api/webhooks/deliveries/:id': async () => {
    const d = await delivered();
    // The receiver has the POST before the attempt's outcome (signature, attempts) is committed.
    const path = `/api/webhooks/deliveries/${String(d.headers['x-service-delivery'])}`;
    for (let i = 0; i < 100; i++) {
      const r = await srv.api('GET', path, { token: t.accessToken });
      if (r.status !== 200 || r.body.data.attempts >= 1) return r;
      await new Promise((res) => setTimeout(res, 50));
    }
    return srv.api('GET', path, { token: t.accessToken });
  },
  'GET /api/tenant/invoices': async () => {
    await topUp(t, 2_000_000n);
    return srv.api('GET', '/api/tenant/invoices', { token: t.accessToken });
  },
  'GET /api/members': () => srv.api('GET', '/api/members', { token: t.accessToken }),
  'GET /api/members/invites': () => srv.api('GET', '/api/members/invites', { token: t.accessToken }),
  'GET /api/tenant': () => srv.api('GET', '/api/tenant', { token: t.accessToken }),
  'GET /api/auth/tenants': () => srv.api('GET', '/api/auth/tenants', { token: t.accessToken }),
  'POST /api/auth/switch': () => srv.api('POST', '/api/auth/switch', { token: t.accessToken, body: { tenantId: t.tenantId } }),
  'POST /api/auth/device': () => srv.api('POST', '/api/auth/device', { body: { deviceName: 'Conformance laptop' } }),
  'GET /v1/models': () => srv.api('GET', '/v1/models', { headers: proxyHeaders(t.key) }),
  'POST /v1/messages/count_tokens': () =>
    srv.api('POST', '/v1/messages/count_tokens', { headers: { 'x-api-key': t.key }, body: { model: 'claude-haiku-4-5', messages: [{ role: 'user', content: 'How many tokens is this?' }] } }),
  'GET /api/admin/learning/budget': () => srv.api('GET', '/api/admin/learning/budget', { token: adminToken }),
  'GET /api/admin/learning/proposals': () => srv.api('GET', '/api/admin/learning/proposals', { token: adminToken }),
  'GET /.well-known/switchboard-ledger-key': () => srv.api('GET', '/.well-known/switchboard-ledger-key'),
};
const probeCache = new Map<string, Promise<Res>>();
const probe = (name: string): Promise<Res> => {
  const p = probes[name];
  if (!p) throw new Error(`no probe named ${name}`);
  if (!probeCache.has(name)) probeCache.set(name, p());
  return probeCache.get(name)!;
};

/** The first webhook delivery of llm.call to the receiver (a call made for it). */
function delivered() {
  webhookDelivery ??= (async () => {
    await chat(t.key);
    const got = await rx.waitFor(1, 10_000);
    const r = got.find((x) => x.path === '/conformance')!;
    return { headers: r.headers as Record<string, unknown>, body: r.body };
  })();
  return webhookDelivery;
}

async function topUp(who: { accessToken: string }, micros: bigint) {
  const c = await srv.api('POST', '/api/tenant/wallet/topup', { token: who.accessToken, body: { amountMicros: micros.toString() } });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  const res = await fetch(`${c.body.data.checkoutUrl}/confirm`, { method: 'POST', redirect: 'manual' });
  assert.ok(res.status < 400, `confirm answered ${res.status}`);
  return c.body.data;
}

// ---------------------------------------------------------------------------------------------

const fill = (path: string) => path.replace(/:id\b/g, randomUUID()).replace('<model>', 'gemini-2.5-flash');

async function callRoute(item: RouteItem, who: { token: string; key: string }): Promise<Res> {
  const [path, query] = fill(item.path).split('?');
  const url = query ? `${path}?${query}` : path;
  const body = ['POST', 'PATCH', 'PUT'].includes(item.method) ? {} : undefined;
  if (item.auth === 'key') return srv.api(item.method, url, { headers: proxyHeaders(who.key), body });
  return srv.api(item.method, url, { token: item.auth === 'none' ? undefined : item.auth === 'admin' ? adminToken : who.token, body });
}

describe('paths (spec §4, decisions)', () => {
  test('every named method and path is routed (not 404 "no route", not 405)', async (ctx) => {
    // A tenant of its own: the sweep logs out and changes things.
    const sweep = await tenantWithKey(srv);
    const routes = [...ROUTES].sort((a, b) => Number(a.path === '/api/auth/logout') - Number(b.path === '/api/auth/logout'));
    const failures: string[] = [];
    for (const item of routes) {
      const res = await callRoute(item, { token: sweep.accessToken, key: sweep.key });
      const routed = !isNoRoute(res) && res.status < 500;
      if (item.result.startsWith('open')) {
        if (routed) ctx.diagnostic(`${item.method} ${item.path} is marked open but is now routed (${res.status}): mark it ok in test/conformance/spec-items.ts`);
        continue;
      }
      if (!routed) failures.push(`${item.method} ${item.path} (${item.source}) → ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    assert.deepEqual(failures, []);
  });

  test('every web route of D13 answers the app', async (ctx) => {
    const failures: string[] = [];
    for (const w of WEB_ROUTES) {
      const res = await fetch(srv.url + w.path);
      const okNow = res.status === 200 && /text\/html/.test(res.headers.get('content-type') ?? '') && !!res.headers.get('content-security-policy');
      if (w.result.startsWith('open')) {
        if (okNow) ctx.diagnostic(`${w.path} is marked open but now answers: mark it ok in test/conformance/spec-items.ts`);
      } else if (!okNow) failures.push(`${w.path} (${w.source}) → ${res.status} ${res.headers.get('content-type')}, CSP ${res.headers.get('content-security-policy') ? 'set' : 'missing'}`);
    }
    assert.deepEqual(failures, []);
  });
});

describe('fields (spec §2, §4, decisions)', () => {
  const byProbe = new Map<string, typeof FIELDS>();
  for (const it of FIELDS) byProbe.set(it.probe, [...(byProbe.get(it.probe) ?? []), it]);
  for (const [name, items] of byProbe) {
    test(`${name}: ${items.map((i) => i.field).join(', ')}`, async () => {
      const res = await probe(name);
      const failures: string[] = [];
      for (const it of items) {
        const v = at(res.body, it.field);
        const okNow = v.has && isType(v.value, it.type);
        if (it.result.startsWith('open')) continue;
        if (!okNow) failures.push(`${it.field} (${it.source}): expected ${it.type}, got ${v.has ? JSON.stringify(v.value)?.slice(0, 80) : 'no such field'}`);
      }
      assert.deepEqual(failures, [], `${name} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    });
  }

  test('the customer ledger omits every internal column (D8); the admin view shows them', async () => {
    const cust = await probe('GET /api/tenant/ledger');
    const adm = await probe('GET /api/admin/tenants/:id/ledger');
    const internal = ['eventType', 'modelId', 'providerKey', 'actualCostUsdMicros', 'baselineCostUsdMicros', 'benchmarkPricingVersion', 'benchmarkMethodologyVersion'];
    for (const row of cust.body.data.items) for (const k of internal) assert.equal(k in row, false, `customer row carries ${k}`);
    const usage = adm.body.data.items.find((x: any) => x.eventType === 'AI_USAGE');
    assert.ok(usage, 'an AI_USAGE row in the admin view');
    assert.equal(typeof usage.modelId, 'string');
    assert.equal(usage.benchmarkProvider, 'openai');
    assert.match(usage.benchmarkMethodologyVersion, /.+/);
    assert.match(usage.benchmarkPricingVersion, /.+/);
  });
});

describe('headers (spec §6, §7, D6, D10)', () => {
  const sources: Record<string, () => Promise<Record<string, string | null>>> = {
    'proxy call': async () => {
      const r = await chat(t.key);
      assert.equal(r.status, 200);
      return Object.fromEntries(HEADERS.filter((h) => h.probe === 'proxy call').map((h) => [h.header, r.headers.get(h.header)]));
    },
    'proxy 429': async () => {
      const x = await tenantWithKey(srv);
      let last: Res | undefined;
      for (let i = 0; i < 61; i++) {
        last = await srv.api('POST', '/v1/messages-proxy/v1/messages', { headers: { 'x-api-key': x.key }, body: { model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
        if (i < 60) assert.equal(last.status, 200, `call ${i + 1} of 60 is within the limit: ${JSON.stringify(last.body).slice(0, 200)}`);
      }
      assert.equal(last!.status, 429, 'the 61st messages call in a minute is refused (§8: 60 per minute)');
      assert.equal(last!.body.type, 'error', 'in the Anthropic error shape');
      return Object.fromEntries(HEADERS.filter((h) => h.probe === 'proxy 429').map((h) => [h.header, last!.headers.get(h.header)]));
    },
    'webhook delivery': async () => {
      const d = await delivered();
      return Object.fromEntries(HEADERS.filter((h) => h.probe === 'webhook delivery').map((h) => [h.header, (d.headers[h.header] as string | undefined) ?? null]));
    },
    'event stream': async () => {
      const s = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
      s.close();
      return { 'content-type': s.headers.get('content-type') };
    },
  };
  for (const [name, get] of Object.entries(sources)) {
    const items = HEADERS.filter((h) => h.probe === name);
    test(`${name}: ${items.map((h) => h.header).join(', ')}`, async () => {
      const got = await get();
      for (const h of items) {
        if (h.result.startsWith('open')) continue;
        assert.match(got[h.header] ?? '(absent)', new RegExp(h.pattern), `${h.header} (${h.source})`);
      }
    });
  }
});

describe('events (spec §6, D10)', () => {
  test('the stream: connected frame, event name = type, id per frame, frame fields, llm.call payload, heartbeat comment', async () => {
    const s = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
    try {
      assert.equal(s.status, 200);
      const connected = await s.next('connected');
      const c = JSON.parse(connected.data);
      assert.equal(c.projectId, t.defaultProjectId);
      assert.ok(isType(c.at, 'iso'), 'connected.at is ISO 8601');
      await chat(t.key, { 'x-service-channel': 'mcp' });
      const rec = await s.next('llm.call', 10_000);
      assert.match(rec.id ?? '', /.+/, 'every event frame has an SSE id');
      const frame = JSON.parse(rec.data);
      for (const [k, type] of Object.entries(FRAME_FIELDS)) assert.ok(isType(frame[k], type), `frame.${k} is ${type}: ${JSON.stringify(frame[k])}`);
      assert.equal(frame.type, rec.event, 'the SSE event name equals the frame type');
      const spec = EVENTS.find((e) => e.type === 'llm.call')!;
      for (const [k, type] of Object.entries(spec.payload)) assert.ok(isType(frame.payload[k], type), `llm.call payload.${k} is ${type}: ${JSON.stringify(frame.payload[k])}`);
      assert.equal(frame.payload.channel, 'mcp', 'x-service-channel names the channel (D14)');
      for (const [name, field] of [['model classes', 'modelClass'], ['task families', 'taskFamily'], ['complexity', 'complexity'], ['channels', 'channel']] as const) {
        const e = ENUMS.find((x) => x.name.startsWith(name))!;
        assert.ok(e.values.includes(frame.payload[field]), `${field} ${frame.payload[field]} is one of ${e.name}`);
      }
      await s.until((raw) => /\n: heartbeat \d{13}\n/.test(raw) || raw.startsWith(': heartbeat '), 5_000);
      // Resume: a second stream with Last-Event-ID receives the frames after it.
      await chat(t.key);
      const second = await s.next('llm.call', 10_000);
      const resumed = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken, lastEventId: rec.id });
      try {
        const again = await resumed.next((r) => r.id === second.id, 5_000);
        assert.equal(again.data, second.data);
      } finally {
        resumed.close();
      }
    } finally {
      s.close();
    }
    assert.equal(srv.services.config.SSE_HEARTBEAT_MS, 300, 'this server runs a short heartbeat');
    const { loadConfig } = await import('../src/config.ts');
    assert.equal(loadConfig({}).SSE_HEARTBEAT_MS, 25_000, 'the default heartbeat is every 25 seconds (§8)');
  });

  test('every D10 event type arrives on the stream from the operation that emits it, as a frame with the named payload fields', async () => {
    const x = await signupTenant(srv, 'events');
    await credit(srv, x.tenantId, 20_000_000n);
    const s = await openStream(`${srv.url}/api/service/projects/${x.defaultProjectId}/events`, { token: x.accessToken });
    const seen = new Map<string, any>();
    try {
      await s.next('connected');
      // stage.changed (onboarding → connected → live) and llm.call: the project's first call.
      const k = await srv.api('POST', '/api/keys', { token: x.accessToken, body: { name: 'events', environment: 'dev', projectId: x.defaultProjectId } });
      assert.equal((await chat(k.body.data.key)).status, 200);
      // routing.escalated: a refused answer climbs one rung.
      const [fault] = srv.sim.faults.add({ answer: 'refusal', times: 1, promptIncludes: 'ESCALATE-ME' });
      const esc = await srv.api('POST', '/v1/chat/completions', { headers: proxyHeaders(k.body.data.key), body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ESCALATE-ME: say hello to the team in one friendly sentence.' }] } });
      srv.sim.faults.remove(fault);
      assert.equal(esc.status, 200);
      // wallet.topup: a confirmed top-up (tenant-wide, on the default project's stream).
      await topUp(x, 1_000_000n);
      // connector.connected, then connector.disconnected: the integration's test, then its removal.
      const ct = await srv.api('POST', `/api/projects/${x.defaultProjectId}/integrations/openai-sdk/test`, { token: x.accessToken });
      assert.equal(ct.status, 200, JSON.stringify(ct.body));
      const rm = await srv.api('DELETE', `/api/projects/${x.defaultProjectId}/integrations/openai-sdk`, { token: x.accessToken });
      assert.equal(rm.status, 200, JSON.stringify(rm.body));
      // budget.exhausted: a monthly budget below what the project has spent.
      const b = await srv.api('PATCH', `/api/projects/${x.defaultProjectId}`, { token: x.accessToken, body: { monthlyBudgetMicros: '1' } });
      assert.equal(b.status, 200, JSON.stringify(b.body));
      assert.equal((await chat(k.body.data.key)).status, 402);
      // wallet.threshold and runway.threshold: a tenant of its own with a small balance and thresholds
      // above its balance and runway; its first debit crosses both (tenant-wide: the default project's stream).
      const y = await signupTenant(srv, 'alerts');
      await credit(srv, y.tenantId, 400n);
      const n = await srv.api('PATCH', '/api/users/me/notifications', { token: y.accessToken, body: { balanceThresholdMicros: '1000', runwayThresholdDays: 3650 } });
      assert.equal(n.status, 200, JSON.stringify(n.body));
      const ys = await openStream(`${srv.url}/api/service/projects/${y.defaultProjectId}/events`, { token: y.accessToken });
      try {
        await ys.next('connected');
        const yk = await srv.api('POST', '/api/keys', { token: y.accessToken, body: { name: 'alerts', environment: 'dev' } });
        const small = await srv.api('POST', '/v1/chat/completions', { headers: proxyHeaders(yk.body.data.key), body: { model: 'gpt-4o-mini', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] } });
        assert.equal(small.status, 200, JSON.stringify(small.body));
        for (const type of ['wallet.threshold', 'runway.threshold']) {
          const r = await ys.next(type, 15_000);
          assert.equal(JSON.parse(r.data).tenantId, y.tenantId);
          seen.set(type, r);
        }
      } finally {
        ys.close();
      }
      // presence.heartbeat: another viewer joins.
      const other = await openStream(`${srv.url}/api/service/projects/${x.defaultProjectId}/events`, { token: x.accessToken });
      await other.next('connected');
      other.close();
      const want = EVENTS.map((e) => e.type);
      await eventually(async () => {
        for (const r of s.records) if (r.event && want.includes(r.event) && !seen.has(r.event)) seen.set(r.event, r);
        return want.every((w) => seen.has(w)) ? true : undefined;
      }, 15_000, 'every event type').catch(() => undefined);
    } finally {
      s.close();
    }
    const missing = EVENTS.filter((e) => !e.result.startsWith('open') && !seen.has(e.type)).map((e) => e.type);
    assert.deepEqual(missing, [], `event types seen: ${[...seen.keys()].join(', ')}`);
    for (const e of EVENTS) {
      const rec = seen.get(e.type);
      if (!rec) continue;
      assert.match(rec.id ?? '', /.+/, `${e.type} has an SSE id`);
      const frame = JSON.parse(rec.data);
      assert.equal(frame.type, e.type, 'the SSE event name equals the frame type');
      for (const [k, type] of Object.entries(FRAME_FIELDS)) assert.ok(isType(frame[k], type), `${e.type} frame.${k} is ${type}: ${JSON.stringify(frame[k])}`);
      for (const [k, type] of Object.entries(e.payload)) assert.ok(isType(frame.payload[k], type), `${e.type} payload.${k} is ${type}: ${JSON.stringify(frame.payload)}`);
    }
    const stages = ENUMS.find((e) => e.name === 'project stages')!.values;
    const st = JSON.parse(seen.get('stage.changed').data).payload;
    assert.ok(stages.includes(st.from) && stages.includes(st.to), JSON.stringify(st));
  });

  test('the stream also authenticates with the access cookie (§5)', async () => {
    const s = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { cookie: `sb_access=${t.accessToken}` });
    try {
      assert.equal(s.status, 200);
      await s.next('connected');
    } finally {
      s.close();
    }
  });

  test('webhook delivery: body is the frame, both signatures verify, llm.call payload fields', async () => {
    const d = await delivered();
    const frame = JSON.parse(d.body.toString('utf8'));
    for (const [k, type] of Object.entries(FRAME_FIELDS)) assert.ok(isType(frame[k], type), `body.${k} is ${type}`);
    assert.equal(frame.type, d.headers['x-service-event']);
    assert.ok(verifyServiceSignature(hookSecret, { path: '/', headers: d.headers as any, body: d.body }), 'X-Service-Signature verifies');
    assert.ok(verifyStandardSignature(hookSecret, { path: '/', headers: d.headers as any, body: d.body }, Math.floor(srv.clock.now().getTime() / 1000)), 'webhook-signature verifies');
    assert.equal(d.headers['webhook-id'], d.headers['x-service-delivery'], 'webhook-id is the delivery id');
    const spec = EVENTS.find((e) => e.type === 'llm.call')!;
    for (const [k, type] of Object.entries(spec.payload)) assert.ok(isType(frame.payload[k], type), `payload.${k} is ${type}`);
  });

  test('every D10 event type is accepted by webhook registration; an unknown one is a 400 naming the field', async () => {
    const names = ENUMS.find((e) => e.source === 'D10' && e.name.startsWith('webhook event types'))!.values;
    assert.deepEqual(EVENTS.map((e) => e.type).sort(), [...names].sort());
    const x = await signupTenant(srv, 'hooks');
    const ok = await srv.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: `${rx.url}/all`, events: names, description: 'all' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual([...ok.body.data.webhook.events].sort(), [...names].sort());
    const bad = await srv.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: `${rx.url}/bad`, events: ['llm.calls'], description: '' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.code, 'validation');
    assert.match(bad.body.field, /^events/);
  });
});

describe('enums', () => {
  test('D1 benchmark provider keys and brands: each is accepted and named', async () => {
    const keys = ENUMS.find((e) => e.name.startsWith('benchmark provider keys'))!.values;
    const brands = ENUMS.find((e) => e.name.startsWith('brand names'))!.values;
    const x = await signupTenant(srv, 'enum');
    for (const [i, k] of keys.entries()) {
      const r = await srv.api('PATCH', '/api/tenant/baseline', { token: x.accessToken, body: { providerKey: k } });
      assert.equal(r.status, 200, k);
      const g = await srv.api('GET', '/api/tenant/baseline', { token: x.accessToken });
      assert.equal(g.body.data.providerKey, k);
      assert.equal(g.body.data.brand, brands[i]);
    }
    const bad = await srv.api('PATCH', '/api/tenant/baseline', { token: x.accessToken, body: { providerKey: 'OpenAI' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'providerKey');
  });

  test('key environments, idle sign-out choices, roles and ledger labels/types', async () => {
    const x = await signupTenant(srv, 'enum2');
    for (const env of ENUMS.find((e) => e.name.startsWith('key environment'))!.values) {
      const k = await srv.api('POST', '/api/keys', { token: x.accessToken, body: { name: env, environment: env } });
      assert.equal(k.status, 201, env);
      assert.equal(k.body.data.record.environment, env);
    }
    for (const v of ENUMS.find((e) => e.name.startsWith('idle sign-out'))!.values) {
      const r = await srv.api('PATCH', '/api/users/me', { token: x.accessToken, body: { idleTimeout: v } });
      assert.equal(r.status, 200, `${v}: ${JSON.stringify(r.body)}`);
    }
    for (const role of ENUMS.find((e) => e.name.startsWith('member roles'))!.values.filter((r) => r !== 'owner')) {
      const r = await srv.api('POST', '/api/members/invites', { token: x.accessToken, body: { email: `${role}-${randomUUID()}@example.test`, role } });
      assert.equal(r.status, 201, `${role}: ${JSON.stringify(r.body)}`);
    }
    const labels = ENUMS.find((e) => e.name === 'customerLabel')!.values;
    const types = ENUMS.find((e) => e.name.startsWith('eventType'))!.values;
    for (const [i, type] of types.entries()) {
      const r = await srv.api('GET', `/api/tenant/ledger?type=${type}`, { token: t.accessToken });
      assert.equal(r.status, 200, type);
      for (const row of r.body.data.items) assert.equal(row.customerLabel, labels[i]);
    }
    const adm = await srv.api('GET', `/api/admin/tenants/${t.tenantId}/ledger`, { token: adminToken });
    for (const row of adm.body.data.items) assert.equal(row.customerLabel, labels[types.indexOf(row.eventType)]);
  });

  test('project stages and integration tile statuses', async () => {
    const stages = ENUMS.find((e) => e.name === 'project stages')!.values;
    const p = await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'Stages' } });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    assert.equal(p.body.data.stage, 'onboarding');
    const def = await probe('GET /api/projects/:id');
    assert.ok(stages.includes(def.body.data.stage));
    const tiles = await srv.api('GET', `/api/projects/${t.defaultProjectId}/integrations`, { token: t.accessToken });
    assert.equal(tiles.status, 200, JSON.stringify(tiles.body));
    const statuses = ENUMS.find((e) => e.name === 'integration tile status')!.values;
    assert.ok(tiles.body.data.items.length > 0);
    for (const tile of tiles.body.data.items) assert.ok(statuses.includes(tile.status), tile.status);
  });
});

describe('behaviours and limits', () => {
  const done = new Set<string>();
  const check = (name: string, fn: () => Promise<void>) => {
    done.add(name);
    test(name, fn);
  };

  check('login tokens', async () => {
    const r = await probe('POST /auth/login');
    const a = decodeJwt(r.body.data.tokens.accessToken);
    const f = decodeJwt(r.body.data.tokens.refreshToken);
    assert.equal(a.exp! - a.iat!, 15 * 60);
    assert.equal(f.exp! - f.iat!, 7 * 24 * 3600);
  });

  check('refresh rotation', async () => {
    const l = await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } });
    const first = l.body.data.tokens.refreshToken;
    const r1 = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: first } });
    assert.equal(r1.status, 200);
    assert.notEqual(r1.body.data.refreshToken, first);
    const reuse = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: first } });
    assert.equal(reuse.status, 401);
    const after = await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: r1.body.data.refreshToken } });
    assert.equal(after.status, 401, 'reuse of a rotated token revoked the session');
  });

  check('key formats', async () => {
    const x = await signupTenant(srv, 'keys');
    for (const [env, prefix] of [['production', 'svc_live_'], ['staging', 'svc_stage_'], ['dev', 'svc_dev_']]) {
      const k = await srv.api('POST', '/api/keys', { token: x.accessToken, body: { name: env, environment: env } });
      assert.match(k.body.data.key, new RegExp(`^${prefix}[0-9A-Za-z]{38}$`));
      assert.equal(k.body.data.record.prefix, k.body.data.key.slice(0, 12));
      assert.equal(k.body.data.record.last4, k.body.data.key.slice(-4));
    }
    const pat = await probe('POST /api/users/me/tokens');
    assert.match(pat.body.data.token, /^svc_pat_/);
  });

  check('key headers', async () => {
    const body = { model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] };
    for (const h of [{ 'x-api-key': t.key }, proxyHeaders(t.key)] as Array<Record<string, string>>) {
      assert.equal((await srv.api('POST', '/v1/messages-proxy/v1/messages', { headers: h, body })).status, 200);
      assert.equal((await srv.api('POST', '/v1/chat-proxy/v1/chat/completions', { headers: h, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] } })).status, 200);
    }
    const g = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    for (const h of [{ 'x-api-key': t.key }, proxyHeaders(t.key), { 'x-goog-api-key': t.key }] as Array<Record<string, string>>) {
      assert.equal((await srv.api('POST', '/v1/generate-proxy/v1beta/models/gemini-2.5-flash:generateContent', { headers: h, body: g })).status, 200);
    }
  });

  check('proxy errors', async () => {
    const bad = 'svc_dev_notarealkeynotarealkeynotarealkey12';
    const o = await srv.api('POST', '/v1/chat/completions', { headers: proxyHeaders(bad), body: { model: 'm', messages: [{ role: 'user', content: 'x' }] } });
    assert.equal(o.status, 401);
    assert.equal(typeof o.body.error.message, 'string', 'OpenAI error shape');
    const a = await srv.api('POST', '/v1/messages', { headers: { 'x-api-key': bad }, body: { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] } });
    assert.equal(a.status, 401);
    assert.equal(a.body.type, 'error', 'Anthropic error shape');
    assert.equal(a.body.error.type, 'authentication_error');
    const g = await srv.api('POST', '/v1/generate-proxy/v1beta/models/gemini-2.5-flash:generateContent', { headers: { 'x-goog-api-key': bad }, body: { contents: [] } });
    assert.equal(g.status, 401);
    assert.equal(g.body.error.code, 401, 'Gemini error shape');
    const poor = await tenantWithKey(srv, { micros: 1n });
    const p = await chat(poor.key);
    assert.equal(p.status, 402);
    assert.equal(p.body.error.code, 'insufficient_balance');
    const m = await srv.api('POST', '/v1/chat/completions', { headers: { ...proxyHeaders(t.key), 'content-type': 'application/json' }, body: '{"model":' });
    assert.equal(m.status, 400);
    const big = await srv.api('POST', '/v1/chat/completions', { headers: proxyHeaders(t.key), body: { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(srv.services.config.BODY_LIMIT_BYTES) }] } });
    assert.equal(big.status, 413);
    assert.equal(typeof big.body.error.message, 'string');
  });

  check('proxy upstream errors', async () => {
    // Only openai configured: a messages-shape call has no upstream of its vendor → 503.
    const x = await startTestServer({ sim: srv.sim, worker: false, env: { OPENAI_API_KEY: 'sk-conformance', OPENAI_BASE_URL: `${srv.sim.url}/openai` } });
    try {
      const k = await tenantWithKey(x);
      const r = await x.api('POST', '/v1/messages-proxy/v1/messages', { headers: { 'x-api-key': k.key }, body: { model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] } });
      assert.equal(r.status, 503, JSON.stringify(r.body));
      assert.equal(r.body.type, 'error');
    } finally {
      await x.close();
    }
    const [fault] = srv.sim.faults.add({ status: 500 });
    try {
      const r = await chat(t.key);
      assert.equal(r.status, 502, JSON.stringify(r.body));
      assert.equal(typeof r.body.error.message, 'string');
    } finally {
      srv.sim.faults.remove(fault);
    }
  });

  check('proxy rate limits', async () => {
    const x = await tenantWithKey(srv);
    const shapes: Array<[string, number, Record<string, unknown>]> = [
      ['/v1/messages-proxy/v1/messages', 60, { model: 'claude-haiku-4-5', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/chat-proxy/v1/chat/completions', 120, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/generate-proxy/v1beta/models/gemini-2.5-flash:generateContent', 60, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }],
    ];
    for (const [path, limit, body] of shapes) {
      const r = await srv.api('POST', path, { headers: proxyHeaders(x.key), body });
      assert.equal(r.status, 200, path);
      assert.equal(r.headers.get('x-ratelimit-limit'), String(limit), `${path}: ${limit} per minute (§8)`);
    }
  });

  check('api rate limits', async () => {
    const x = await signupTenant(srv, 'rl');
    let last: Res | undefined;
    for (let i = 0; i < 601 && (!last || last.status !== 429); i++) last = await srv.api('GET', '/api/tenant/baseline', { token: x.accessToken });
    assert.equal(last!.status, 429, '600 requests per minute per user (D9)');
    assert.equal(last!.body.success, false);
    assert.equal(last!.body.code, 'rate_limited');
    assert.ok(last!.headers.get('retry-after'));
    const other = await startTestServer({ worker: false });
    try {
      const statuses: number[] = [];
      for (let n = 0; n < 11; n++) statuses.push((await other.api('POST', '/api/auth/login', { body: { email: `nobody-${n}@example.test`, password: 'wrong password, clearly' } })).status);
      assert.deepEqual(statuses, [...Array(10).fill(401), 429], 'ten logins a minute from one address, the 11th is refused (D9)');
    } finally {
      await other.close();
    }
  });

  check('pagination', async () => {
    const x = await signupTenant(srv, 'pages');
    for (let i = 0; i < 3; i++) await srv.api('POST', '/api/projects', { token: x.accessToken, body: { name: `P${i}` } });
    const lists = ['/api/projects', '/api/keys', '/api/users/me/sessions', '/api/users/me/tokens', '/api/users/me/audit', '/api/auth/tenants', '/api/webhooks', '/api/tenant/invoices', '/api/tenant/ledger', '/api/members', '/api/members/invites'];
    for (let i = 0; i < 2; i++) {
      await srv.api('POST', '/api/users/me/tokens', { token: x.accessToken, body: { name: `t${i}` } });
      await srv.api('POST', '/api/members/invites', { token: x.accessToken, body: { email: `inv${i}-${randomUUID()}@example.test`, role: 'member' } });
      await signIn(srv, x);
    }
    for (const path of lists) {
      const first = await srv.api('GET', `${path}?limit=1`, { token: x.accessToken });
      assert.equal(first.status, 200, `${path}: ${JSON.stringify(first.body)}`);
      assert.ok(Array.isArray(first.body.data.items), `${path} has items`);
      assert.ok('nextCursor' in first.body.data, `${path} has nextCursor`);
      assert.ok(first.body.data.items.length <= 1, `${path} honours limit`);
      if (first.body.data.nextCursor) {
        const next = await srv.api('GET', `${path}?limit=1&cursor=${encodeURIComponent(first.body.data.nextCursor)}`, { token: x.accessToken });
        assert.equal(next.status, 200, path);
        assert.equal(next.body.data.items.length, 1, `${path} second page`);
        assert.notEqual(next.body.data.items[0].id ?? JSON.stringify(next.body.data.items[0]), first.body.data.items[0].id ?? JSON.stringify(first.body.data.items[0]), `${path} second page differs`);
      }
      const over = await srv.api('GET', `${path}?limit=201`, { token: x.accessToken });
      assert.equal(over.status, 400, `${path}: limit above 200 is refused`);
      assert.equal(over.body.field, 'limit');
    }
    const withPages = ['/api/projects', '/api/users/me/sessions', '/api/users/me/tokens', '/api/members/invites'];
    for (const path of withPages) {
      const first = await srv.api('GET', `${path}?limit=1`, { token: x.accessToken });
      assert.ok(first.body.data.nextCursor, `${path} has a second page`);
    }
    const def = await srv.api('GET', '/api/tenant/ledger', { token: t.accessToken });
    assert.ok(def.body.data.items.length <= 50, 'default page size 50');
  });

  check('ledger filters', async () => {
    const q = `type=AI_USAGE&projectId=${t.defaultProjectId}&from=2000-01-01T00:00:00Z&to=2100-01-01T00:00:00Z&minAmount=0&maxAmount=100000000`;
    const r = await srv.api('GET', `/api/tenant/ledger?${q}`, { token: t.accessToken });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.data.items.length > 0);
    for (const row of r.body.data.items) {
      assert.equal(row.customerLabel, 'AI usage');
      assert.equal(row.projectId, t.defaultProjectId);
    }
    const none = await srv.api('GET', '/api/tenant/ledger?from=2100-01-01T00:00:00Z', { token: t.accessToken });
    assert.equal(none.body.data.items.length, 0);
  });

  check('api errors', async () => {
    const expect = (r: Res, status: number, code: string) => {
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.success, false);
      assert.equal(typeof r.body.error, 'string');
      assert.equal(r.body.code, code);
    };
    expect(await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: '' } }), 400, 'validation');
    expect(await srv.api('GET', '/api/users/me'), 401, 'unauthenticated');
    const viewer = await signupTenant(srv, 'viewer');
    expect(await srv.api('GET', '/api/admin/learning/budget', { token: viewer.accessToken }), 403, 'forbidden');
    expect(await srv.api('GET', `/api/projects/${randomUUID()}`, { token: t.accessToken }), 404, 'not_found');
    const d = await delivered();
    const succeeded = await srv.api('POST', `/api/webhooks/deliveries/${String(d.headers['x-service-delivery'])}/replay`, { token: t.accessToken });
    expect(succeeded, 409, 'conflict');
  });

  check('ledger fields', async () => {
    const r = await probe('GET /api/tenant/ledger');
    assert.ok(r.body.data.items.length > 0);
  });

  check('event stream', async () => {
    // Asserted in 'the stream: …' and 'the stream also authenticates with the access cookie'.
    const s = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken, accept: 'application/json' });
    s.close();
    assert.notEqual(s.status, 200, 'a client that does not accept text/event-stream gets no stream');
  });

  check('webhook delivery', async () => {
    const d = await delivered();
    assert.equal(d.headers['content-type'], 'application/json');
  });

  check('webhook retry', async () => {
    const x = await tenantWithKey(srv);
    rx.respondOn('/fails', 500);
    const h = await srv.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: `${rx.url}/fails`, events: ['llm.call'], description: '' } });
    assert.equal(h.status, 201);
    assert.equal((await chat(x.key)).status, 200);
    const d = await eventually(async () => {
      const l = await srv.api('GET', `/api/webhooks/${h.body.data.webhook.id}/deliveries`, { token: x.accessToken });
      const it = l.body.data.items[0];
      return it && it.attempts >= 1 && it.nextAttemptAt ? it : undefined;
    }, 10_000, 'a failed first attempt');
    const detail = await srv.api('GET', `/api/webhooks/deliveries/${d.id}`, { token: x.accessToken });
    const started = Date.parse(detail.body.data.attemptLog[0].startedAt);
    assert.equal(Date.parse(d.nextAttemptAt) - started, 60_000, 'the first retry is 1 minute later');
    rx.respondOn('/fails', 200);
    const replay = await srv.api('POST', `/api/webhooks/deliveries/${d.id}/replay`, { token: x.accessToken });
    assert.equal(replay.status, 202, JSON.stringify(replay.body));
    const done2 = await eventually(async () => {
      const g = await srv.api('GET', `/api/webhooks/deliveries/${d.id}`, { token: x.accessToken });
      return g.body.data.status === 'succeeded' ? g.body.data : undefined;
    }, 10_000, 'the replay to succeed');
    assert.equal(done2.nextAttemptAt, null, 'pending retries are cancelled (D10a)');
    const again = await srv.api('POST', `/api/webhooks/deliveries/${d.id}/replay`, { token: x.accessToken });
    assert.equal(again.status, 409);
  });

  check('webhook url rules', async () => {
    const strict = await startTestServer({ worker: false });
    try {
      const x = await signupTenant(strict, 'ssrf');
      const http = await strict.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: 'http://203.0.113.10/h', events: ['llm.call'], description: '' } });
      assert.equal(http.status, 400);
      assert.equal(http.body.field, 'url');
      const priv = await strict.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: 'https://127.0.0.1/h', events: ['llm.call'], description: '' } });
      assert.equal(priv.status, 400);
      assert.match(priv.body.error, /ALLOW_PRIVATE_WEBHOOK_TARGETS/);
    } finally {
      await strict.close();
    }
    const y = await signupTenant(srv, 'twenty');
    for (let i = 0; i < 20; i++) {
      const r = await srv.api('POST', '/api/webhooks', { token: y.accessToken, body: { url: `${rx.url}/n${i}`, events: ['llm.call'], description: '' } });
      assert.equal(r.status, 201, `webhook ${i + 1}`);
    }
    const over = await srv.api('POST', '/api/webhooks', { token: y.accessToken, body: { url: `${rx.url}/n21`, events: ['llm.call'], description: '' } });
    assert.ok(over.status === 409 || over.status === 400, `the 21st webhook is refused: ${over.status}`);
    assert.equal(over.body.success, false);
  });

  check('top-up', async () => {
    const x = await signupTenant(srv, 'topup');
    const before = await srv.api('GET', '/api/tenant/wallet', { token: x.accessToken });
    const c = await topUp(x, 3_000_000n);
    assert.equal(typeof c.checkoutId, 'string');
    const w = await srv.api('GET', '/api/tenant/wallet', { token: x.accessToken });
    assert.equal(BigInt(w.body.data.balance) - BigInt(before.body.data.balance), 3_000_000n);
    const l = await srv.api('GET', '/api/tenant/ledger?type=WALLET_TOPUP', { token: x.accessToken });
    assert.equal(l.body.data.items.length, 1);
    assert.equal(l.body.data.items[0].customerLabel, 'Top-up');
    assert.equal(l.body.data.items[0].projectId, null, 'top-ups are tenant-wide');
    const inv = await srv.api('GET', '/api/tenant/invoices', { token: x.accessToken });
    assert.equal(inv.body.data.items.length, 1);
    const pdf = await fetch(`${srv.url}/api/tenant/invoices/${inv.body.data.items[0].id}/pdf`, { headers: { authorization: `Bearer ${x.accessToken}` } });
    assert.equal(pdf.status, 200);
    assert.match(pdf.headers.get('content-type') ?? '', /application\/pdf/);
    assert.equal(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString(), '%PDF-');
  });

  check('activity feed size', async () => {
    const x = await tenantWithKey(srv);
    await credit(srv, x.tenantId, 1n);
    for (let i = 0; i < 52; i++) await srv.api('POST', '/v1/chat-proxy/v1/chat/completions', { headers: proxyHeaders(x.key), body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `hi ${i}` }] } });
    const feed = await eventually(async () => {
      const r = await srv.api('GET', '/api/tenant/insights/activity', { token: x.accessToken });
      return r.body.data.items.length >= 50 ? r : undefined;
    }, 10_000, 'the feed to fill');
    assert.equal(feed.body.data.items.length, 50, 'the last 50 events (§8)');
  });

  check('reserved verbs', async () => {
    for (const verb of ['approve', 'reject', 'publish', 'promote', 'rollout', 'rollback']) {
      const r = await srv.api('POST', `/api/admin/learning/proposals/${randomUUID()}/${verb}`, { token: adminToken, body: {} });
      assert.equal(r.status, 404, verb);
    }
  });

  check('admin budget', async () => {
    const list = await probe('GET /api/admin/learning/budget');
    const row = list.body.data.items.find((b: any) => b.category === 'synthgen') ?? list.body.data.items[0];
    assert.ok(row, JSON.stringify(list.body));
    const r = await srv.api('PATCH', `/api/admin/learning/budget/${row.id}`, { token: adminToken, body: { budgetMicros: '7000000' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const again = await srv.api('GET', '/api/admin/learning/budget', { token: adminToken });
    assert.equal(again.body.data.items.find((b: any) => b.id === row.id).budgetMicros, '7000000');
  });

  check('proxy model echo', async () => {
    const r = await srv.api('POST', '/v1/chat/completions', { headers: proxyHeaders(t.key), body: { model: 'my-own-model-name', messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(r.status, 200);
    assert.equal(r.body.model, 'my-own-model-name');
  });

  check('channel header', async () => {
    // Asserted on the stream in 'the stream: …' (x-service-channel: mcp → payload.channel mcp); an unknown one is refused.
    const r = await chat(t.key, { 'x-service-channel': 'carrier-pigeon' });
    assert.equal(r.status, 400);
  });

  check('device start without body', async () => {
    const none = await fetch(`${srv.url}/api/auth/device`, { method: 'POST' });
    assert.equal(none.status, 200, await none.clone().text());
    const empty = await srv.api('POST', '/api/auth/device', { body: {} });
    assert.equal(empty.status, 200, JSON.stringify(empty.body));
    assert.match(empty.body.data.userCode, /.+/);
  });

  check('empty bodies', async () => {
    const x = await tenantWithKey(srv);
    const k = await srv.api('POST', '/api/keys', { token: x.accessToken, body: { name: 'r', environment: 'dev' } });
    const h = await srv.api('POST', '/api/webhooks', { token: x.accessToken, body: { url: `${rx.url}/e`, events: ['llm.call'], description: '' } });
    const paths = [`/api/keys/${k.body.data.record.id}/rotate`, `/api/webhooks/${h.body.data.webhook.id}/rotate-secret`, '/api/users/me/verify-email'];
    for (const path of paths) {
      for (const headers of [{}, { 'content-type': 'application/json' }] as Array<Record<string, string>>) {
        const res = await fetch(srv.url + path, { method: 'POST', headers: { authorization: `Bearer ${x.accessToken}`, ...headers } });
        assert.ok(res.status < 300, `${path} with ${JSON.stringify(headers)} → ${res.status} ${await res.text()}`);
      }
    }
    for (const headers of [{}, { 'content-type': 'application/json' }] as Array<Record<string, string>>) {
      const token = await signIn(srv, x);
      const res = await fetch(`${srv.url}/api/auth/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
      assert.equal(res.status, 200, `logout with ${JSON.stringify(headers)} → ${await res.text()}`);
    }
  });

  test('every behaviour of spec-items.ts has its check here', () => {
    const elsewhere = (c: string) => c === 'not checked' || c.endsWith('.test.ts');
    const missing = BEHAVIOURS.filter((b) => !done.has(b.check) && !elsewhere(b.check)).map((b) => b.check);
    assert.deepEqual(missing, []);
  });
});

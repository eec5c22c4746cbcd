// Hostile input, property-based (issue 24 item 4; docs/hostile-input.md). fast-check generates
// requests for every route of the server's own route table (the /api surface, the proxy's three
// shapes on their generic and vendor-prefixed routes, and the rest) plus stray paths under /api
// and /v1: wrong types, huge and negative numbers, deep nesting, invalid UTF-8 bytes, oversized
// fields, duplicated JSON keys, bad content types, garbage in path parameters, queries and
// headers, and valid ids of the test tenant and of another tenant. They run in concurrent batches
// against the real server, real PostgreSQL and the simulated upstream. For every answer:
//   - never a 5xx (no 503/529 either: the simulator is up) and never a stack trace;
//   - an error is in the surface's own shape: the envelope on /api, the vendor's body on /v1;
//   - never a partial write: when no request of a batch succeeded, the database's fingerprint
//     (test/hostile/fingerprint.ts) is unchanged.
// HOSTILE_SEED replays a run (the seed is printed); HOSTILE_CASES sets the number of cases.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { credit, signupTenant, startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { addMember, signIn } from './helpers.ts';
import { ROUTES, errorShapeProblem, routeKey, surfaceOf, type Resource } from './route-table.ts';
import { changed, fingerprinter, type Fingerprinter } from './hostile/fingerprint.ts';
import { closeClient, send, type RawResponse } from './hostile/client.ts';
import { bodyArb, contentType, credArb, credentialHeaders, extraHeaders, queryArb, segmentGarbage, type Case, type Pools, type RouteInfo } from './hostile/arbitraries.ts';

const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : 20_241_124;
const CASES = process.env.HOSTILE_CASES ? Number(process.env.HOSTILE_CASES) : 10_000;
const BATCH = 16;
const MIN = 61_000;

let srv: TestServer;
let fp: Fingerprinter;
let base: URL;
let owner: Awaited<ReturnType<typeof tenantWithKey>>;
const tokens = { owner: '', admin: '', member: '', viewer: '', key: '' };
let adminUser: { email: string; password: string };
const ownIds: Record<string, string[]> = {};
const otherIds: Record<string, string[]> = {};

/** Valid bodies per route, the starting points the generators mutate. */
const SAMPLES: Record<string, unknown[]> = {};
function samplesFor(key: string, url: string): unknown[] {
  const chat = { model: 'auto', messages: [{ role: 'user', content: 'Say hi' }], max_tokens: 16 };
  const messages = { model: 'claude-haiku-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'Say hi' }] };
  const gemini = { contents: [{ role: 'user', parts: [{ text: 'Say hi' }] }], generationConfig: { maxOutputTokens: 16 } };
  if (url.includes('chat/completions')) return [chat, { ...chat, model: 'gpt-4o-mini', stream: true }, { ...chat, tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }] }];
  if (url.endsWith('/responses')) return [{ model: 'gpt-4o-mini', input: 'Say hi' }, { model: 'auto', input: [{ role: 'user', content: 'hi' }], stream: true, store: false }];
  if (url.endsWith('count_tokens')) return [{ model: 'claude-haiku-4-5', messages: messages.messages }];
  if (url.endsWith('/messages')) return [messages, { ...messages, stream: true, system: 'Be brief' }];
  if (url.startsWith('/v1/generate')) return [gemini, { ...gemini, model: 'gemini-2.5-flash' }];
  return SAMPLES[key] ?? [];
}

/** Body and query field names per route, from the OpenAPI document the server builds from its schemas. */
function schemaFields(doc: any, method: string, url: string) {
  const op = doc.paths?.[url.replace(/:([a-zA-Z]+)/g, '{$1}')]?.[method.toLowerCase()];
  const props = op?.requestBody?.content?.['application/json']?.schema?.properties ?? {};
  const query = (op?.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => String(p.name));
  return { bodyFields: Object.keys(props), queryFields: query };
}

before(async () => {
  srv = await startTestServer({
    worker: false,
    env: {
      RATE_LIMIT_CHAT_PER_MIN: '1000000',
      RATE_LIMIT_MESSAGES_PER_MIN: '1000000',
      RATE_LIMIT_GENERATE_PER_MIN: '1000000',
      RATE_LIMIT_LOGIN_PER_MIN: '1000000',
      ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true',
    },
  });
  base = new URL(srv.url);
  owner = await tenantWithKey(srv, { micros: 1_000_000_000_000n });
  tokens.owner = owner.accessToken;
  tokens.key = owner.key;
  for (const role of ['member', 'viewer'] as const) {
    const u = await signupTenant(srv, role);
    const joined = await addMember(srv, owner, u, role);
    tokens[role] = joined.tokens.accessToken;
    (ownIds.member ??= []).push(joined.user.id);
  }
  const pa = await signupTenant(srv, 'platform');
  await srv.services.db.updateTable('users').set({ platform_admin: true }).where('id', '=', pa.userId).execute();
  adminUser = pa;
  tokens.admin = await signIn(srv, pa);
  const other = await tenantWithKey(srv);
  await decoys(owner, ownIds);
  await decoys(other, otherIds);
  otherIds.platform = [other.tenantId];
  ownIds.platform = [owner.tenantId];
  fp = await fingerprinter(srv.services.db);
});
after(async () => {
  closeClient();
  await srv.close();
});

/** Resources of a tenant the fuzzer may name (and delete): never the credentials it runs with. */
async function decoys(t: Awaited<ReturnType<typeof tenantWithKey>>, ids: Record<string, string[]>) {
  const add = (k: Resource, v: string | undefined) => v && (ids[k] ??= []).push(v);
  const p = await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'decoy' } });
  add('project', p.body.data?.id);
  add('project', t.defaultProjectId);
  const k = await srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'decoy', environment: 'dev' } });
  add('key', k.body.data?.record?.id);
  const pat = await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: 'decoy' } });
  add('pat', pat.body.data?.record?.id ?? pat.body.data?.id);
  // An older session of the same user (sign in twice; the fuzzer keeps the newest).
  await signIn(srv, t);
  const s = await srv.services.db.selectFrom('sessions').select('id').where('user_id', '=', t.userId).orderBy('created_at').executeTakeFirst();
  add('session', s?.id);
  const hook = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: 'http://127.0.0.1:9/hook', events: ['stage.changed'] } });
  add('webhook', hook.body.data?.webhook?.id ?? hook.body.data?.id);
  const inv = await srv.api('POST', '/api/members/invites', { token: t.accessToken, body: { email: `decoy-${t.userId}@example.test`, role: 'viewer' } });
  add('invite', inv.body.data?.id);
  const top = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
  if (top.status === 201) await fetch(`${top.body.data.checkoutUrl}/confirm`, { method: 'POST', redirect: 'manual' });
  const invoices = await srv.api('GET', '/api/tenant/invoices', { token: t.accessToken });
  add('invoice', invoices.body.data?.items?.[0]?.id);
  const r = await fetch(`${srv.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'gpt-4o-mini', input: 'hi' }) });
  add('storedResponse', ((await r.json()) as { id?: string }).id);
  const imp = await fetch(`${srv.url}/api/advisory/imports?format=ndjson`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/x-ndjson' }, body: '{"bad":1}\n' });
  add('advisoryImport', ((await imp.json()) as { data?: { id?: string } }).data?.id);
  add('tool', 'openai-sdk');
  add('tool', 'mcp');
  add('delivery', '00000000-0000-4000-8000-000000000001');
}

/** Keep the fuzzer's own credentials alive: a generated logout or key deletion may have ended them. */
async function revalidate() {
  if ((await srv.api('GET', '/api/users/me', { token: tokens.owner })).status === 401) tokens.owner = await signIn(srv, owner);
  if ((await srv.api('GET', '/api/users/me', { token: tokens.admin })).status === 401) tokens.admin = await signIn(srv, adminUser);
  const m = await send(base, { method: 'GET', path: '/v1/models', headers: { authorization: `Bearer ${tokens.key}` } });
  if (m.status === 401) {
    const k = await srv.api('POST', '/api/keys', { token: tokens.owner, body: { name: 'fuzz', environment: 'dev' } });
    assert.equal(k.status, 201, `a new key for the fuzzer: ${JSON.stringify(k.body)}`);
    tokens.key = k.body.data.key;
  }
}

const pools: Pools = {
  ownerToken: () => tokens.owner,
  memberToken: () => tokens.member,
  viewerToken: () => tokens.viewer,
  adminToken: () => tokens.admin,
  key: () => tokens.key,
  ownIds,
  otherIds,
};

function routeCase(r: RouteInfo): fc.Arbitrary<Case> {
  const names = [...r.url.matchAll(/:([a-zA-Z]+)/g)].map((m) => m[1]);
  const param = (name: string) => {
    const kind = r.cls.params?.[name];
    const own = (kind && ownIds[kind]) || [];
    const other = (kind && otherIds[kind]) || [];
    return fc.oneof(
      { weight: own.length ? 5 : 0, arbitrary: own.length ? fc.constantFrom(...own) : fc.constant('x') },
      { weight: other.length ? 2 : 0, arbitrary: other.length ? fc.constantFrom(...other) : fc.constant('x') },
      { weight: 3, arbitrary: segmentGarbage },
    );
  };
  const star = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('gemini-2.5-flash:generateContent', 'gemini-2.5-flash:streamGenerateContent', 'auto:generateContent', 'gpt-4o-mini:generateContent') },
    { weight: 2, arbitrary: segmentGarbage },
    { weight: 1, arbitrary: fc.tuple(segmentGarbage, segmentGarbage).map(([a, b]) => `${a}/${b}`) },
  );
  return fc
    .record({
      params: fc.tuple(...names.map(param)),
      star: r.url.includes('*') ? star : fc.constant(''),
      query: fc.oneof({ weight: 2, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryArb(r.queryFields) }),
      cred: credArb,
      body: ['GET', 'DELETE'].includes(r.method) ? fc.oneof({ weight: 5, arbitrary: fc.constant({ body: undefined, note: 'no body' }) }, { weight: 1, arbitrary: bodyArb(r, samplesFor(routeKey(r), r.url)) }) : bodyArb(r, samplesFor(routeKey(r), r.url)),
      ct: contentType,
      extra: fc.oneof({ weight: 3, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extraHeaders }),
    })
    .map(({ params, star, query, cred, body, ct, extra }) => {
      let i = 0;
      const path = r.url.replace(/:([a-zA-Z]+)/g, () => String(params[i++])).replace('*', star) + query;
      const headers: Record<string, string> = { ...extra, ...credentialHeaders(r, cred, pools) };
      if (body.body && ct !== undefined) headers['content-type'] = ct;
      return { route: routeKey(r), method: r.method, path, headers, body: body.body, note: `${body.note}; credential ${cred}` };
    });
}

function strayCase(routes: RouteInfo[]): fc.Arbitrary<Case> {
  return fc
    .record({
      r: fc.constantFrom(...routes.filter((x) => x.url.startsWith('/api/') || x.url.startsWith('/v1/'))),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
      cut: fc.nat(6),
      tail: fc.array(segmentGarbage, { maxLength: 3 }),
      query: queryArb([]),
    })
    .map(({ r, method, cut, tail, query }) => {
      const segs = r.url.split('/').filter(Boolean);
      const keep = segs.slice(0, Math.max(1, segs.length - (cut % segs.length)));
      const path = `/${[...keep.map((s) => (s.startsWith(':') || s === '*' ? 'x' : s)), ...tail].join('/')}${query}`;
      return { route: `stray ${method}`, method, path, headers: { authorization: `Bearer ${r.url.startsWith('/v1/') ? tokens.key : tokens.owner}` }, note: 'a stray path' };
    });
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
const mayHaveWritten = (c: Case, res: RawResponse) => res.status > 0 && res.status < 400 && (!READS.has(c.method) || WRITING_READS.has(c.route));
/** Reads that write on success, by design: an export is logged (spec: who exported what, when). */
const WRITING_READS = new Set(['GET /api/tenant/ledger/export']);

/** What is wrong with one answer, or null. */
function verdict(c: Case, res: RawResponse): string | null {
  if (res.status === -1) return null; // node would not send it: nothing reached the server
  if (res.transport) {
    // The server may close the socket once it has refused an oversized body.
    if (c.body && c.body.length > srv.services.config.BODY_LIMIT_BYTES) return null;
    return res.transport;
  }
  if (res.status >= 500) return `${res.status}`;
  if (/\n\s+at .+:\d+:\d+|node_modules\//.test(res.text)) return 'a stack trace in the answer';
  if (res.status >= 400 && c.method !== 'HEAD') {
    const surface = surfaceOf(c.path);
    if (surface !== 'other') {
      const problem = errorShapeProblem(surface, res.json);
      if (problem) return `${res.status} not in the ${surface} shape: ${problem}`;
    }
  }
  return null;
}

const show = (c: Case, res?: RawResponse) =>
  `${c.method} ${c.path.slice(0, 300)} [${c.route}; ${c.note}] headers ${JSON.stringify(c.headers).slice(0, 300)} body ${c.body ? JSON.stringify(c.body.subarray(0, 300).toString('latin1')) + (c.body.length > 300 ? `… (${c.body.length} bytes)` : '') : '(none)'}${res ? ` → ${res.status} ${res.text.slice(0, 300)}` : ''}`;

test(`hostile input: ${CASES} generated requests, no 5xx, errors in the surface's shape, no partial write`, { timeout: 15 * 60_000 }, async () => {
  const doc = srv.app!.swagger() as any;
  const routes: RouteInfo[] = srv.app!.routeList
    .filter((r) => ROUTES[routeKey(r)])
    .map((r) => ({ method: r.method, url: r.url, cls: ROUTES[routeKey(r)], ...schemaFields(doc, r.method, r.url) }));
  const covered = routes.filter((r) => r.url.startsWith('/api/') || r.url.startsWith('/v1/'));
  assert.ok(covered.length >= 120, `the route table has ${covered.length} /api and /v1 routes`);
  const caseArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...covered).chain(routeCase) }, { weight: 1, arbitrary: strayCase(routes) });

  console.log(`# hostile-input: seed ${SEED} (HOSTILE_SEED=${SEED} replays it), ${CASES} cases in batches of ${BATCH}`);
  const started = Date.now();
  const stats = { cases: 0, ok2xx: 0, c4xx: 0, byRoute: new Map<string, number>(), statuses: new Map<number, number>(), ms: new Map<string, number>(), wrote: new Map<string, number>(), checked: 0, fps: 0, fpMs: 0 };
  let sinceAdvance = 0;

  // The server keeps state between batches, so shrinking a failing batch replays it against a
  // different state (and printed megabytes of counterexamples): the run stops at the first failing
  // batch and reports that batch's own message, with the seed that replays it.
  let firstFailure: string | null = null;
  const out = await fc.check(
    fc.asyncProperty(fc.array(caseArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
      try {
        await runBatch(batch);
      } catch (e) {
        firstFailure ??= String((e as Error).message ?? e).slice(0, 20_000);
        throw e;
      }
    }),
    { seed: SEED, numRuns: Math.ceil(CASES / BATCH), endOnFailure: true },
  );
  assert.equal(out.failed, false, `seed ${SEED} (HOSTILE_SEED), batch ${out.numRuns}: ${firstFailure ?? String(out.errorInstance).slice(0, 20_000)}`);

  async function runBatch(batch: Case[]): Promise<void> {
      if (sinceAdvance > 400) {
        // The per-user /api limit is 600 a minute: a new minute, and fresh tokens when they lapsed.
        srv.clock.advance(MIN);
        sinceAdvance = 0;
        await revalidate();
      }
      sinceAdvance += batch.length;
      const before = await fp.take();
      stats.fps++;
      const results = await Promise.all(
        batch.map(async (c) => {
          const t0 = performance.now();
          const res = await send(base, c);
          stats.ms.set(c.route, (stats.ms.get(c.route) ?? 0) + performance.now() - t0);
          return res;
        }),
      );
      // Whether a request of the batch may have written: then the fingerprint is not compared.
      let succeeded = false;
      const problems: string[] = [];
      results.forEach((res, i) => {
        const c = batch[i];
        stats.cases++;
        stats.byRoute.set(c.route, (stats.byRoute.get(c.route) ?? 0) + 1);
        stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
        if (mayHaveWritten(c, res)) {
          succeeded = true;
          stats.wrote.set(c.route, (stats.wrote.get(c.route) ?? 0) + 1);
        }
        if (res.status >= 400 && res.status < 500) stats.c4xx++;
        const v = verdict(c, res);
        if (v) problems.push(`${v}: ${show(c, res)}`);
      });
      assert.deepEqual(problems, [], problems.join('\n'));
      const t0 = performance.now();
      const after = await fp.take();
      stats.fpMs += performance.now() - t0;
      if (!succeeded) {
        stats.checked += batch.length;
        const diff = changed(before, after);
        assert.deepEqual(diff, [], `a batch answered only errors, yet these tables changed: ${diff.join(', ')}\n${batch.map((c, i) => show(c, results[i])).join('\n')}`);
        return;
      }
      await revalidate();
      // Some request of the batch succeeded, so the comparison above could not tell a partial write
      // from a legitimate one: send the batch's failed writes again, on their own, and compare.
      const failedWrites = batch.filter((c, i) => results[i].status >= 400 && !READS.has(c.method));
      if (failedWrites.length === 0) return;
      const again0 = await fp.take();
      const again = await Promise.all(failedWrites.map((c) => send(base, c)));
      if (again.some((res, i) => mayHaveWritten(failedWrites[i], res) || verdict(failedWrites[i], res))) return; // the state moved on: not comparable
      stats.checked += failedWrites.length;
      const diff = changed(again0, await fp.take());
      assert.deepEqual(diff, [], `failed writes sent again on their own answered only errors, yet these tables changed: ${diff.join(', ')}\n${failedWrites.map((c, i) => show(c, again[i])).join('\n')}`);
  }
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`# hostile-input: ${stats.cases} cases in ${secs} s; ${stats.c4xx} answered 4xx; ${stats.checked} failed requests checked for partial writes (fingerprint ${Math.round(stats.fpMs / Math.max(1, stats.fps))} ms); ${stats.byRoute.size} routes hit`);
  console.log(`# hostile-input: statuses ${JSON.stringify(Object.fromEntries([...stats.statuses].sort((a, b) => a[0] - b[0])))}`);
  const top = (m: Map<string, number>) => JSON.stringify([...m].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k}: ${Math.round(v)}`));
  console.log(`# hostile-input: slowest routes (ms summed) ${top(stats.ms)}`);
  console.log(`# hostile-input: successful writes by route ${top(stats.wrote)}`);
  assert.ok(stats.cases >= CASES, `${stats.cases} cases`);
  // Every /api and /v1 route was exercised.
  const missed = covered.map(routeKey).filter((k) => !stats.byRoute.has(k));
  assert.deepEqual(missed, [], 'routes the run never reached');
});

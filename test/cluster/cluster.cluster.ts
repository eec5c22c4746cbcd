// The D17 topology under faults (issue 24 item 2): `npm run test:cluster` boots what
// `npm run cluster` boots (scripts/cluster/topology.ts: HAProxy, two `serve` replicas, a worker,
// PostgreSQL, Redis, the simulator, all real processes on loopback) and drives it with the official
// SDKs of the three shapes, plain and streamed, through HAProxy. Each fault is its own case and
// leaves the topology whole again for the next one. Money is checked the same way after every
// fault: each tenant's ledger verifies, each balance equals the sum of its ledger, no reservation
// is left once the sweeper ran, no call id is charged twice, and no answer a client received went
// unbilled (answers ≤ AI_USAGE entries ≤ attempts).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { haproxyUp, startCluster, type Cluster } from '../../scripts/cluster/topology.ts';
import { openStream } from '../sse-client.ts';
import { apiCall, call, describeOutcome, mixed, moneyState, nativeError, newTenant, sleep, SHAPES, verifyLedger, waitUntil, type Outcome, type Tenant } from './client.ts';

const BASE_PORT = Number(process.env.CLUSTER_TEST_PORT || 42100);
/** Each surface's per-tenant limit in this cluster (lower than the spec's defaults: a shorter test). */
const LIMIT = 30;
const MAX_INFLIGHT = 16;

let cluster: Cluster;
let db: pg.Pool;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-cluster-'));
  cluster = await startCluster({
    basePort: BASE_PORT,
    dir,
    replicas: 2,
    workers: 1,
    fastPostgres: true,
    env: {
      LOG_LEVEL: 'warn',
      RATE_LIMIT_CHAT_PER_MIN: String(LIMIT),
      RATE_LIMIT_MESSAGES_PER_MIN: String(LIMIT),
      RATE_LIMIT_GENERATE_PER_MIN: String(LIMIT),
      // Every sign-up comes from HAProxy's address.
      RATE_LIMIT_LOGIN_PER_MIN: '100000',
      // A dead replica's holds are swept within ~5 s (the worker sweeps every second here).
      RESERVATION_TIMEOUT_MS: '4000',
      MAX_INFLIGHT_CALLS: String(MAX_INFLIGHT),
    },
  });
  db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 4 });
  db.on('error', () => {});
});

after(async () => {
  await db?.end().catch(() => {});
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const replicaUrl = (i: number) => `http://127.0.0.1:${cluster.replicas[i]!.port}`;

async function faults(rules: unknown[]): Promise<void> {
  await fetch(`${cluster.simUrl}/__sim/faults`, { method: 'DELETE' });
  if (rules.length) {
    const r = await fetch(`${cluster.simUrl}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(rules) });
    assert.equal(r.status, 201);
  }
}
/** Calls whose prompt says [slow] take a while: JSON answers wait 1.5 s, streams pace their events. */
const SLOW = [
  { promptIncludes: '[slow]', stream: false, delayMs: 1_500 },
  { promptIncludes: '[slow]', stream: true, chunkDelayMs: 120 },
];

async function allReplicasUp(): Promise<void> {
  await waitUntil('HAProxy to see both replicas up', async () => (await haproxyUp(cluster.statsUrl)) === cluster.replicas.length, 20_000);
}

async function restartIfDown(i: number): Promise<void> {
  if (!cluster.replicas[i]!.running) await cluster.replicas[i]!.start();
  await allReplicasUp();
}

/** Requests HAProxy has sent to each replica so far (its stats page). */
async function servedBy(): Promise<number[]> {
  const csv = await (await fetch(`${cluster.statsUrl}/;csv`)).text();
  return cluster.replicas.map((_, i) => Number(csv.split('\n').find((l) => l.startsWith(`replicas,r${i},`))?.split(',')[7] ?? 0));
}

/** The money invariants, once the sweeper has had its chance (RESERVATION_TIMEOUT_MS = 4 s). */
async function assertMoneyWhole(tenants: Tenant[], outcomes: Outcome[][]): Promise<void> {
  const ids = tenants.map((t) => t.tenantId);
  await waitUntil('every reservation to be settled, released or swept', async () => {
    const m = await moneyState(db, ids);
    return m.reservedRows === 0 && m.reservedMicros === 0n;
  }, 30_000);
  const m = await moneyState(db, ids);
  assert.deepEqual(m.unbalanced, [], 'every balance equals the sum of its ledger');
  assert.deepEqual(m.chargedTwice, [], 'no call is charged twice');
  for (const [i, t] of tenants.entries()) {
    const v = await verifyLedger(cluster.url, t);
    assert.equal(v.verified, true, `tenant ${i}'s ledger verifies (first broken: ${JSON.stringify(v.firstBroken)})`);
    const mine = outcomes[i] ?? [];
    const answered = mine.filter((o) => o.ok).length;
    const charged = m.usage.get(t.tenantId) ?? 0;
    assert.ok(charged >= answered, `tenant ${i}: ${answered} answers received but only ${charged} charged (an answer went unbilled)`);
    assert.ok(charged <= mine.length, `tenant ${i}: ${charged} charges for ${mine.length} attempts`);
  }
}

const byTenant = (tenants: Tenant[], outs: Outcome[]) => tenants.map((_, ti) => outs.filter((_, i) => i % tenants.length === ti));

describe('the D17 topology on loopback', { timeout: 600_000 }, () => {
  test('per-tenant rate limits are exact across replicas: one shared bucket per surface', { timeout: 120_000 }, async () => {
    const t = await newTenant(cluster.url, db, 'ratelimit');
    const before = await servedBy();
    const per = LIMIT + 12;
    const t0 = performance.now();
    const outs = await mixed(cluster.url, [t], per * 3, 18, (i) => `Say hello, call ${i}.`);
    const elapsedS = (performance.now() - t0) / 1000;
    const after = await servedBy();
    assert.ok(after.every((n, i) => n - before[i]! >= 20), `both replicas took calls: ${before} → ${after}`);
    for (const shape of SHAPES) {
      const mine = outs.filter((o) => o.shape === shape);
      const ok = mine.filter((o) => o.ok);
      const limited = mine.filter((o) => nativeError(o, 429));
      assert.equal(ok.length + limited.length, mine.length, `${shape}: every call answered or refused with a native 429: ${mine.filter((o) => !o.ok && !nativeError(o, 429)).map(describeOutcome)}`);
      assert.ok(ok.every((o) => o.complete), `${shape}: every admitted call is whole`);
      // Exactly the bucket: all LIMIT tokens used (none lost between replicas), plus what refilled
      // (LIMIT per minute) while the burst ran; per-replica buckets would admit up to 2 × LIMIT.
      const refill = Math.ceil((elapsedS * LIMIT) / 60) + 1;
      assert.ok(ok.length >= LIMIT && ok.length <= LIMIT + refill, `${shape}: ${ok.length} admitted of ${mine.length}, expected ${LIMIT}…${LIMIT + refill} (${elapsedS.toFixed(1)} s)`);
    }
    // The refusal carries the spec's three headers (the bucket refilled meanwhile: empty it first).
    let r = await apiCall('POST', `${cluster.url}/v1/chat/completions`, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, t.key);
    for (let i = 0; i < LIMIT && r.status === 200; i++) {
      r = await apiCall('POST', `${cluster.url}/v1/chat/completions`, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }, t.key);
    }
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('x-ratelimit-limit'), String(LIMIT));
    assert.equal(r.headers.get('x-ratelimit-remaining'), '0');
    assert.ok(Number(r.headers.get('retry-after')) >= 1);
    assert.equal(typeof r.body.error.message, 'string');
  });

  test('SSE clients see every event whichever replica they reach, and resume with Last-Event-ID on another', { timeout: 120_000 }, async () => {
    const t = await newTenant(cluster.url, db, 'sse');
    const path = `/api/service/projects/${t.projectId}/events`;
    const onR0 = await openStream(replicaUrl(0) + path, { token: t.accessToken });
    const onR1 = await openStream(replicaUrl(1) + path, { token: t.accessToken });
    const viaLb = await openStream(cluster.url + path, { token: t.accessToken });
    try {
      for (const s of [onR0, onR1, viaLb]) {
        assert.equal(s.status, 200);
        await s.next('connected', 10_000);
      }
      const before = await servedBy();
      const first = await mixed(cluster.url, [t], 6, 3, (i) => `Name a colour, call ${i}.`);
      assert.ok(first.every((o) => o.ok && o.complete), first.map(describeOutcome).join('; '));
      const after = await servedBy();
      assert.ok(after.every((n, i) => n > before[i]!), 'the calls were served by both replicas');
      const seen = async (s: Awaited<ReturnType<typeof openStream>>, n: number) => {
        const got = [];
        for (let i = 0; i < n; i++) got.push(await s.next('llm.call', 15_000));
        return got;
      };
      const r0 = await seen(onR0, 6);
      const r1 = await seen(onR1, 6);
      const lb = await seen(viaLb, 6);
      const calls = (evs: typeof r0) => evs.map((e) => JSON.parse(e.data).payload.callId as string).sort();
      assert.equal(new Set(calls(r0)).size, 6);
      assert.deepEqual(calls(r1), calls(r0), 'the stream on replica 1 saw the same six calls');
      assert.deepEqual(calls(lb), calls(r0), 'the stream through HAProxy saw the same six calls');
      const known = first.map((o) => o.callId).filter((x): x is string => !!x);
      for (const id of known) assert.ok(calls(r0).includes(id), `call ${id} has its llm.call event`);
      assert.deepEqual(r0.map((e) => e.id), r1.map((e) => e.id), 'the same event ids on every replica');

      // The client on replica 0 goes away; three calls happen; it comes back on replica 1.
      const lastId = r0.at(-1)!.id!;
      onR0.close();
      const missed = await mixed(cluster.url, [t], 3, 3, (i) => `Name a fruit, call ${i}.`);
      assert.ok(missed.every((o) => o.ok));
      const missedEvents = await seen(onR1, 3);
      const resumed = await openStream(replicaUrl(1) + path, { token: t.accessToken, lastEventId: lastId });
      try {
        const replay = await seen(resumed, 3);
        assert.deepEqual(replay.map((e) => e.id), missedEvents.map((e) => e.id), 'exactly the three missed events, in order');
        const live = await mixed(cluster.url, [t], 1, 1, () => 'Name a city.');
        assert.ok(live[0]!.ok);
        const next = await resumed.next('llm.call', 15_000);
        assert.equal(JSON.parse(next.data).payload.callId, live[0]!.callId, 'then live events');
      } finally {
        resumed.close();
      }
    } finally {
      onR0.close();
      onR1.close();
      viaLb.close();
    }
  });
});

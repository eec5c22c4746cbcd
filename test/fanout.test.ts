// Cross-replica fan-out (D10): two server instances on one database and one Redis. A stream opened
// on one replica sees what the other emits (directly and through the outbox), resumes with
// Last-Event-ID on either replica, and counts viewers across both. Runs when REDIS_URL is set,
// on a key prefix of its own.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestDatabase, signupTenant, startTestServer, type TestDatabase, type TestServer } from './harness.ts';
import { openStream } from './sse-client.ts';
import { tenantIdOf } from './helpers.ts';
import { emitEvent, enqueueEventInTx, kickOutbox } from '../src/app/events/events.ts';

const REDIS_URL = process.env.REDIS_URL;
const skip = !REDIS_URL && 'REDIS_URL is not set';
const prefix = `sbt:fanout:${randomBytes(6).toString('hex')}:`;

let db: TestDatabase;
let a: TestServer;
let b: TestServer;
before(async () => {
  if (skip) return;
  db = await createTestDatabase();
  // Replicas share the database, Redis and the signing secrets (README: set both on every replica).
  const env = {
    REDIS_URL: REDIS_URL!,
    REDIS_KEY_PREFIX: prefix,
    SSE_HEARTBEAT_MS: '200',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LEDGER_SECRET: randomBytes(32).toString('hex'),
  };
  a = await startTestServer({ env, database: db });
  b = await startTestServer({ env, database: db });
});
after(async () => {
  if (skip) return;
  await b?.close();
  await a?.close();
  await db?.drop();
  const r = new Redis(REDIS_URL!);
  const keys = await r.keys(`${prefix}*`);
  if (keys.length) await r.del(...keys);
  await r.quit();
});

const connector = (tenantId: string, projectId: string, tool: string) => ({ type: 'connector.connected' as const, tenantId, projectId, payload: { tool, tier: 1, reason: 'fan-out' } });

test('a stream on replica A sees events emitted on replica B, and resumes from its Last-Event-ID on B', { skip }, async () => {
  const t = await signupTenant(a);
  const tenantId = await tenantIdOf(a, t.userId);
  const url = (srv: TestServer) => `${srv.url}/api/service/projects/${t.defaultProjectId}/events`;
  const onA = await openStream(url(a), { token: t.accessToken });
  await onA.next('connected');
  await emitEvent(b.services, connector(tenantId, t.defaultProjectId, 'direct-from-b'));
  await b.services.db.transaction().execute((tx) => enqueueEventInTx(tx, { ...connector(tenantId, t.defaultProjectId, 'outbox-of-b'), at: b.clock.now() }));
  kickOutbox(b.services);
  const first = await onA.next('connector.connected');
  const second = await onA.next('connector.connected');
  assert.deepEqual([JSON.parse(first.data).payload.tool, JSON.parse(second.data).payload.tool], ['direct-from-b', 'outbox-of-b']);
  onA.close();

  await emitEvent(a.services, connector(tenantId, t.defaultProjectId, 'missed-on-a'));
  await emitEvent(b.services, connector(tenantId, t.defaultProjectId, 'missed-on-b'));
  const onB = await openStream(url(b), { token: t.accessToken, lastEventId: first.id });
  try {
    await onB.next('connected');
    const tools: string[] = [];
    for (let i = 0; i < 3; i++) tools.push(JSON.parse((await onB.next('connector.connected')).data).payload.tool);
    assert.deepEqual(tools, ['outbox-of-b', 'missed-on-a', 'missed-on-b']);
  } finally {
    onB.close();
  }
});

test('presence counts viewers on every replica', { skip }, async () => {
  const t = await signupTenant(a);
  const url = (srv: TestServer) => `${srv.url}/api/service/projects/${t.defaultProjectId}/events`;
  const onA = await openStream(url(a), { token: t.accessToken });
  await onA.next('connected');
  assert.equal(JSON.parse((await onA.next('presence.heartbeat')).data).payload.viewers, 1);
  const onB = await openStream(url(b), { token: t.accessToken });
  await onB.next('connected');
  assert.deepEqual(JSON.parse((await onA.next('presence.heartbeat')).data).payload, { viewers: 2, change: 'joined', userId: t.userId });
  onB.close();
  assert.deepEqual(JSON.parse((await onA.next('presence.heartbeat')).data).payload, { viewers: 1, change: 'left', userId: t.userId });
  onA.close();
});

// The project event stream (spec §6, D10) through a real HTTP client: framing, heartbeats,
// authentication by header or cookie, tenant isolation, resume with Last-Event-ID, presence,
// clean-up on disconnect, and events leaving through the outbox atomically with their transaction.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { openStream } from '../../../../test/sse-client.ts';
import { tenantIdOf } from '../../../../test/helpers.ts';
import { emitEvent, enqueueEventInTx, kickOutbox } from '../../../app/events/events.ts';
import { connectorConnected } from '../../../app/projects/stages.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: { SSE_HEARTBEAT_MS: '100' } });
});
after(() => srv.close());

const streamUrl = (projectId: string, q = '') => `${srv.url}/api/service/projects/${projectId}/events${q}`;
const connectorEvent = (tenantId: string, projectId: string, tool: string) =>
  emitEvent(srv.services, { type: 'connector.connected', tenantId, projectId, payload: { tool, tier: 1, reason: 'test' } });

describe('framing', () => {
  test('connected first, then heartbeats as comments every SSE_HEARTBEAT_MS, with no-buffering headers', async () => {
    const t = await signupTenant(srv);
    const c = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    try {
      assert.equal(c.status, 200);
      assert.match(c.headers.get('content-type')!, /^text\/event-stream/);
      assert.match(c.headers.get('cache-control')!, /no-cache/);
      assert.equal(c.headers.get('x-accel-buffering'), 'no');
      const first = await c.next();
      assert.equal(first.event, 'connected');
      const data = JSON.parse(first.data);
      assert.deepEqual(Object.keys(data).sort(), ['at', 'projectId']);
      assert.equal(data.projectId, t.defaultProjectId);
      assert.ok(!Number.isNaN(Date.parse(data.at)));
      assert.ok(c.raw().startsWith('event: connected\n'), 'the connected event is the first thing on the wire');
      const started = Date.now();
      await c.until((raw) => (raw.match(/^: heartbeat \d{13}$/gm) ?? []).length >= 3, 2_000);
      assert.ok(Date.now() - started < 1_000, 'three heartbeats at 100 ms come well within a second');
      const beat = Number(/^: heartbeat (\d{13})$/m.exec(c.raw())![1]);
      assert.equal(beat, srv.clock.now().getTime(), 'epoch milliseconds of the server clock');
    } finally {
      c.close();
    }
  });

  test('event frames carry event, id and the JSON frame; ids increase', async () => {
    const t = await signupTenant(srv);
    const tenantId = await tenantIdOf(srv, t.userId);
    const c = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    try {
      await c.next('connected');
      await connectorEvent(tenantId, t.defaultProjectId, 'one');
      await connectorEvent(tenantId, t.defaultProjectId, 'two');
      const a = await c.next('connector.connected');
      const b = await c.next('connector.connected');
      assert.match(a.id!, /^\d+-\d+$/);
      const [am, as] = a.id!.split('-').map(Number);
      const [bm, bs] = b.id!.split('-').map(Number);
      assert.ok(bm > am || (bm === am && bs > as), `${b.id} after ${a.id}`);
      const frame = JSON.parse(a.data);
      assert.deepEqual(Object.keys(frame), ['type', 'projectId', 'tenantId', 'actorUserId', 'at', 'payload']);
      assert.equal(frame.type, 'connector.connected');
      assert.equal(frame.projectId, t.defaultProjectId);
      assert.equal(frame.tenantId, tenantId);
      assert.equal(frame.actorUserId, null);
      assert.deepEqual(frame.payload, { tool: 'one', tier: 1, reason: 'test' });
      assert.equal(JSON.parse(b.data).payload.tool, 'two');
    } finally {
      c.close();
    }
  });
});

describe('access', () => {
  test('Bearer or the sb_access cookie; 401 without; another tenant’s project is a 404 like a missing one', async () => {
    const t = await signupTenant(srv);
    const other = await signupTenant(srv);
    const viaCookie = await openStream(streamUrl(t.defaultProjectId), { cookie: `sb_access=${t.accessToken}` });
    try {
      assert.equal(viaCookie.status, 200);
      assert.equal((await viaCookie.next()).event, 'connected');
    } finally {
      viaCookie.close();
    }
    const none = await srv.api('GET', `/api/service/projects/${t.defaultProjectId}/events`, { headers: { accept: 'text/event-stream' } });
    assert.equal(none.status, 401);
    assert.equal(none.body.success, false);
    const foreign = await srv.api('GET', `/api/service/projects/${other.defaultProjectId}/events`, { token: t.accessToken, headers: { accept: 'text/event-stream' } });
    const missing = await srv.api('GET', `/api/service/projects/${randomUUID()}/events`, { token: t.accessToken, headers: { accept: 'text/event-stream' } });
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, missing.body, 'nothing tells a foreign project from a missing one');
    const created = await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'gone' } });
    await srv.api('DELETE', `/api/projects/${created.body.data.id}`, { token: t.accessToken });
    assert.equal((await srv.api('GET', `/api/service/projects/${created.body.data.id}/events`, { token: t.accessToken })).status, 404);
    const json = await srv.api('GET', `/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken, headers: { accept: 'application/json' } });
    assert.equal(json.status, 406);
    assert.equal(json.body.code, 'not_acceptable');
  });

  test('the stream ends within a heartbeat once the access token has expired', async () => {
    const t = await signupTenant(srv);
    await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { idleTimeout: 'never' } });
    const c = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    await c.next('connected');
    await c.until((raw) => raw.includes(': heartbeat'));
    srv.clock.advance(15 * 60_000 + 1_000);
    await Promise.race([c.ended, new Promise((_, rej) => setTimeout(() => rej(new Error('stream still open')), 2_000))]);
    srv.clock.advance(60_000);
  });
});

describe('resume', () => {
  test('Last-Event-ID (header or ?lastEventId=) replays exactly what was missed, then continues live', async () => {
    const t = await signupTenant(srv);
    const tenantId = await tenantIdOf(srv, t.userId);
    const c1 = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    await c1.next('connected');
    await connectorEvent(tenantId, t.defaultProjectId, 'seen');
    const seen = await c1.next('connector.connected');
    c1.close();
    await connectorEvent(tenantId, t.defaultProjectId, 'missed-1');
    await connectorEvent(tenantId, t.defaultProjectId, 'missed-2');
    const missed = ['missed-1', 'missed-2'];
    for (const how of ['header', 'query'] as const) {
      const c2 =
        how === 'header'
          ? await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken, lastEventId: seen.id })
          : await openStream(streamUrl(t.defaultProjectId, `?lastEventId=${encodeURIComponent(seen.id!)}`), { token: t.accessToken });
      try {
        assert.equal((await c2.next()).event, 'connected', 'connected still comes first');
        const tools: string[] = [];
        for (let i = 0; i < missed.length; i++) tools.push(JSON.parse((await c2.next('connector.connected')).data).payload.tool);
        assert.deepEqual(tools, missed);
        await connectorEvent(tenantId, t.defaultProjectId, `live-${how}`);
        assert.equal(JSON.parse((await c2.next('connector.connected')).data).payload.tool, `live-${how}`);
        // The next reconnection from the same id misses this live one too.
        missed.push(`live-${how}`);
        assert.ok(!c2.records.some((r) => r.data.includes('"seen"')), 'nothing at or before Last-Event-ID');
      } finally {
        c2.close();
      }
    }
  });
});

describe('presence', () => {
  test('viewers joining and leaving emit presence.heartbeat with the viewer count; a closed stream is cleaned up', async () => {
    const t = await signupTenant(srv);
    const p = (await srv.api('POST', '/api/projects', { token: t.accessToken, body: { name: 'presence' } })).body.data.id;
    const a = await openStream(streamUrl(p), { token: t.accessToken });
    await a.next('connected');
    const self = JSON.parse((await a.next('presence.heartbeat')).data);
    assert.deepEqual(self.payload, { viewers: 1, change: 'joined', userId: t.userId });
    assert.equal(self.actorUserId, t.userId);
    const b = await openStream(streamUrl(p), { token: t.accessToken });
    await b.next('connected');
    assert.deepEqual(JSON.parse((await a.next('presence.heartbeat')).data).payload, { viewers: 2, change: 'joined', userId: t.userId });
    b.close();
    assert.deepEqual(JSON.parse((await a.next('presence.heartbeat')).data).payload, { viewers: 1, change: 'left', userId: t.userId });
    a.close();
    // Both connections are gone: no viewer is left and new frames reach nobody.
    for (let i = 0; i < 50 && (await srv.services.bus.touchPresence(p, 'probe', 1)) > 1; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(await srv.services.bus.leavePresence(p, 'probe'), 0);
  });
});

describe('outbox', () => {
  test('an event written in a transaction leaves only if it commits, at once with a kick, by the poll without', async () => {
    const t = await signupTenant(srv);
    const tenantId = await tenantIdOf(srv, t.userId);
    const c = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    try {
      await c.next('connected');
      const s = srv.services;
      const ev = (tool: string) => ({ type: 'connector.disconnected' as const, tenantId, projectId: t.defaultProjectId, at: s.clock.now(), payload: { tool, tier: 2, reason: 'test' } });
      await assert.rejects(
        s.db.transaction().execute(async (tx) => {
          await enqueueEventInTx(tx, ev('rolled-back'));
          throw new Error('the settlement failed');
        }),
        /settlement failed/,
      );
      await s.db.transaction().execute((tx) => enqueueEventInTx(tx, ev('kicked')));
      kickOutbox(s);
      await s.db.transaction().execute((tx) => enqueueEventInTx(tx, ev('polled')));
      const tools = [JSON.parse((await c.next('connector.disconnected')).data).payload.tool, JSON.parse((await c.next('connector.disconnected', 2_000)).data).payload.tool];
      assert.deepEqual(tools, ['kicked', 'polled']);
      // Frames are published just before the relay commits its marks (at least once): wait for the commit.
      const pending = () => s.db.selectFrom('event_outbox').select('id').where('tenant_id', '=', tenantId).where('published_at', 'is', null).execute();
      for (let i = 0; i < 50 && (await pending()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await pending()).length, 0, 'every committed row is marked published');
      await new Promise((r) => setTimeout(r, 300));
      assert.ok(!c.records.some((r) => r.data.includes('rolled-back')), 'the rolled-back event never left');
    } finally {
      c.close();
    }
  });

  test('a connection test moves onboarding → connected: connector.connected then stage.changed', async () => {
    const t = await signupTenant(srv);
    const tenantId = await tenantIdOf(srv, t.userId);
    const c = await openStream(streamUrl(t.defaultProjectId), { token: t.accessToken });
    try {
      await c.next('connected');
      await connectorConnected(srv.services, null, { tenantId, projectId: t.defaultProjectId, tool: 'cursor', tier: 1, reason: 'connection_test', actorUserId: t.userId });
      const conn = JSON.parse((await c.next('connector.connected')).data);
      assert.deepEqual(conn.payload, { tool: 'cursor', tier: 1, reason: 'connection_test' });
      const stage = JSON.parse((await c.next('stage.changed')).data);
      assert.deepEqual(stage.payload, { from: 'onboarding', to: 'connected', reason: 'connection_test' });
      assert.equal(stage.actorUserId, t.userId);
      const proj = await srv.api('GET', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken });
      assert.equal(proj.body.data.stage, 'connected');
    } finally {
      c.close();
    }
  });
});

// Webhooks (spec §6, D10) with ALLOW_PRIVATE_WEBHOOK_TARGETS=true and a receiver on 127.0.0.1:
// registration and its limits, signed deliveries checked the way a receiver checks them, the
// retry schedule driven with the injectable clock, replay, the body and timeout limits at their
// boundaries, retention, roles and tenant isolation. (ssrf.test.ts runs without the flag.)
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { startReceiver, verifyServiceSignature, verifyStandardSignature, type Receiver } from '../../../../test/webhook-receiver.ts';
import { addMember, eventually, signIn, tenantIdOf } from '../../../../test/helpers.ts';
import { openStream } from '../../../../test/sse-client.ts';
import { emitEvent, insertDeliveries } from '../../../app/events/events.ts';
import { getDelivery, listDeliveries, MAX_WEBHOOKS_PER_TENANT } from '../../../app/events/webhooks.ts';
import { attemptDelivery, deliverDue, purgeExpired, RETRY_DELAYS_MS } from '../../../app/events/webhook-delivery.ts';
import { WEBHOOK_MAX_BODY_BYTES } from '../../../infra/webhook-client.ts';

let srv: TestServer;
let rx: Receiver;
before(async () => {
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', SSE_HEARTBEAT_MS: '1000' } });
  rx = await startReceiver();
});
after(async () => {
  await srv.close();
  await rx.close();
});

const MIN = 60_000;

async function setup(events = ['connector.connected'], path = '/hook') {
  const t = await signupTenant(srv);
  const tenantId = await tenantIdOf(srv, t.userId);
  const r = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}${path}`, events, description: 'test hook' } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return { t, tenantId, hook: r.body.data.webhook, secret: r.body.data.secret as string };
}

const emitConnector = (tenantId: string, projectId: string, tool = 'cursor') =>
  emitEvent(srv.services, { type: 'connector.connected', tenantId, projectId, payload: { tool, tier: 1, reason: 'test' } });

// Polling reads go through the use cases, not the API, so they do not eat the per-user rate limit.
const tenantOfToken = new Map<string, string>();
async function tenantFor(token: string) {
  let id = tenantOfToken.get(token);
  if (!id) {
    const me = await srv.api('GET', '/api/users/me', { token });
    id = await tenantIdOf(srv, me.body.data.id);
    tenantOfToken.set(token, id);
  }
  return id;
}

/** The newest delivery of a webhook. */
async function deliveryOf(token: string, hookId: string) {
  const page = await listDeliveries(srv.services, await tenantFor(token), hookId, { limit: 1 });
  return page.items[0];
}

/** Wait until the delivery has made `attempts` attempts (by the worker's job, the sweep or the test) and settled. */
const attemptsReach = async (token: string, id: string, attempts: number, timeoutMs = 5_000) => {
  const tenantId = await tenantFor(token);
  return eventually(
    async () => {
      const d = await getDelivery(srv.services, tenantId, id);
      const settled = d.status !== 'pending' || d.nextAttemptAt !== null;
      return d.attempts >= attempts && settled ? d : undefined;
    },
    timeoutMs,
    `${attempts} attempts`,
  );
};

describe('registration', () => {
  test('create returns the whsec_ secret once; it is stored encrypted, never readable again; list, get, patch, delete', async () => {
    const { t, hook, secret } = await setup(['llm.call', 'stage.changed']);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(Object.keys(hook).sort(), ['createdAt', 'description', 'enabled', 'events', 'id', 'secretHint', 'updatedAt', 'url']);
    assert.deepEqual(hook.events, ['llm.call', 'stage.changed']);
    assert.equal(hook.secretHint, `${secret.slice(0, 10)}…`);
    const row = await srv.services.db.selectFrom('webhooks').selectAll().where('id', '=', hook.id).executeTakeFirstOrThrow();
    assert.equal(JSON.stringify(row).includes(secret.slice(6, 30)), false, 'the secret is not stored in clear');
    assert.match(row.secret_enc, /^v1\./);
    const got = await srv.api('GET', `/api/webhooks/${hook.id}`, { token: t.accessToken });
    assert.equal(JSON.stringify(got.body).includes(secret.slice(6)), false);
    const patched = await srv.api('PATCH', `/api/webhooks/${hook.id}`, { token: t.accessToken, body: { events: ['llm.call'], enabled: false, description: 'changed' } });
    assert.equal(patched.status, 200);
    assert.deepEqual([patched.body.data.events, patched.body.data.enabled, patched.body.data.description], [['llm.call'], false, 'changed']);
    assert.equal((await srv.api('PATCH', `/api/webhooks/${hook.id}`, { token: t.accessToken, body: {} })).status, 400);
    assert.equal((await srv.api('DELETE', `/api/webhooks/${hook.id}`, { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('GET', `/api/webhooks/${hook.id}`, { token: t.accessToken })).status, 404);
  });

  test('input is validated: unknown event types, empty lists, non-http URLs, unknown fields', async () => {
    const t = await signupTenant(srv);
    const post = (body: unknown) => srv.api('POST', '/api/webhooks', { token: t.accessToken, body });
    const bad1 = await post({ url: `${rx.url}/x`, events: ['llm.called'] });
    assert.equal(bad1.status, 400);
    assert.equal(bad1.body.field, 'events.0');
    assert.equal((await post({ url: `${rx.url}/x`, events: [] })).status, 400);
    assert.equal((await post({ url: 'ftp://127.0.0.1/x', events: ['llm.call'] })).status, 400);
    assert.equal((await post({ url: 'https://user:pw@127.0.0.1/x', events: ['llm.call'] })).status, 400);
    assert.equal((await post({ url: `${rx.url}/x`, events: ['llm.call'], secret: 'mine' })).status, 400);
    assert.equal((await post({ url: `${rx.url}/x`, events: ['llm.call'] })).status, 201, 'description is optional');
  });

  test(`at most ${MAX_WEBHOOKS_PER_TENANT} webhooks per tenant`, async () => {
    const t = await signupTenant(srv);
    const ids: string[] = [];
    for (let i = 0; i < MAX_WEBHOOKS_PER_TENANT; i++) {
      const r = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/h${i}`, events: ['llm.call'], description: '' } });
      assert.equal(r.status, 201);
      ids.push(r.body.data.webhook.id);
    }
    const over = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/h20`, events: ['llm.call'], description: '' } });
    assert.equal(over.status, 409);
    assert.equal(over.body.code, 'limit_reached');
    const page1 = await srv.api('GET', '/api/webhooks?limit=15', { token: t.accessToken });
    const page2 = await srv.api('GET', `/api/webhooks?limit=15&cursor=${page1.body.data.nextCursor}`, { token: t.accessToken });
    // Keyset pages: all twenty, each once (the test clock stands still, so ties are ordered by id).
    assert.deepEqual([...page1.body.data.items, ...page2.body.data.items].map((w: { id: string }) => w.id), [...ids].sort());
    assert.equal(page2.body.data.nextCursor, null);
    await srv.api('DELETE', `/api/webhooks/${ids[0]}`, { token: t.accessToken });
    assert.equal((await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/h21`, events: ['llm.call'] } })).status, 201);
  });

  test('members read webhooks and deliveries; only admins and owners change them; other tenants see nothing', async () => {
    const { t, hook } = await setup();
    const stranger = await signupTenant(srv);
    for (const [m, p] of [
      ['GET', `/api/webhooks/${hook.id}`],
      ['PATCH', `/api/webhooks/${hook.id}`],
      ['DELETE', `/api/webhooks/${hook.id}`],
      ['POST', `/api/webhooks/${hook.id}/rotate-secret`],
      ['GET', `/api/webhooks/${hook.id}/deliveries`],
    ] as const) {
      const r = await srv.api(m, p, { token: stranger.accessToken, body: m === 'PATCH' ? { description: 'x' } : undefined });
      assert.equal(r.status, 404, `${m} ${p} from another tenant`);
    }
    assert.deepEqual((await srv.api('GET', '/api/webhooks', { token: stranger.accessToken })).body.data.items, []);
    // Demote the owner to member (after making someone else owner).
    const other = await signupTenant(srv);
    await addMember(srv, t, other, 'owner');
    await srv.api('PATCH', `/api/members/${t.userId}`, { token: t.accessToken, body: { role: 'member' } });
    assert.equal((await srv.api('GET', '/api/webhooks', { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.accessToken })).status, 200);
    assert.equal((await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/m`, events: ['llm.call'] } })).status, 403);
    assert.equal((await srv.api('POST', `/api/webhooks/${hook.id}/rotate-secret`, { token: t.accessToken })).status, 403);
    srv.clock.advance(MIN);
  });
});

describe('delivery', () => {
  test('a subscribed event is POSTed with both signatures, the delivery id and the same frame as the stream', async () => {
    const { t, tenantId, hook, secret } = await setup(['connector.connected'], '/signed');
    const before = rx.received.length;
    const stream = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
    await stream.next('connected');
    await emitConnector(tenantId, t.defaultProjectId);
    await emitEvent(srv.services, { type: 'connector.disconnected', tenantId, projectId: t.defaultProjectId, payload: { tool: 'x', tier: null, reason: 'not subscribed' } });
    const [req] = (await rx.waitFor(before + 1)).slice(before);
    const sse = await stream.next('connector.connected');
    stream.close();
    assert.equal(req.path, '/signed');
    assert.equal(req.headers['content-type'], 'application/json');
    assert.equal(req.headers['x-service-event'], 'connector.connected');
    assert.match(String(req.headers['x-service-delivery']), /^[0-9a-f-]{36}$/);
    assert.equal(req.headers['webhook-id'], req.headers['x-service-delivery']);
    assert.match(String(req.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.ok(verifyServiceSignature(secret, req), 'X-Service-Signature verifies');
    assert.ok(verifyStandardSignature(secret, req, Math.floor(srv.clock.now().getTime() / 1000)), 'webhook-signature verifies');
    assert.equal(verifyServiceSignature(secret.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), req), false, 'another secret does not');
    assert.equal(req.body.toString(), sse.data, 'the body is the frame the stream carries');
    const d = await eventually(async () => {
      const x = await deliveryOf(t.accessToken, hook.id);
      return x?.status === 'succeeded' ? x : undefined;
    });
    assert.equal(d.id, req.headers['x-service-delivery']);
    assert.equal(d.attempts, 1);
    assert.equal(d.lastStatusCode, 200);
    assert.equal(d.signature, req.headers['x-service-signature']);
    const detail = (await srv.api('GET', `/api/webhooks/deliveries/${d.id}`, { token: t.accessToken })).body.data;
    assert.equal(detail.body, req.body.toString());
    assert.equal(detail.attemptLog.length, 1);
    assert.equal(detail.attemptLog[0].succeeded, true);
    assert.equal(detail.attemptLog[0].statusCode, 200);
    assert.equal(typeof detail.attemptLog[0].durationMs, 'number');
    const all = (await srv.api('GET', `/api/webhooks/${hook.id}/deliveries`, { token: t.accessToken })).body.data.items;
    assert.equal(all.length, 1, 'connector.disconnected was not subscribed');
  });

  test('a failing target logs one structured line per attempt, naming the webhook, delivery, attempt and outcome', async () => {
    const { t, tenantId, hook } = await setup(['connector.connected'], '/failing-logged');
    rx.respondOn('/failing-logged', 503);
    const lines: Array<{ msg?: string; fields: Record<string, unknown> }> = [];
    const log = srv.services.log;
    const warn = log.warn;
    log.warn = (obj: unknown, msg?: string) => {
      if (obj && typeof obj === 'object' && (obj as { webhookId?: unknown }).webhookId === hook.id) lines.push({ msg, fields: obj as Record<string, unknown> });
      else warn.call(log, obj, msg);
    };
    try {
      await emitConnector(tenantId, t.defaultProjectId);
      const first = await eventually(async () => {
        const x = await deliveryOf(t.accessToken, hook.id);
        return x?.attempts === 1 ? x : undefined;
      });
      for (let n = 2; n <= 3; n++) {
        srv.clock.advance(RETRY_DELAYS_MS[n - 2]);
        await attemptDelivery(srv.services, first.id);
        await attemptsReach(t.accessToken, first.id, n);
      }
      assert.equal(lines.length, 3, 'one line per attempt');
      lines.forEach((l, i) => {
        assert.equal(l.msg, 'webhook delivery attempt failed');
        assert.equal(l.fields.event, 'webhook.attempt_failed');
        assert.equal(l.fields.deliveryId, first.id);
        assert.equal(l.fields.tenantId, tenantId);
        assert.equal(l.fields.attempt, i + 1);
        assert.equal(l.fields.statusCode, 503);
        assert.equal(l.fields.outcome, 'pending');
        assert.equal(typeof l.fields.nextAttemptAt, 'string');
      });
    } finally {
      log.warn = warn;
    }
  });

  test('retries at 1 m, 5 m, 30 m, 2 h and 12 h after the previous attempt, then drops after the sixth', async () => {
    const { t, tenantId, hook } = await setup(['connector.connected'], '/failing');
    rx.respondOn('/failing', 500);
    const s = srv.services;
    await emitConnector(tenantId, t.defaultProjectId);
    const first = await eventually(async () => {
      const x = await deliveryOf(t.accessToken, hook.id);
      return x?.attempts === 1 ? x : undefined;
    });
    const id: string = first.id;
    assert.equal(first.status, 'pending');
    assert.equal(first.lastStatusCode, 500);
    assert.equal(first.lastError, 'HTTP 500');
    let last = srv.clock.now().getTime();
    assert.equal(Date.parse(first.nextAttemptAt!), last + RETRY_DELAYS_MS[0]);
    for (let n = 2; n <= 6; n++) {
      const delay = RETRY_DELAYS_MS[n - 2];
      srv.clock.advance(delay - 1_000);
      assert.equal(await attemptDelivery(s, id), null, `attempt ${n} is not due a second early`);
      srv.clock.advance(1_000);
      await attemptDelivery(s, id);
      const d = await attemptsReach(t.accessToken, id, n);
      last = srv.clock.now().getTime();
      if (n < 6) {
        assert.equal(d.status, 'pending');
        assert.equal(Date.parse(d.nextAttemptAt!), last + RETRY_DELAYS_MS[n - 1], `attempt ${n + 1} is due ${RETRY_DELAYS_MS[n - 1] / 60_000} min later`);
      } else {
        assert.equal(d.status, 'failed', 'dropped after six attempts');
        assert.equal(d.nextAttemptAt, null);
        assert.ok(d.completedAt);
      }
    }
    srv.clock.advance(24 * 3_600_000);
    assert.equal(await attemptDelivery(s, id), null, 'a dropped delivery is never attempted again');
    const token = await signIn(srv, t);
    const detail = (await srv.api('GET', `/api/webhooks/deliveries/${id}`, { token })).body.data;
    assert.deepEqual(detail.attemptLog.map((a: { attempt: number }) => a.attempt), [1, 2, 3, 4, 5, 6]);
    assert.ok(detail.attemptLog.every((a: { statusCode: number; succeeded: boolean; trigger: string }) => a.statusCode === 500 && !a.succeeded && a.trigger === 'scheduled'));
    const sent = rx.received.filter((r) => r.headers['x-service-delivery'] === id);
    assert.equal(sent.length, 6, 'one request per attempt');
    assert.equal(new Set(sent.map((r) => r.body.toString())).size, 1, 'the same body every time');

    // A failed replay of a dropped delivery is one more attempt, and it stays dropped (D10a).
    const again = await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token });
    assert.equal(again.status, 202);
    const stillFailed = await eventually(async () => {
      const x = await getDelivery(srv.services, tenantId, id);
      return x.status === 'failed' && x.attemptLog.length === 7 ? x : undefined;
    });
    assert.equal(stillFailed.attemptLog.at(-1)!.trigger, 'replay');
    assert.equal(stillFailed.nextAttemptAt, null, 'no retries after a failed replay of a dropped delivery');

    // Replay: one manual attempt, now succeeding.
    rx.respondOn('/failing', 204);
    const replay = await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token });
    assert.equal(replay.status, 202);
    assert.equal(replay.body.data.status, 'pending');
    const done = await eventually(async () => {
      const x = await getDelivery(srv.services, tenantId, id);
      return x.status === 'succeeded' ? x : undefined;
    });
    assert.equal(done.attemptLog.at(-1)!.trigger, 'replay');
    assert.equal(done.attemptLog.at(-1)!.statusCode, 204);
    assert.equal(rx.received.filter((r) => r.headers['x-service-delivery'] === id).length, 8, 'same delivery id on replay');
    const twice = await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token });
    assert.equal(twice.status, 409, 'a delivery that succeeded is not replayed (D10a)');
    assert.equal(twice.body.code, 'conflict');
    const stranger = await signupTenant(srv);
    assert.equal((await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token: stranger.accessToken })).status, 404);
    assert.equal((await srv.api('GET', `/api/webhooks/deliveries/${id}`, { token: stranger.accessToken })).status, 404);
    srv.clock.advance(MIN);
  });

  test('D10a: a delivery waiting for its next retry is replayed at once; success cancels the retries, failure keeps them; the current secret signs', async () => {
    const { t, tenantId, hook, secret } = await setup(['connector.connected'], '/rotating');
    rx.respondOn('/rotating', 503);
    await emitConnector(tenantId, t.defaultProjectId);
    const d = await eventually(async () => {
      const x = await deliveryOf(t.accessToken, hook.id);
      return x?.attempts === 1 ? x : undefined;
    });
    assert.equal(d.status, 'pending');
    const scheduled = d.nextAttemptAt;
    const rot = await srv.api('POST', `/api/webhooks/${hook.id}/rotate-secret`, { token: t.accessToken });
    assert.equal(rot.status, 200);
    const fresh: string = rot.body.data.secret;
    assert.notEqual(fresh, secret);

    // Replayed while waiting for its retry, and failing again: still pending, retries in place.
    const before = rx.received.length;
    const r1 = await srv.api('POST', `/api/webhooks/deliveries/${d.id}/replay`, { token: t.accessToken });
    assert.equal(r1.status, 202, JSON.stringify(r1.body));
    const [req] = (await rx.waitFor(before + 1)).slice(before);
    assert.ok(verifyServiceSignature(fresh, req));
    assert.equal(verifyServiceSignature(secret, req), false, 'the old secret no longer signs');
    const failedReplay = await eventually(async () => {
      const x = await getDelivery(srv.services, tenantId, d.id);
      return x.attemptLog.length === 2 ? x : undefined;
    });
    assert.equal(failedReplay.attemptLog[1]!.trigger, 'replay');
    assert.equal(failedReplay.status, 'pending', 'a failed replay leaves the delivery being retried');
    assert.ok(failedReplay.nextAttemptAt, 'a retry is still scheduled');
    assert.notEqual(scheduled, null);

    // Replayed again, now succeeding: done, and no scheduled retry fires afterwards.
    rx.respondOn('/rotating', 204);
    assert.equal((await srv.api('POST', `/api/webhooks/deliveries/${d.id}/replay`, { token: t.accessToken })).status, 202);
    const ok = await eventually(async () => {
      const x = await getDelivery(srv.services, tenantId, d.id);
      return x.status === 'succeeded' ? x : undefined;
    });
    assert.equal(ok.nextAttemptAt, null);
    assert.equal(ok.attemptLog.at(-1)!.trigger, 'replay');
    assert.equal((await srv.api('POST', `/api/webhooks/deliveries/${d.id}/replay`, { token: t.accessToken })).status, 409, 'a delivery that succeeded is not replayed');
    srv.clock.advance(24 * 3_600_000);
    assert.equal(await attemptDelivery(srv.services, d.id), null, 'the pending retries were cancelled');
    assert.equal(rx.received.filter((r) => r.headers['x-service-delivery'] === d.id).length, 3);
  });

  test(`bodies up to ${WEBHOOK_MAX_BODY_BYTES} bytes are delivered; one byte more is dropped unsent`, async () => {
    const { t, tenantId, hook } = await setup(['connector.connected'], '/big');
    const pad = (n: number) => JSON.stringify({ pad: 'x'.repeat(n - 10) });
    assert.equal(Buffer.byteLength(pad(WEBHOOK_MAX_BODY_BYTES)), WEBHOOK_MAX_BODY_BYTES);
    const before = rx.received.length;
    const s = srv.services;
    const [ok] = await insertDeliveries(s, s.db, { tenantId, eventType: 'connector.connected', body: pad(WEBHOOK_MAX_BODY_BYTES), targets: [{ webhookId: hook.id }] });
    const [tooBig] = await insertDeliveries(s, s.db, { tenantId, eventType: 'connector.connected', body: pad(WEBHOOK_MAX_BODY_BYTES + 1), targets: [{ webhookId: hook.id }] });
    const a = await attemptsReach(t.accessToken, ok, 1);
    const b = await attemptsReach(t.accessToken, tooBig, 1);
    assert.equal(a.status, 'succeeded');
    assert.equal(b.status, 'failed', 'too large is final: no retries');
    assert.match(b.lastError!, /exceeds 262144 bytes/);
    const got = rx.received.slice(before).filter((r) => r.path === '/big');
    assert.equal(got.length, 1);
    assert.equal(got[0].body.length, WEBHOOK_MAX_BODY_BYTES);
  });

  test('the delivery timeout is 10 s: an answer at 9.5 s succeeds, one at 10.5 s is a timeout and retried', { timeout: 30_000 }, async () => {
    const { t, tenantId } = await setup(['connector.connected'], '/slow-ok');
    const late = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/slow-late`, events: ['connector.connected'] } });
    rx.respondOn('/slow-ok', 200, 9_500);
    rx.respondOn('/slow-late', 200, 10_500);
    await emitConnector(tenantId, t.defaultProjectId);
    const hooks = (await srv.api('GET', '/api/webhooks', { token: t.accessToken })).body.data.items;
    assert.equal(hooks.length, 2);
    const done = await Promise.all(
      hooks.map((h: { id: string }) =>
        eventually(
          async () => {
            const x = await deliveryOf(t.accessToken, h.id);
            return x?.attempts === 1 ? { hook: h.id, ...x } : undefined;
          },
          15_000,
        ),
      ),
    );
    const byHook = new Map(done.map((d) => [d.hook, d]));
    const lateD = byHook.get(late.body.data.webhook.id)!;
    const okD = [...byHook.values()].find((d) => d.hook !== late.body.data.webhook.id)!;
    assert.equal(okD.status, 'succeeded');
    assert.equal(lateD.status, 'pending');
    assert.match(lateD.lastError, /^timeout/);
    const log = (await srv.api('GET', `/api/webhooks/deliveries/${lateD.id}`, { token: t.accessToken })).body.data.attemptLog[0];
    assert.ok(log.durationMs >= 9_900 && log.durationMs < 10_500, `gave up after ${log.durationMs} ms`);
    // Later tests sweep every due delivery: let this one's retries answer at once.
    rx.respondOn('/slow-late', 200);
    rx.respondOn('/slow-ok', 200);
  });
});

describe('retention', () => {
  test('deliveries are kept 30 days, then purged with their attempt log; due ones are picked up by the sweep', async () => {
    const { t, tenantId, hook } = await setup(['connector.connected'], '/kept');
    rx.respondOn('/kept', 500);
    await emitConnector(tenantId, t.defaultProjectId);
    const d = await eventually(async () => {
      const x = await deliveryOf(t.accessToken, hook.id);
      return x?.attempts === 1 ? x : undefined;
    });
    rx.respondOn('/kept', 200);
    srv.clock.advance(RETRY_DELAYS_MS[0]);
    assert.ok((await deliverDue(srv.services)) >= 1, 'the sweep attempts what is due');
    assert.equal((await attemptsReach(t.accessToken, d.id, 2)).status, 'succeeded');
    srv.clock.advance(30 * 24 * 3_600_000 - RETRY_DELAYS_MS[0] - 1_000);
    await purgeExpired(srv.services);
    const token = await signIn(srv, t);
    assert.equal((await srv.api('GET', `/api/webhooks/deliveries/${d.id}`, { token })).status, 200, 'still there just before 30 days');
    srv.clock.advance(2_000);
    const r = await purgeExpired(srv.services);
    assert.ok(r.deliveries >= 1);
    assert.equal((await srv.api('GET', `/api/webhooks/deliveries/${d.id}`, { token })).status, 404);
    const attempts = await srv.services.db.selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', '=', d.id).execute();
    assert.equal(attempts.length, 0);
  });
});

// SSRF rules of D10 with ALLOW_PRIVATE_WEBHOOK_TARGETS unset: https only, and no loopback,
// private, link-local, CGNAT, metadata or IPv4-mapped targets, refused at registration AND at
// every delivery on the address actually connected to (a name whose DNS changes after
// registration, DNS rebinding, is simulated by pointing the stored URL at localhost). Nothing in
// this file sends a packet anywhere but 127.0.0.1, and the refusals happen before any connection.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { startReceiver, type Receiver } from '../../../../test/webhook-receiver.ts';
import { eventually, tenantIdOf } from '../../../../test/helpers.ts';
import { emitEvent } from '../../../app/events/events.ts';
import { getDelivery, listDeliveries } from '../../../app/events/webhooks.ts';
import { checkWebhookUrl, createWebhookClient } from '../../../infra/webhook-client.ts';

let srv: TestServer;
let rx: Receiver;
before(async () => {
  srv = await startTestServer();
  rx = await startReceiver();
});
after(async () => {
  await srv.close();
  await rx.close();
});

const FORBIDDEN = [
  'http://93.184.216.34/hook',
  'https://127.0.0.1/hook',
  'https://localhost/hook',
  'https://[::1]/hook',
  'https://10.0.0.8/hook',
  'https://172.20.1.1/hook',
  'https://192.168.0.10/hook',
  'https://169.254.169.254/latest/meta-data',
  'https://[fd00:ec2::254]/latest',
  'https://100.64.1.1/hook',
  'https://[fe80::1]/hook',
  'https://[fc00::1]/hook',
  'https://0.0.0.0/hook',
  'https://[::ffff:127.0.0.1]/hook',
  'https://[::ffff:a9fe:a9fe]/hook',
  'https://2130706433/hook',
  'https://0x7f.1/hook',
  'https://224.0.0.1/hook',
];

describe('registration', () => {
  test('webhook URLs must be https to a public address', async () => {
    const t = await signupTenant(srv);
    for (const url of FORBIDDEN) {
      const r = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url, events: ['llm.call'], description: '' } });
      assert.equal(r.status, 400, url);
      assert.equal(r.body.field, 'url', url);
    }
    const ok = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: 'https://93.184.216.34/hook', events: ['llm.call'] } });
    assert.equal(ok.status, 201, 'a public https target is accepted (nothing is sent at registration)');
    const patch = await srv.api('PATCH', `/api/webhooks/${ok.body.data.webhook.id}`, { token: t.accessToken, body: { url: 'https://localhost/x' } });
    assert.equal(patch.status, 400);
    assert.match(patch.body.error, /127\.0\.0\.1|::1/);
  });

  test('the notification webhook URL follows the same rules', async () => {
    const t = await signupTenant(srv);
    for (const url of ['https://localhost/a', 'https://[::ffff:10.0.0.1]/a', 'http://93.184.216.34/a']) {
      const r = await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { webhookUrl: url } });
      assert.equal(r.status, 400, url);
      assert.equal(r.body.field, 'webhookUrl');
    }
  });

  test('checkWebhookUrl names the reason', async () => {
    assert.match((await checkWebhookUrl('https://localhost:8443/x', false))!, /localhost resolves to .*loopback/);
    assert.match((await checkWebhookUrl('https://169.254.169.254/', false))!, /metadata/);
    assert.equal(await checkWebhookUrl('https://localhost:8443/x', true), null, 'the development flag lifts it');
  });

  test('a refused private target names the setting that allows it; a refused public http target does not', async () => {
    const t = await signupTenant(srv);
    for (const url of ['https://127.0.0.1:9000/hook', 'http://localhost:9000/hook', 'https://192.168.1.20/hook', 'https://localhost/x']) {
      const r = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url, events: ['llm.call'] } });
      assert.equal(r.status, 400, url);
      assert.match(r.body.error, /ALLOW_PRIVATE_WEBHOOK_TARGETS=true/, url);
    }
    const http = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: 'http://93.184.216.34/hook', events: ['llm.call'] } });
    assert.equal(http.status, 400);
    assert.match(http.body.error, /must be an https URL/);
    assert.doesNotMatch(http.body.error, /ALLOW_PRIVATE/, 'a public target needs https, not the private-network setting');
  });
});

describe('delivery', () => {
  test('every attempt checks the address it connects to: a stored URL that now reaches loopback is refused, nothing is sent', async () => {
    const t = await signupTenant(srv);
    const tenantId = await tenantIdOf(srv, t.userId);
    const created = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: 'https://93.184.216.34/hook', events: ['connector.connected'] } });
    const id = created.body.data.webhook.id;
    const targets = [`https://localhost:${rx.port}/rebound`, `https://127.0.0.1:${rx.port}/literal`, `https://[::ffff:7f00:1]:${rx.port}/mapped`, `http://localhost:${rx.port}/plain`];
    for (const url of targets) {
      // What DNS rebinding does: the name registered as public now leads to the loopback.
      await srv.services.db.updateTable('webhooks').set({ url }).where('id', '=', id).execute();
      await emitEvent(srv.services, { type: 'connector.connected', tenantId, projectId: t.defaultProjectId, payload: { tool: url, tier: 1, reason: 'test' } });
      const d = await eventually(async () => {
        for (const x of (await listDeliveries(srv.services, tenantId, id, { limit: 50 })).items) {
          const full = await getDelivery(srv.services, tenantId, x.id);
          if (JSON.parse(full.body).payload.tool === url && full.attempts === 1) return full;
        }
        return undefined;
      });
      assert.equal(d.status, 'pending', 'refusals are retried like any failure');
      assert.match(d.lastError!, /^refused: /, `${url}: ${d.lastError}`);
      assert.equal(d.lastStatusCode, null);
    }
    assert.equal(rx.received.length, 0, 'the receiver on 127.0.0.1 never saw a request');
  });

  test('the client refuses loopback names, literals and plain http, and reaches them only with the flag', async () => {
    const strict = createWebhookClient({ allowPrivate: false });
    const open = createWebhookClient({ allowPrivate: true });
    try {
      for (const url of [`https://localhost:${rx.port}/x`, `https://127.0.0.1:${rx.port}/x`, `https://[::1]:${rx.port}/x`, `http://127.0.0.1:${rx.port}/x`]) {
        const r = await strict.send(url, { 'content-type': 'application/json' }, '{}');
        assert.equal(r.ok, false, url);
        assert.match(r.error!, /^refused: /, `${url}: ${r.error}`);
      }
      assert.equal(rx.received.length, 0);
      const r = await open.send(`http://localhost:${rx.port}/allowed`, { 'content-type': 'application/json' }, '{}');
      assert.equal(r.ok, true, r.error ?? '');
      assert.equal(rx.received.length, 1);
    } finally {
      await strict.close();
      await open.close();
    }
  });
});

// Notification settings (spec §1 /notifications) and threshold alerts: settings validation and the
// once-shown alert-webhook secret; balance and runway alerts firing once per crossing at their
// exact boundaries and re-arming; alerts by e-mail and by signed webhook.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../test/harness.ts';
import { eventually, outboxMails, tenantIdOf } from '../../../test/helpers.ts';
import { credit, usage } from '../../../test/ledger.ts';
import { startReceiver, verifyServiceSignature, verifyStandardSignature, type Receiver } from '../../../test/webhook-receiver.ts';
import type { BusMessage } from '../../infra/bus/bus.ts';
import { checkWalletThresholds, evaluateWalletThresholds, THRESHOLD_CACHE_TTL_MS, walletRunway } from './notifications.ts';

let srv: TestServer;
let rx: Receiver;
before(async () => {
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
  rx = await startReceiver();
});
after(async () => {
  await srv.close();
  await rx.close();
});

async function tenant() {
  const t = await signupTenant(srv);
  return { ...t, tenantId: await tenantIdOf(srv, t.userId) };
}

describe('settings', () => {
  test('defaults, validation, and the alert webhook secret shown once and stored encrypted', async () => {
    const t = await tenant();
    const get = await srv.api('GET', '/api/users/me/notifications', { token: t.accessToken });
    assert.deepEqual(get.body.data, { balanceThresholdMicros: null, runwayThresholdDays: null, escalationAlert: false, digestCadence: 'weekly', webhookUrl: null, channel: 'email' });
    const patch = (body: unknown) => srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body });
    assert.equal((await patch({})).status, 400);
    assert.equal((await patch({ balanceThresholdMicros: '-1' })).body.field, 'balanceThresholdMicros');
    assert.equal((await patch({ runwayThresholdDays: 0 })).body.field, 'runwayThresholdDays');
    assert.equal((await patch({ runwayThresholdDays: 1.5 })).status, 400);
    assert.equal((await patch({ digestCadence: 'hourly' })).body.field, 'digestCadence');
    const noUrl = await patch({ channel: 'webhook' });
    assert.equal(noUrl.status, 400);
    assert.equal(noUrl.body.field, 'channel');
    const set = await patch({ balanceThresholdMicros: '5000000', runwayThresholdDays: 3, escalationAlert: true, digestCadence: 'daily', webhookUrl: `${rx.url}/alerts`, channel: 'webhook' });
    assert.equal(set.status, 200);
    const secret: string = set.body.data.webhookSecret;
    assert.match(secret, /^whsec_/);
    assert.equal(set.body.data.balanceThresholdMicros, '5000000');
    const again = await patch({ digestCadence: 'weekly' });
    assert.equal(again.body.data.webhookSecret, undefined, 'shown once');
    assert.equal((await srv.api('GET', '/api/users/me/notifications', { token: t.accessToken })).body.data.webhookSecret, undefined);
    const row = await srv.services.db.selectFrom('notification_settings').selectAll().where('user_id', '=', t.userId).executeTakeFirstOrThrow();
    assert.equal(JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v)).includes(secret.slice(6, 30)), false);
    assert.equal((await patch({ webhookUrl: null })).status, 400, 'the webhook channel needs its URL');
    const off = await patch({ webhookUrl: null, channel: 'email' });
    assert.equal(off.status, 200);
    assert.equal(off.body.data.webhookUrl, null);
  });
});

describe('threshold alerts', () => {
  test('the balance alert fires once when the balance drops below the threshold (not at it) and re-arms above it', async () => {
    const t = await tenant();
    const s = srv.services;
    await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { balanceThresholdMicros: '5000000' } });
    const frames: BusMessage[] = [];
    const un = s.bus.subscribe(t.defaultProjectId, null, (m) => frames.push(m));
    await un.ready;
    await credit(s, t.tenantId, 10_000_000n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), []);
    await usage(s, t.tenantId, t.defaultProjectId, 5_000_000n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [], 'exactly at the threshold is not below it');
    await usage(s, t.tenantId, t.defaultProjectId, 1n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [{ userId: t.userId, type: 'wallet.threshold' }]);
    await usage(s, t.tenantId, t.defaultProjectId, 1_000n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [], 'once per crossing');
    const f = await eventually(async () => frames.find((m) => m.frame.type === 'wallet.threshold'));
    assert.deepEqual(f.frame.payload, { userId: t.userId, threshold: '5000000', balance: '4999999' });
    const mail = await eventually(async () => (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('below your alert threshold')));
    assert.match(mail, /4,999,999 tokens \(\$5\.00\)/);
    assert.match(mail, /Content-Type: text\/html/);

    // Back at the threshold: re-armed silently; the next drop fires again, through the job path.
    await credit(s, t.tenantId, 1_001n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), []);
    await usage(s, t.tenantId, t.defaultProjectId, 10n);
    await checkWalletThresholds(s, t.tenantId);
    await eventually(async () => (frames.filter((m) => m.frame.type === 'wallet.threshold').length === 2 ? true : undefined), 5_000, 'the second alert');
    assert.equal(frames.filter((m) => m.frame.type === 'wallet.threshold')[1].frame.payload.balance, '4999990');
    un();
  });

  test('no threshold job for a tenant without thresholds; a change through the API is seen at once, one on another replica within the cache TTL', async () => {
    const t = await tenant();
    const other = await tenant();
    const s = srv.services;
    const sent: string[] = [];
    const original = s.boss.sendDebounced;
    s.boss.sendDebounced = ((...a: Parameters<typeof original>) => {
      sent.push((a[1] as { tenantId: string }).tenantId);
      return original.apply(s.boss, a);
    }) as typeof original;
    const sentFor = (tenantId: string) => sent.filter((x) => x === tenantId).length;
    try {
      await checkWalletThresholds(s, t.tenantId);
      await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { digestCadence: 'daily' } });
      await checkWalletThresholds(s, t.tenantId);
      assert.equal(sentFor(t.tenantId), 0, 'no threshold, no job');
      await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { runwayThresholdDays: 2 } });
      await checkWalletThresholds(s, t.tenantId);
      assert.equal(sentFor(t.tenantId), 1, 'the API change evicts the cached answer');

      // Another replica's write (straight to the table here) is picked up once the entry expires.
      await checkWalletThresholds(s, other.tenantId);
      await s.db.insertInto('notification_settings').values({ tenant_id: other.tenantId, user_id: other.userId, balance_threshold_micros: 100n, updated_at: srv.clock.now() }).execute();
      await checkWalletThresholds(s, other.tenantId);
      assert.equal(sentFor(other.tenantId), 0, 'cached within the TTL');
      srv.clock.advance(THRESHOLD_CACHE_TTL_MS);
      await checkWalletThresholds(s, other.tenantId);
      assert.equal(sentFor(other.tenantId), 1);
    } finally {
      s.boss.sendDebounced = original;
    }
  });

  test('the runway alert compares balance ÷ 7-day average burn with the threshold, exactly', async () => {
    const t = await tenant();
    const s = srv.services;
    await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { runwayThresholdDays: 3 } });
    await credit(s, t.tenantId, 10_000_000n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [], 'no burn, no runway alert');
    // 7,000,000 burnt over the last week: 1,000,000 a day; 3,000,000 left = exactly 3 days.
    const day = 86_400_000;
    for (let i = 1; i <= 7; i++) await usage(s, t.tenantId, t.defaultProjectId, 1_000_000n, { at: new Date(srv.clock.now().getTime() - i * day + 60_000) });
    const r = await walletRunway(s.db, t.tenantId, srv.clock.now());
    assert.deepEqual([r.balanceMicros, r.burnMicros, r.runwayDays], [3_000_000n, 7_000_000n, 3]);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [], 'three days is not below three days');
    await usage(s, t.tenantId, t.defaultProjectId, 1n);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), [{ userId: t.userId, type: 'runway.threshold' }]);
    assert.deepEqual(await evaluateWalletThresholds(s, t.tenantId), []);
    const mail = await eventually(async () => (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('runway is below 3 days')));
    assert.match(mail, /about 2\.9 more days/);
  });

  test('alerts on the webhook channel are signed with the user’s own secret', async () => {
    const t = await tenant();
    const s = srv.services;
    const set = await srv.api('PATCH', '/api/users/me/notifications', { token: t.accessToken, body: { balanceThresholdMicros: '100', webhookUrl: `${rx.url}/my-alerts`, channel: 'webhook' } });
    const secret: string = set.body.data.webhookSecret;
    const before = rx.received.length;
    await credit(s, t.tenantId, 99n);
    assert.equal((await evaluateWalletThresholds(s, t.tenantId)).length, 1);
    const [req] = (await rx.waitFor(before + 1)).slice(before);
    assert.equal(req.path, '/my-alerts');
    assert.equal(req.headers['x-service-event'], 'wallet.threshold');
    assert.ok(verifyServiceSignature(secret, req));
    assert.ok(verifyStandardSignature(secret, req, Math.floor(srv.clock.now().getTime() / 1000)));
    const body = JSON.parse(req.body.toString());
    assert.deepEqual(Object.keys(body), ['type', 'projectId', 'tenantId', 'actorUserId', 'at', 'payload']);
    assert.deepEqual(body.payload, { userId: t.userId, threshold: '100', balance: '99' });
    assert.ok(!(await outboxMails(srv.dataDir)).some((m) => m.includes(`To: ${t.email}`) && m.includes('alert threshold')), 'no e-mail on the webhook channel');
  });
});

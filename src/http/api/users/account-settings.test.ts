// Issue 16 API pieces behind /account and /notifications: an e-mail change waits for the new
// address's link (and sets emailVerifiedAt when followed), the test alert takes the real alert
// path (e-mail job, signed webhook delivery), and a member replays their own alert deliveries.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { addMember, eventually, linkTokenFor, outboxMails } from '../../../../test/helpers.ts';
import { startReceiver, verifyServiceSignature, type Receiver } from '../../../../test/webhook-receiver.ts';

let srv: TestServer;
let rx: Receiver;
before(async () => {
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', RATE_LIMIT_LOGIN_PER_MIN: '1000' } });
  rx = await startReceiver();
});
after(async () => {
  await srv.close();
  await rx.close();
});

describe('e-mail change', () => {
  test('a new address is pending until its link is followed; then it is the sign-in address and emailVerifiedAt is set', async () => {
    const t = await signupTenant(srv, 'mail');
    const next = `moved-${Date.now()}@example.test`;
    const r = await srv.api('PATCH', '/api/users/me', { token: t.accessToken, body: { email: next } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.email, t.email, 'not in effect yet');
    assert.equal(r.body.data.pendingEmail, next);
    // The old address still signs in; the new one does not yet.
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 200);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: next, password: t.password } })).status, 401);
    // The old address is told.
    await eventually(async () => (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('being changed')), 5_000, 'the notice to the old address');
    const token = await linkTokenFor(srv, next, 'verify-email');
    const v = await srv.api('POST', '/api/auth/verify-email', { body: { token } });
    assert.equal(v.status, 200);
    assert.equal(v.body.data.email, next);
    assert.equal(v.body.data.pendingEmail, null);
    assert.ok(v.body.data.emailVerifiedAt);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: next, password: t.password } })).status, 200);
    assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 401);
  });

  test("another account's address is refused at once; asking for the current address cancels a pending change", async () => {
    const a = await signupTenant(srv, 'a');
    const b = await signupTenant(srv, 'b');
    const taken = await srv.api('PATCH', '/api/users/me', { token: a.accessToken, body: { email: b.email.toUpperCase() } });
    assert.equal(taken.status, 409);
    assert.match(taken.body.error, /choose a different one/);
    await srv.api('PATCH', '/api/users/me', { token: a.accessToken, body: { email: `later-${Date.now()}@example.test` } });
    const cancel = await srv.api('PATCH', '/api/users/me', { token: a.accessToken, body: { email: a.email } });
    assert.equal(cancel.body.data.pendingEmail, null);
    assert.equal(cancel.body.data.email, a.email);
  });
});

describe('test alert and alert deliveries', () => {
  test('by e-mail: the alert mail arrives', async () => {
    const t = await signupTenant(srv, 'alertmail');
    const r = await srv.api('POST', '/api/users/me/notifications/test', { token: t.accessToken });
    assert.equal(r.status, 202);
    assert.deepEqual(r.body.data, { channel: 'email', to: t.email, deliveryId: null });
    await eventually(async () => (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${t.email}`) && m.includes('Switchboard test alert')), 10_000, 'the test alert mail');
  });

  test('by webhook: a signed delivery with its attempts; a failed one is replayed by its own member, not by another', async () => {
    const owner = await signupTenant(srv, 'alerthook');
    const peer = await signupTenant(srv, 'peer');
    const joined = await addMember(srv, owner, peer, 'member');
    const memberToken = joined.tokens.accessToken;
    rx.respondOn('/member-alerts', 500);
    const set = await srv.api('PATCH', '/api/users/me/notifications', { token: memberToken, body: { webhookUrl: `${rx.url}/member-alerts`, channel: 'webhook' } });
    const secret: string = set.body.data.webhookSecret;
    const r = await srv.api('POST', '/api/users/me/notifications/test', { token: memberToken });
    assert.equal(r.status, 202);
    assert.equal(r.body.data.channel, 'webhook');
    const id: string = r.body.data.deliveryId;
    assert.ok(id);
    const failed = await eventually(async () => {
      const l = await srv.api('GET', '/api/users/me/notifications/deliveries', { token: memberToken });
      const d = l.body.data.items.find((x: { id: string }) => x.id === id);
      return d && d.attemptLog.length === 1 ? d : undefined;
    }, 10_000, 'the first attempt');
    assert.equal(failed.eventType, 'alert.test');
    assert.equal(failed.attemptLog[0].statusCode, 500);
    const got = rx.received.find((x) => x.headers['x-service-delivery'] === id)!;
    assert.ok(verifyServiceSignature(secret, got));
    // The owner of the tenant cannot replay someone else's alert delivery; the member can.
    assert.equal((await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token: owner.accessToken })).status, 404);
    rx.respondOn('/member-alerts', 200);
    assert.equal((await srv.api('POST', `/api/webhooks/deliveries/${id}/replay`, { token: memberToken })).status, 202);
    const done = await eventually(async () => {
      const l = await srv.api('GET', '/api/users/me/notifications/deliveries', { token: memberToken });
      const d = l.body.data.items.find((x: { id: string }) => x.id === id);
      return d && d.status === 'succeeded' ? d : undefined;
    }, 10_000, 'the replay');
    assert.equal(done.attemptLog.at(-1).trigger, 'replay');
    // Other people's logs do not show it.
    assert.equal((await srv.api('GET', '/api/users/me/notifications/deliveries', { token: owner.accessToken })).body.data.items.length, 0);
  });

});

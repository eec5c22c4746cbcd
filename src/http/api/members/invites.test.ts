// Invitations (D13, issue 22 item 7): nobody joins a tenant without their consent; the e-mailed
// link opens the web app's /invite page; it is single-use, revocable, role-checked, and can be
// accepted signed in, with the invited account's password, or by a new user.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';
import { linkTokenFor, outboxMails } from '../../../../test/helpers.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

const MIN = 60_000;

describe('adding a member needs their consent', () => {
  test('POST /api/members no longer adds a registered user nor tells whether the address has an account', async () => {
    const owner = await signupTenant(srv, 'owner');
    const registered = await signupTenant(srv, 'registered');
    const known = await srv.api('POST', '/api/members', { token: owner.accessToken, body: { email: registered.email, role: 'viewer' } });
    const unknown = await srv.api('POST', '/api/members', { token: owner.accessToken, body: { email: `nobody-${Date.now()}@example.test`, role: 'viewer' } });
    assert.equal(known.status, 201);
    assert.equal(unknown.status, 201, 'an address without an account is invited the same way');
    assert.doesNotMatch(JSON.stringify(unknown.body), /No user/);
    assert.deepEqual(Object.keys(known.body.data).sort(), Object.keys(unknown.body.data).sort());
    assert.equal(known.body.data.status, 'pending');
    const members = await srv.api('GET', '/api/members', { token: owner.accessToken });
    assert.deepEqual(members.body.data.items.map((m: { email: string }) => m.email), [owner.email], 'the registered user is not a member until they accept');
    assert.equal((await srv.api('GET', '/api/projects', { token: registered.accessToken })).body.data.items.some((p: { id: string }) => p.id === owner.defaultProjectId), false);
  });
});

describe('the invitation link', () => {
  test('is e-mailed to <PUBLIC_URL>/invite?token=..., previewed, accepted with the password, and works once', async () => {
    const owner = await signupTenant(srv, 'owner');
    const guest = await signupTenant(srv, 'guest');
    const inv = await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: guest.email, role: 'member' } });
    assert.equal(inv.status, 201);
    assert.equal(inv.body.data.email, guest.email);
    assert.equal(inv.body.data.role, 'member');
    const mail = (await outboxMails(srv.dataDir)).find((m) => m.includes(`To: ${guest.email}`) && m.includes('/invite?token='))!;
    assert.ok(mail.includes(`${srv.services.publicUrl}/invite?token=`), 'the link opens the web page');
    assert.match(mail, /Tenant owner/);
    const token = await linkTokenFor(srv, guest.email, 'invite');

    const listed = await srv.api('GET', '/api/members/invites', { token: owner.accessToken });
    assert.deepEqual(listed.body.data.items.map((i: { id: string }) => i.id), [inv.body.data.id]);

    const preview = await srv.api('GET', `/api/members/invites/preview?token=${encodeURIComponent(token)}`);
    assert.equal(preview.status, 200);
    assert.deepEqual(preview.body.data.tenant, { id: owner.tenantId, name: 'Tenant owner' });
    assert.equal(preview.body.data.accountExists, true);

    const wrong = await srv.api('POST', '/api/members/invites/accept', { body: { token, password: 'not the password at all' } });
    assert.equal(wrong.status, 401);
    const acc = await srv.api('POST', '/api/members/invites/accept', { body: { token, password: guest.password } });
    assert.equal(acc.status, 200);
    assert.equal(acc.body.data.role, 'member');
    assert.equal(acc.body.data.user.id, guest.userId);
    assert.match(acc.headers.get('set-cookie') ?? '', /sb_refresh=.*Path=\/api\/auth.*SameSite=Strict/i);
    // The new session is in the inviting tenant.
    const t = await srv.api('GET', '/api/tenant', { token: acc.body.data.tokens.accessToken });
    assert.equal(t.body.data.id, owner.tenantId);
    assert.equal(t.body.data.role, 'member');
    const members = await srv.api('GET', '/api/members', { token: owner.accessToken });
    assert.deepEqual(members.body.data.items.map((m: { email: string; role: string }) => [m.email, m.role]), [[owner.email, 'owner'], [guest.email, 'member']]);

    const again = await srv.api('POST', '/api/members/invites/accept', { body: { token, password: guest.password } });
    assert.equal(again.status, 400);
    assert.equal(again.body.code, 'invalid_link');
    assert.deepEqual((await srv.api('GET', '/api/members/invites', { token: owner.accessToken })).body.data.items, []);
    srv.clock.advance(MIN);
  });

  test('a new user joins with a name and a password that meets the policy; their address counts as verified', async () => {
    const owner = await signupTenant(srv, 'owner');
    const address = `newcomer-${Date.now()}@example.test`;
    await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: address, role: 'viewer' } });
    const token = await linkTokenFor(srv, address, 'invite');
    assert.equal((await srv.api('GET', `/api/members/invites/preview?token=${encodeURIComponent(token)}`)).body.data.accountExists, false);
    const short = await srv.api('POST', '/api/members/invites/accept', { body: { token, name: 'New Person', password: 'short' } });
    assert.equal(short.status, 400);
    assert.equal(short.body.field, 'password');
    const r = await srv.api('POST', '/api/members/invites/accept', { body: { token, name: 'New Person', password: 'a long enough password' } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.user.email, address);
    const me = await srv.api('GET', '/api/users/me', { token: r.body.data.tokens.accessToken });
    assert.equal(me.body.data.name, 'New Person');
    assert.ok(me.body.data.emailVerifiedAt);
    const login = await srv.api('POST', '/api/auth/login', { body: { email: address, password: 'a long enough password' } });
    assert.equal(login.status, 200);
    srv.clock.advance(MIN);
  });

  test('signed in, only the invited address may accept; it gets the membership without new tokens', async () => {
    const owner = await signupTenant(srv, 'owner');
    const guest = await signupTenant(srv, 'guest');
    const other = await signupTenant(srv, 'other');
    await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: guest.email, role: 'admin' } });
    const token = await linkTokenFor(srv, guest.email, 'invite');
    const stolen = await srv.api('POST', '/api/members/invites/accept', { token: other.accessToken, body: { token } });
    assert.equal(stolen.status, 403);
    const r = await srv.api('POST', '/api/members/invites/accept', { token: guest.accessToken, body: { token } });
    assert.equal(r.status, 200);
    assert.equal(r.body.data.tokens, null);
    assert.equal(r.body.data.role, 'admin');
    const tenants = await srv.api('GET', '/api/auth/tenants', { token: guest.accessToken });
    assert.deepEqual(tenants.body.data.items.map((t: { tenantId: string; role: string; current: boolean }) => [t.tenantId, t.role, t.current]), [
      [guest.tenantId, 'owner', true],
      [owner.tenantId, 'admin', false],
    ]);
    srv.clock.advance(MIN);
  });

  test('revoked, replaced or expired links stop working; only owners and admins invite; only owners invite owners', async () => {
    const owner = await signupTenant(srv, 'owner');
    const guest = await signupTenant(srv, 'guest');
    const first = await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: guest.email, role: 'viewer' } });
    const t1 = await linkTokenFor(srv, guest.email, 'invite');
    assert.equal((await srv.api('DELETE', `/api/members/invites/${first.body.data.id}`, { token: owner.accessToken })).status, 200);
    assert.equal((await srv.api('DELETE', `/api/members/invites/${first.body.data.id}`, { token: owner.accessToken })).status, 404);
    assert.equal((await srv.api('POST', '/api/members/invites/accept', { body: { token: t1, password: guest.password } })).body.code, 'invalid_link');

    await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: guest.email, role: 'viewer' } });
    const t2 = await linkTokenFor(srv, guest.email, 'invite');
    await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email: guest.email.toUpperCase(), role: 'member' } });
    const t3 = await linkTokenFor(srv, guest.email, 'invite');
    assert.notEqual(t2, t3);
    assert.equal((await srv.api('GET', `/api/members/invites/preview?token=${encodeURIComponent(t2)}`)).status, 400, 'inviting again replaces the older link');
    assert.equal((await srv.api('GET', '/api/members/invites', { token: owner.accessToken })).body.data.items.length, 1);
    srv.clock.advance(7 * 24 * 3600_000 + 1000);
    assert.equal((await srv.api('POST', '/api/members/invites/accept', { body: { token: t3, password: guest.password } })).body.code, 'invalid_link', 'expired after 7 days');

    const owner2 = await signupTenant(srv, 'owner2');
    const admin = await signupTenant(srv, 'admin');
    await srv.api('POST', '/api/members/invites', { token: owner2.accessToken, body: { email: admin.email, role: 'admin' } });
    const ta = await linkTokenFor(srv, admin.email, 'invite');
    const joined = await srv.api('POST', '/api/members/invites/accept', { body: { token: ta, password: admin.password } });
    const adminInTenant = joined.body.data.tokens.accessToken;
    assert.equal((await srv.api('POST', '/api/members/invites', { token: adminInTenant, body: { email: 'x@example.test', role: 'owner' } })).status, 403);
    assert.equal((await srv.api('POST', '/api/members/invites', { token: adminInTenant, body: { email: 'x@example.test', role: 'admin' } })).status, 201);
    const viewer = await signupTenant(srv, 'viewer');
    await srv.api('POST', '/api/members/invites', { token: owner2.accessToken, body: { email: viewer.email, role: 'viewer' } });
    const tv = await linkTokenFor(srv, viewer.email, 'invite');
    const vj = await srv.api('POST', '/api/members/invites/accept', { body: { token: tv, password: viewer.password } });
    const asViewer = vj.body.data.tokens.accessToken;
    assert.equal((await srv.api('POST', '/api/members/invites', { token: asViewer, body: { email: 'y@example.test', role: 'viewer' } })).status, 403);
    assert.equal((await srv.api('GET', '/api/members/invites', { token: asViewer })).status, 403);
    assert.equal((await srv.api('POST', '/api/members/invites', { token: owner2.accessToken, body: { email: viewer.email, role: 'viewer' } })).status, 409, 'already a member');
    srv.clock.advance(MIN);
  });
});

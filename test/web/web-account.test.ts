// /account in headless Chromium (issue 16 items 1 and 9): the profile through the form (the API's
// own schema refuses a bad avatar URL on screen), the time zone picked by keyboard from the
// searchable list, an e-mail change that waits for its link, the password, and the team: its
// name, invitations, members with bios and pictures, role changes and removal, and what a plain
// member sees. Each step is checked against the API; axe-core on every state.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
import { addMember, linkTokenFor } from '../helpers.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer({ worker: false, env: { RATE_LIMIT_LOGIN_PER_MIN: '1000' } });
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

async function signInAs(email: string, password: string) {
  if (w) await page.context().close();
  w = await openPage(browser);
  page = w.page;
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/overview');
}

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  // axe-core adds a <style> of its own, which the page's CSP refuses, as it should.
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/Content Security Policy/.test(p)));
  assert.deepEqual(w.problems, [], `${name}: console errors`);
}

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

const me = async (token: string) => (await srv.api('GET', '/api/users/me', { token })).body.data;

test('/account: profile, time zone by keyboard, e-mail change verified first, password, team', async () => {
  const owner = await signupTenant(srv, 'acct');
  await signInAs(owner.email, owner.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), (await me(owner.accessToken)).name);

  // The API's own schema answers on screen, before any request.
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Avatar URL').fill('not a link');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Must be an http(s) URL.').waitFor();
  assert.notEqual((await me(owner.accessToken)).name, 'Ada Lovelace', 'nothing saved yet');

  // Time zone: search the IANA list by typing, choose with the keyboard.
  const tz = page.getByRole('combobox', { name: 'Time zone' });
  await tz.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('kolk');
  await page.getByRole('option', { name: 'Asia/Kolkata' }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await tz.inputValue(), 'Asia/Kolkata');
  await page.getByLabel('Avatar URL').fill('https://avatars.example.test/ada.png');
  await page.getByLabel('Bio').fill('Writes the first programs.');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText('Profile saved.').waitFor();
  const saved = await me(owner.accessToken);
  assert.equal(saved.name, 'Ada Lovelace');
  assert.equal(saved.timezone, 'Asia/Kolkata');
  assert.equal(saved.bio, 'Writes the first programs.');
  assert.equal(saved.avatarUrl, 'https://avatars.example.test/ada.png');
  await checkA11y('account-profile');

  // E-mail: the new address is pending until its link is opened.
  const next = `ada-${Date.now()}@example.test`;
  await page.getByLabel('E-mail', { exact: true }).fill(next);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await page.getByText(`We sent a link to ${next}`).waitFor();
  assert.match(await page.getByTestId('pending-email').innerText(), new RegExp(`Waiting for ${next}`));
  const pending = await me(owner.accessToken);
  assert.equal(pending.email, owner.email);
  assert.equal(pending.pendingEmail, next);
  assert.equal(pending.emailVerifiedAt, null);
  await checkA11y('account-email-pending');
  const token = await linkTokenFor(srv, next, 'verify-email');
  await page.goto(`${srv.url}/verify-email?token=${encodeURIComponent(token)}`);
  await page.getByText(`${next} is verified. Thank you.`).waitFor();
  const verified = await me(owner.accessToken);
  assert.equal(verified.email, next);
  assert.ok(verified.emailVerifiedAt);
  await page.goto(`${srv.url}/account`);
  assert.match(await page.getByTestId('email-status').innerText(), new RegExp(`${next}, verified on`));

  // Password: the schema's rule on screen, a wrong current password from the API, then success.
  await page.getByLabel('Current password').fill(owner.password);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Must be at least 12 characters.').waitFor();
  await page.getByLabel('Current password').fill('not my password at all');
  await page.getByLabel('New password').fill('a much longer passphrase');
  await page.getByRole('button', { name: 'Change password' }).click();
  assert.match(await page.getByRole('alert').first().innerText(), /not correct/);
  await page.getByLabel('Current password').fill(owner.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Password changed. Your other sessions were signed out.').waitFor();
  const relogin = await srv.api('POST', '/api/auth/login', { body: { email: next, password: 'a much longer passphrase' } });
  assert.equal(relogin.status, 200);
  // The password change ended the owner's other sessions, the API one included.
  assert.equal((await srv.api('GET', '/api/users/me', { token: owner.accessToken })).status, 401);
  owner.accessToken = relogin.body.data.tokens.accessToken;

  // Team name.
  await page.getByLabel('Team name').fill('Analytical Engines');
  await page.getByRole('button', { name: 'Rename team' }).click();
  await page.getByText('The team is now called Analytical Engines.').waitFor();
  assert.equal((await srv.api('GET', '/api/tenant', { token: owner.accessToken })).body.data.name, 'Analytical Engines');
  assert.equal(await page.getByTestId('tenant-name').innerText(), 'Analytical Engines');

  // Invitations: send, see it listed, withdraw.
  const invitee = `invitee-${Date.now()}@example.test`;
  await page.getByLabel('E-mail to invite').fill('nope');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText('Must be an e-mail address.').waitFor();
  await page.getByLabel('E-mail to invite').fill(invitee);
  await page.getByLabel('Role', { exact: true }).selectOption('viewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText(`Invitation sent to ${invitee}.`).waitFor();
  const invites = (await srv.api('GET', '/api/members/invites', { token: owner.accessToken })).body.data.items;
  assert.deepEqual(
    invites.map((i: { email: string; role: string }) => [i.email, i.role]),
    [[invitee, 'viewer']],
  );
  await page.getByRole('button', { name: `Withdraw the invitation to ${invitee}` }).click();
  await page.getByText(`The invitation to ${invitee} was withdrawn`).waitFor();
  assert.equal((await srv.api('GET', '/api/members/invites', { token: owner.accessToken })).body.data.items.length, 0);

  // A member joins (through their invitation) with a bio: the owner sees it, changes the role, removes them.
  const mate = await signupTenant(srv, 'mate');
  await srv.api('PATCH', '/api/users/me', { token: mate.accessToken, body: { bio: 'Loves punch cards.', name: 'Charles' } });
  await addMember(srv, owner, mate, 'member');
  await page.reload();
  const row = page.getByTestId(`member-${mate.email}`);
  await row.getByText('Loves punch cards.').waitFor();
  await checkA11y('account-team');
  await row.getByLabel('Role of Charles').selectOption('admin');
  await page.getByText('Charles is now an admin.').waitFor();
  const roleOf = async () =>
    (await srv.api('GET', '/api/members', { token: owner.accessToken })).body.data.items.find((m: { email: string }) => m.email === mate.email)?.role;
  assert.equal(await roleOf(), 'admin');

  // What a member (now admin → back to member) sees: others' bios and pictures, no management.
  await row.getByLabel('Role of Charles').selectOption('member');
  await page.getByText('Charles is now a member.').waitFor();
  await signInAs(mate.email, mate.password);
  // Their first team is their own; the shell's switcher takes them to the one they joined.
  // By keyboard: the team button opens the menu, arrows pick the other team.
  await page.getByTestId('tenant-name').focus();
  await page.keyboard.press('Enter');
  await page.getByRole('menuitem', { name: 'Analytical Engines (member)' }).waitFor();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="tenant-name"]')?.textContent?.startsWith('Analytical Engines'));
  // The switch holds across a reload (the refresh cookie names the new team).
  await page.reload();
  await page.waitForFunction(() => document.querySelector('[data-testid="tenant-name"]')?.textContent?.startsWith('Analytical Engines'));
  // The picture host, stood in for by the browser's own request routing (loopback only here).
  const avatarHits: string[] = [];
  await page.route('https://avatars.example.test/**', (r) => {
    avatarHits.push(r.request().url());
    return r.fulfill({ status: 200, contentType: 'image/png', body: PNG });
  });
  await page.goto(`${srv.url}/account`);
  const adaRow = page.getByTestId(`member-${next}`);
  await adaRow.getByText('Writes the first programs.').waitFor();
  await adaRow.locator('img.avatar').waitFor();
  assert.equal(await adaRow.locator('img.avatar').getAttribute('src'), 'https://avatars.example.test/ada.png');
  assert.deepEqual(avatarHits, ['https://avatars.example.test/ada.png']);
  assert.equal(await page.getByRole('button', { name: 'Send invitation' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Rename team' }).count(), 0);
  assert.equal(await page.locator('select').count(), 0);
  await checkA11y('account-as-member');

  // Back as the owner: remove the member.
  await signInAs(next, 'a much longer passphrase');
  await page.goto(`${srv.url}/account`);
  await page.getByRole('button', { name: 'Remove Charles from the team' }).click();
  await page.getByText('Charles was removed from the team.').waitFor();
  assert.equal(await roleOf(), undefined);
});

test('/account: members and invitations page like the API (D9): 50, then "Load more" by keyboard, the focus kept', async () => {
  const owner = await signupTenant(srv, 'bigteam');
  const db = srv.services.db;
  // 102 more members (SQL: users that never sign in; three pages) and 51 open invitations (two).
  const tag = owner.tenantId.slice(0, 8);
  await sql`insert into users (email, password_hash, name, created_at)
    select 'bulk-' || g || '-' || ${tag}::text || '@example.test', 'not a hash: never signs in', 'Bulk member ' || lpad(g::text, 3, '0'), now() + g * interval '1 second'
    from generate_series(1, 102) g`.execute(db);
  await sql`insert into memberships (tenant_id, user_id, role, created_at)
    select ${owner.tenantId}::uuid, id, 'member', created_at from users where email like ${`bulk-%-${tag}@example.test`}`.execute(db);
  await sql`insert into invites (tenant_id, email, role, token_hash, invited_by, created_at, expires_at)
    select ${owner.tenantId}::uuid, 'invitee-' || g || '-' || ${tag}::text || '@example.test', 'viewer', gen_random_uuid()::text::bytea, ${owner.userId}::uuid,
      now() - g * interval '1 second', now() + interval '7 days'
    from generate_series(1, 51) g`.execute(db);
  const count = async (path: string) => {
    let n = 0;
    for (let cursor: string | null = null; ; ) {
      const r: { items: unknown[]; nextCursor: string | null } = (await srv.api('GET', `${path}?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: owner.accessToken })).body.data;
      n += r.items.length;
      if (!r.nextCursor) return n;
      cursor = r.nextCursor;
    }
  };
  assert.equal(await count('/api/members'), 103);
  assert.equal(await count('/api/members/invites'), 51);

  await signInAs(owner.email, owner.password);
  await page.goto(`${srv.url}/account`);
  const members = page.getByRole('list', { name: 'Members' }).locator('li.person');
  await page.getByText('Showing 50 members; there are more.').waitFor();
  assert.equal(await members.count(), 50);
  await page.getByRole('heading', { name: 'Members (50 shown)' }).waitFor();
  const moreMembers = page.getByRole('button', { name: 'Load more members' });
  await moreMembers.focus();
  await page.keyboard.press('Enter');
  await page.getByText('Showing 100 members; there are more.').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Load more members', 'the button keeps the focus');
  await page.keyboard.press('Enter');
  await page.getByText('Showing 103 members, all there are.').waitFor();
  assert.equal(await members.count(), 103);
  // The button went with the last page: the focus is on the status line, not lost to the page's top.
  await page.waitForFunction(() => document.activeElement?.textContent === 'Showing 103 members, all there are.');
  await page.getByRole('heading', { name: 'Members (103)' }).waitFor();
  assert.equal(await moreMembers.count(), 0, 'no button once every page is shown');
  await page.getByTestId(`member-bulk-102-${tag}@example.test`).waitFor();

  const invites = page.getByRole('table', { name: 'Open invitations' }).locator('tbody tr');
  await page.getByText('Showing 50 invitations; there are more.').waitFor();
  assert.equal(await invites.count(), 50);
  const moreInvites = page.getByRole('button', { name: 'Load more invitations' });
  // By keyboard from the withdraw button of the last row shown: Tab reaches "Load more".
  await page.getByRole('button', { name: /^Withdraw the invitation to / }).last().focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Load more invitations');
  await page.getByText('Showing 50 invitations; there are more.').waitFor();
  await checkA11y('account-team-paged');
  await page.keyboard.press('Enter');
  await page.getByText('Showing 51 invitations, all there are.').waitFor();
  assert.equal(await invites.count(), 51);
  assert.equal(await moreInvites.count(), 0);
  await checkA11y('account-team-all');
});

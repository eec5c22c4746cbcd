// The e-mailed links open the web app's pages and work there (D13): password reset, e-mail
// verification and an invitation for a new person; the shell's team switcher; the sign-in
// page's answer to the per-address limit. Headless Chromium, the mails from the outbox.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
import { linkTokenFor } from '../helpers.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;

before(async () => {
  await buildWeb({ quiet: true });
  // Many sign-ins from one address in a minute: the per-address limit gets its own test below.
  srv = await startTestServer({ worker: false, env: { RATE_LIMIT_LOGIN_PER_MIN: '1000' } });
  browser = await launch();
  w = await openPage(browser);
  page = w.page;
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

async function signInThroughForm(email: string, password: string) {
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test('forgot password: the e-mailed link opens /reset-password, the new password works and the old one does not', async () => {
  const t = await signupTenant(srv, 'reset');
  await page.goto(`${srv.url}/login`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  // The screen's code loads on demand: wait for its own button, or the sign-in form's field (still
  // on screen while the chunk loads) would be the one filled.
  await page.getByRole('button', { name: 'Send the link' }).waitFor();
  await page.getByLabel('E-mail').fill(t.email);
  await page.getByRole('button', { name: 'Send the link' }).click();
  await page.getByText(`If ${t.email} has an account, a link to choose a new password is on its way.`).waitFor();
  assert.deepEqual(await axeViolations(page), []);
  const token = await linkTokenFor(srv, t.email, 'reset-password');
  await page.goto(`${srv.url}/reset-password?token=${encodeURIComponent(token)}`);
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await page.getByText('Must be at least 12 characters.').waitFor();
  await page.getByLabel('New password').fill('a brand new passphrase');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('reset') === '1');
  await page.getByText('Your password was changed. Sign in with the new one.').waitFor();
  await screenshot(page, 'reset-done');
  // The link worked once.
  await page.goto(`${srv.url}/reset-password?token=${encodeURIComponent(token)}`);
  await page.getByLabel('New password').fill('yet another passphrase');
  await page.getByRole('button', { name: 'Save the new password' }).click();
  assert.match(await page.getByRole('alert').innerText(), /ask for a new one/);
  await signInThroughForm(t.email, t.password);
  await page.getByRole('alert').waitFor();
  await signInThroughForm(t.email, 'a brand new passphrase');
  await page.waitForURL((u) => u.pathname === '/overview');
  assert.deepEqual(w.problems, []);
});

test('verify e-mail: the link opens /verify-email and confirms the address', async () => {
  const t = await signupTenant(srv, 'verify');
  assert.equal((await srv.api('POST', '/api/users/me/verify-email', { token: t.accessToken })).status, 202);
  const token = await linkTokenFor(srv, t.email, 'verify-email');
  await page.goto(`${srv.url}/verify-email?token=${encodeURIComponent(token)}`);
  await page.getByText(`${t.email} is verified. Thank you.`).waitFor();
  const me = await srv.api('GET', '/api/users/me', { token: t.accessToken });
  assert.ok(me.body.data.emailVerifiedAt);
  await page.goto(`${srv.url}/verify-email?token=garbage`);
  assert.match(await page.getByRole('alert').innerText(), /send a new one/);
});

test('invitation: a new person joins through /invite and lands in the team; a second team appears in the switcher', async () => {
  const owner = await signupTenant(srv, 'inviter');
  const email = `new-${Date.now()}@example.test`;
  assert.equal((await srv.api('POST', '/api/members/invites', { token: owner.accessToken, body: { email, role: 'member' } })).status, 201);
  const token = await linkTokenFor(srv, email, 'invite');
  // The invited person's own browser: nobody is signed in there.
  await page.context().close();
  w = await openPage(browser);
  page = w.page;
  await page.goto(`${srv.url}/invite?token=${encodeURIComponent(token)}`);
  await page.getByRole('heading', { name: 'Join Tenant inviter' }).waitFor();
  assert.match(await page.locator('.auth-card').innerText(), new RegExp(`${email} is invited to Tenant inviter as a member`));
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'invite');
  await page.getByLabel('Your name').fill('Grace');
  await page.getByLabel('Password').fill('a joining passphrase');
  await page.getByRole('button', { name: 'Join Tenant inviter' }).click();
  await page.waitForURL((u) => u.pathname === '/overview');
  assert.equal(await page.getByTestId('tenant-name').innerText(), 'Tenant inviter');

  // The same person is invited to a second team and accepts while signed in: the shell offers a switch.
  const other = await signupTenant(srv, 'second');
  assert.equal((await srv.api('POST', '/api/members/invites', { token: other.accessToken, body: { email, role: 'viewer' } })).status, 201);
  const token2 = await linkTokenFor(srv, email, 'invite');
  assert.notEqual(token2, token);
  const login = await srv.api('POST', '/api/auth/login', { body: { email, password: 'a joining passphrase' } });
  assert.equal((await srv.api('POST', '/api/members/invites/accept', { token: login.body.data.tokens.accessToken, body: { token: token2 } })).status, 200);
  await page.reload();
  await page.getByTestId('tile-balance').waitFor();
  await page.getByTestId('tenant-name').click();
  await page.getByRole('menuitem', { name: 'Tenant second (viewer)' }).click();
  await page.waitForFunction(() => document.querySelector('[data-testid="tenant-name"]')?.textContent?.startsWith('Tenant second'));
  const tenant = await page.evaluate(() => document.querySelector('[data-testid="tenant-name"]')?.textContent);
  assert.match(tenant ?? '', /^Tenant second/);
  await screenshot(page, 'switched-team');
  assert.deepEqual(w.problems, []);
});

test('the per-address sign-in limit reads as how long to wait', async () => {
  const limited = await startTestServer({ worker: false, env: { RATE_LIMIT_LOGIN_PER_MIN: '3' } });
  try {
    let last = '';
    for (let i = 0; i < 6 && !/Too many attempts/.test(last); i++) {
      await page.goto(`${limited.url}/login`);
      await page.getByLabel('E-mail').fill('someone@example.test');
      await page.getByLabel('Password').fill(`wrong password ${i}`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      last = await page.getByRole('alert').innerText();
    }
    assert.match(last, /Too many attempts\. Try again in \d+ (seconds|minutes)\./);
    await screenshot(page, 'login-rate-limited');
  } finally {
    await limited.close();
  }
});

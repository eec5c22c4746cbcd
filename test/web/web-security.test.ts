// /security in headless Chromium (issue 16 items 2 and 9): sessions (current marked, another one
// revoked so its refresh token dies), the idle sign-out chosen by keyboard and then enforced by
// the browser itself (a faked browser clock runs past it: the app signs the session out on the
// server), personal access tokens shown once and copied with the button, then revoked, and the
// security log with its verify result. Each step is checked against the API; axe-core throughout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
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

async function signInAs(email: string, password: string, opts: { fakeClock?: boolean } = {}) {
  if (w) await page.context().close();
  w = await openPage(browser);
  page = w.page;
  if (opts.fakeClock) await page.clock.install();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/overview');
}

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/Content Security Policy/.test(p)));
  assert.deepEqual(w.problems, [], `${name}: console errors`);
}

test('/security: sessions, tokens shown once and copied, the security log verified', async () => {
  const t = await signupTenant(srv, 'sec');
  await signInAs(t.email, t.password);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security' }).click();
  await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();

  // Two sessions: the API's (signupTenant) and this browser's, which is marked.
  await page.getByTestId('session-current').waitFor();
  const api = (await srv.api('GET', '/api/users/me/sessions', { token: t.accessToken })).body.data.items;
  assert.equal(api.length, 2);
  assert.equal(await page.getByTestId('session').count(), 1);
  assert.match(await page.getByTestId('session-current').innerText(), /Headless Chrome on Linux\s*This session/);
  assert.match(await page.getByTestId('session-current').innerText(), /127\.0\.0\.1/);
  await checkA11y('security');

  // Revoke the other session (the API one): its refresh token stops at once.
  await page.getByTestId('session').getByRole('button').click();
  await page.getByText('The session was revoked.').waitFor();
  assert.equal((await srv.api('POST', '/api/auth/refresh', { body: { refreshToken: t.refreshToken } })).status, 401);
  // The list reloads after the message: wait for the row to go (seen once under load as still there).
  await page.getByTestId('session').waitFor({ state: 'detached' });
  assert.equal(await page.getByTestId('session').count(), 0);

  // A personal access token: the schema on screen, then shown once, copied by the button, working.
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByText('Must not be empty.').waitFor();
  await page.getByLabel('Token name').fill('deploy script');
  await page.getByLabel('Expires').selectOption('30');
  await page.getByRole('button', { name: 'Create token' }).click();
  const shown = (await page.getByTestId('new-token').locator('code').innerText()).trim();
  assert.match(shown, /^svc_pat_/);
  await page.getByRole('button', { name: 'Copy token' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown);
  const who = await srv.api('GET', '/api/users/me', { token: shown });
  assert.equal(who.status, 200);
  assert.equal(who.body.data.email, t.email);
  await checkA11y('security-token');
  // Shown once: after a reload only its prefix and last four remain.
  await page.reload();
  await page.getByRole('cell', { name: 'deploy script', exact: true }).waitFor();
  assert.equal(await page.getByTestId('new-token').count(), 0);
  assert.ok((await page.locator('main').innerText()).includes(`${shown.slice(0, 12)}…${shown.slice(-4)}`));
  assert.ok(!(await page.locator('main').innerText()).includes(shown));
  await page.getByRole('button', { name: 'Revoke the token deploy script' }).click();
  await page.getByText('The token deploy script was revoked; it no longer works.').waitFor();
  assert.equal((await srv.api('GET', '/api/users/me', { token: shown })).status, 401);

  // The security log shows what happened, and its chain verifies, as the API says.
  await page.getByRole('button', { name: 'Verify the log' }).click();
  const fresh = (await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).body.data.tokens.accessToken;
  const verdict = (await srv.api('GET', '/api/users/me/audit/verify', { token: fresh })).body.data;
  assert.equal(verdict.verified, true);
  await page.getByText(/Verified: all \d+ entries are intact\./).waitFor();
  const log = await page.locator('main table').last().innerText();
  for (const label of ['Access token created', 'Access token revoked', 'Session revoked', 'Signed in']) assert.ok(log.includes(label), `the log shows ${label}`);
  await checkA11y('security-log');
});

test('idle sign-out: chosen by keyboard, then enforced by the browser on its own', async () => {
  const t = await signupTenant(srv, 'idle');
  await signInAs(t.email, t.password, { fakeClock: true });
  await page.goto(`${srv.url}/security`);
  const group = page.getByRole('radiogroup', { name: 'Sign me out after this long without activity' });
  await group.getByRole('radio', { name: '24 hours' }).waitFor();
  assert.equal(await group.getByRole('radio', { name: '24 hours' }).isChecked(), true, 'the default');
  // Keyboard: focus the selected radio, arrow to the shortest choice (each arrow is a choice).
  await group.getByRole('radio', { name: '24 hours' }).focus();
  for (const label of ['4 hours', '1 hour', '15 minutes']) {
    await page.keyboard.press('ArrowLeft');
    await page.getByText(`You will be signed out after ${label} without activity.`).waitFor();
  }
  await page.getByText('You will be signed out after 15 minutes without activity.').waitFor();
  assert.equal((await srv.api('GET', '/api/users/me', { token: t.accessToken })).body.data.idleTimeout, '15min');
  assert.equal(await group.getByRole('radio', { name: '15 minutes' }).isChecked(), true);
  const browserSession = (await srv.api('GET', '/api/users/me/sessions', { token: t.accessToken })).body.data.items.find((s: { current: boolean }) => !s.current);
  assert.ok(browserSession);

  // 14 minutes without touching anything: still signed in.
  await page.clock.fastForward('14:00');
  await page.clock.runFor(10_000);
  assert.equal(new URL(page.url()).pathname, '/security');
  // Past 15 minutes: the app signs out by itself, on the server too, and says why.
  await page.clock.fastForward('01:30');
  // The guard checks every 10 s of (faked) time; its sign-out then goes to the server for real.
  for (let i = 0; i < 20 && new URL(page.url()).pathname !== '/login'; i++) {
    await page.clock.runFor(10_000);
    await new Promise((r) => setTimeout(r, 250));
  }
  await page.waitForURL((u) => u.pathname === '/login');
  await page.getByText('You were signed out after a period of inactivity').waitFor();
  const left = (await srv.api('GET', '/api/users/me/sessions', { token: t.accessToken })).body.data.items;
  assert.equal(left.find((s: { id: string }) => s.id === browserSession.id), undefined, 'the browser session ended on the server');
  await checkA11y('security-idle-signed-out');
});

test('access tokens and the security log page like the API (D9): 50, then "Load more" by keyboard until all are shown', async () => {
  const t = await signupTenant(srv, 'seclog');
  // 55 token creations: 55 more entries than a fresh account's, more than one page of 50.
  for (let i = 0; i < 55; i++) assert.equal((await srv.api('POST', '/api/users/me/tokens', { token: t.accessToken, body: { name: `t${i}` } })).status, 201);
  // 50 more API sign-ins: with signupTenant's session and the one below, 51 sessions besides the browser's.
  for (let i = 0; i < 50; i++) assert.equal((await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).status, 200);
  await signInAs(t.email, t.password);
  const token = (await srv.api('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).body.data.tokens.accessToken;
  const all: Array<{ id: string }> = [];
  for (let cursor: string | null = null; ; ) {
    const r: { items: Array<{ id: string }>; nextCursor: string | null } = (await srv.api('GET', `/api/users/me/audit?limit=50${cursor ? `&cursor=${cursor}` : ''}`, { token })).body.data;
    all.push(...r.items);
    if (!r.nextCursor) break;
    cursor = r.nextCursor;
  }
  assert.ok(all.length > 100 && all.length <= 150, `${all.length} entries`);
  await page.goto(`${srv.url}/security`);
  await page.getByRole('heading', { level: 1, name: 'Security' }).waitFor();
  // 53 sessions: 50, then the other 3 on "Load more".
  await page.getByText('Showing 50 sessions; there are more.').waitFor();
  const sessionRows = page.getByRole('table', { name: 'Active sessions' }).locator('tbody tr');
  assert.equal(await sessionRows.count(), 50);
  await page.getByRole('button', { name: 'Load more sessions' }).focus();
  await page.keyboard.press('Enter');
  // signupTenant's, the 50 above, this browser's and the sign-in for `token`: 53.
  await page.getByText('Showing 53 sessions, all there are.').waitFor();
  assert.equal(await sessionRows.count(), 53);
  // The 55 tokens themselves: 50, then the other 5 on "Load more".
  const revokeButtons = page.getByRole('button', { name: /^Revoke the token t\d+$/ });
  await page.getByText('Showing 50 access tokens; there are more.').waitFor();
  assert.equal(await revokeButtons.count(), 50);
  await page.getByRole('button', { name: 'Load more access tokens' }).focus();
  await page.keyboard.press('Enter');
  await page.getByText('Showing 55 access tokens, all there are.').waitFor();
  assert.equal(await revokeButtons.count(), 55);
  const rows = page.locator('main table').last().locator('tbody tr');
  await page.getByText('Showing 50 log entries; there are more.').waitFor();
  assert.equal(await rows.count(), 50);
  const more = page.getByRole('button', { name: 'Load more log entries' });
  // Over 100 entries: Enter twice on the button, which keeps the focus (50, 100, then the rest).
  await more.focus();
  await page.keyboard.press('Enter');
  await page.getByText('Showing 100 log entries; there are more.').waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Load more log entries', 'the button keeps the focus');
  await page.keyboard.press('Enter');
  await page.getByText(/Showing \d+ log entries, all there are\./).waitFor();
  const shown = await rows.count();
  assert.ok(shown >= all.length - 1 && shown <= all.length + 1, `${shown} rows shown, the API has ${all.length}`);
  assert.equal(await more.count(), 0, 'no button once every page is shown');
  await checkA11y('security-log-all');
});

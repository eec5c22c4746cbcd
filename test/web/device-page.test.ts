// /device in headless Chromium (D14): the device's own link sends a signed-out person through
// sign-in and back to the page, which shows which device asks; Approve lets the device's poll get
// its session; a typed code can be denied. Checked with axe-core and for console/CSP errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let u: Awaited<ReturnType<typeof signupTenant>>;

const startDevice = async (deviceName: string) => (await srv.api('POST', '/api/auth/device', { body: { deviceName } })).body.data;
const poll = (deviceCode: string) => srv.api('POST', '/api/auth/device/token', { body: { deviceCode } });

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(w.problems, [], `${name}: console errors or CSP violations`);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  w.problems.length = 0;
}

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer();
  u = await signupTenant(srv, 'device-page');
  browser = await launch();
  w = await openPage(browser);
  page = w.page;
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

describe('/device', () => {
  test('the device link goes through sign-in and back; Approve signs the device in', async () => {
    const d = await startDevice('Ada’s laptop');
    await page.goto(d.verificationUriComplete);
    await page.waitForURL((x) => x.pathname === '/login');
    await page.getByLabel('E-mail').fill(u.email);
    await page.getByLabel('Password').fill(u.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((x) => x.pathname === '/device' && x.searchParams.get('code') === d.userCode);
    await page.getByRole('heading', { name: 'Sign in “Ada’s laptop”?' }).waitFor();
    assert.match(await page.getByRole('main').innerText(), new RegExp(d.userCode));
    await checkA11y('device-confirm');
    assert.equal((await poll(d.deviceCode)).body.code, 'authorization_pending', 'nothing happens before the person approves');

    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device signed in' }).waitFor();
    await checkA11y('device-approved');
    srv.clock.advance(6_000);
    const t = await poll(d.deviceCode);
    assert.equal(t.status, 200, JSON.stringify(t.body));
    const sessions = (await srv.api('GET', '/api/users/me/sessions', { token: u.accessToken })).body.data.items;
    assert.ok(sessions.some((x: { id: string; name: string | null }) => x.id === t.body.data.sessionId && x.name === 'Ada’s laptop'));
  });

  test('a typed code is checked, a wrong one explained, and Deny refuses the device', async () => {
    const d = await startDevice('Unknown tablet');
    await page.getByRole('button', { name: 'Sign in another device' }).click();
    const field = page.getByLabel('Device code');
    await field.fill('bcdf');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.match(await page.getByText('The code has 8 letters').innerText(), /8 letters/);
    await field.fill('ZZZZ-ZZZZ');
    await page.getByRole('button', { name: 'Continue' }).click();
    assert.match(await page.getByRole('alert').innerText(), /wrong, expired or already used/);
    await field.fill(d.userCode.toLowerCase().replace('-', ''));
    assert.equal(await field.inputValue(), d.userCode, 'the code is formatted as it is typed');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Sign in “Unknown tablet”?' }).waitFor();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'Sign-in denied' }).waitFor();
    await checkA11y('device-denied');
    assert.equal((await poll(d.deviceCode)).body.code, 'access_denied');
  });
});

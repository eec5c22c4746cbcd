// /notifications in headless Chromium (issue 16 items 3 and 9): thresholds, escalation alert,
// digest and channel saved through the form (the API's schema refuses bad values on screen), the
// alert webhook's secret shown once, "send a test alert" arriving signed at a receiver, the
// delivery's failed attempt and its replay; a team webhook's failed llm.call delivery replayed
// from the list. Checked against the API and the receiver; axe-core throughout.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../harness.ts';
import { eventually } from '../helpers.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { startReceiver, verifyServiceSignature, type Receiver } from '../webhook-receiver.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let rx: Receiver;
let browser: Browser;
let w: WatchedPage;
let page: Page;

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer({ env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true', RATE_LIMIT_LOGIN_PER_MIN: '1000' } });
  rx = await startReceiver();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await rx?.close();
  await srv?.close();
});

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  w.problems.splice(0, w.problems.length, ...w.problems.filter((p) => !/Content Security Policy/.test(p)));
  assert.deepEqual(w.problems, [], `${name}: console errors`);
}

test('/notifications: settings, test alert by signed webhook, delivery attempts and replay', async () => {
  const t = await tenantWithKey(srv, { micros: 50_000_000n });
  const settings = async () => (await srv.api('GET', '/api/users/me/notifications', { token: t.accessToken })).body.data;
  w = await openPage(browser);
  page = w.page;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('E-mail').fill(t.email);
  await page.getByLabel('Password').fill(t.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => u.pathname === '/overview');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications' }).click();
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  await checkA11y('notifications');

  // The API's own schema on screen.
  await page.getByLabel('Runway alert below (days)').fill('2.5');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Must be a whole number of days.').waitFor();
  assert.equal((await settings()).runwayThresholdDays, null);

  // Thresholds, escalation, digest by keyboard-operable controls, channel webhook with its URL.
  await page.getByLabel('Balance alert below (tokens)').fill('2,000,000');
  await page.getByLabel('Runway alert below (days)').fill('5');
  await page.getByRole('checkbox', { name: /Alert me when a call is escalated/ }).focus();
  await page.keyboard.press('Space');
  await page.locator('label.radio', { hasText: 'Daily' }).click();
  // By keyboard: the selected channel, then the arrow to the next.
  await page.getByRole('radio', { name: 'E-mail' }).focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getByRole('radio', { name: 'Webhook' }).isChecked(), true);
  await page.getByLabel('Alert webhook URL').fill(`${rx.url}/alerts`);
  rx.respondOn('/alerts', 500);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Notification settings saved.').waitFor();
  const s = await settings();
  assert.deepEqual(
    { b: s.balanceThresholdMicros, r: s.runwayThresholdDays, e: s.escalationAlert, d: s.digestCadence, c: s.channel, u: s.webhookUrl },
    { b: '2000000', r: 5, e: true, d: 'daily', c: 'webhook', u: `${rx.url}/alerts` },
  );
  const secret = (await page.getByTestId('alert-secret').locator('code').innerText()).trim();
  assert.match(secret, /^whsec_/);
  await page.getByRole('button', { name: 'Copy secret' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  await checkA11y('notifications-saved');

  // The test alert: a signed delivery; the receiver says 500 first.
  await page.getByRole('button', { name: 'Send a test alert' }).click();
  await page.getByText(`Test alert sent to ${rx.url}/alerts`).waitFor();
  const got = await eventually(async () => rx.received.find((r) => r.path === '/alerts'), 10_000, 'the test alert at the receiver');
  assert.equal(got.headers['x-service-event'], 'alert.test');
  assert.ok(verifyServiceSignature(secret, got), 'signed with the secret shown once');
  const id = String(got.headers['x-service-delivery']);
  const row = page.getByTestId(`delivery-${id}`);
  await row.getByText('answered 500').waitFor();
  // Shown once: a reload no longer shows the secret.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Notifications' }).waitFor();
  assert.equal(await page.getByTestId('alert-secret').count(), 0);
  assert.ok(!(await page.locator('main').innerText()).includes(secret));

  // Replay after the receiver recovers: a new attempt, delivered.
  rx.respondOn('/alerts', 200);
  await row.getByRole('button', { name: /Replay/ }).click();
  await page.getByText('Replay sent: a new attempt is on its way.').waitFor();
  await row.getByText('(replay) delivered, 200').waitFor({ timeout: 20_000 });
  const mine = (await srv.api('GET', '/api/users/me/notifications/deliveries', { token: t.accessToken })).body.data.items.find((d: { id: string }) => d.id === id);
  assert.equal(mine.status, 'succeeded');
  assert.deepEqual(
    mine.attemptLog.map((a: { trigger: string; statusCode: number }) => [a.trigger, a.statusCode]),
    [
      ['scheduled', 500],
      ['replay', 200],
    ],
  );
  await checkA11y('notifications-alert-replayed');

  // A team webhook on llm.call: a real call through the proxy, its delivery fails, replayed from the list.
  rx.respondOn('/team', 503);
  const hook = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}/team`, events: ['llm.call'], description: 'Team feed' } });
  assert.equal(hook.status, 201);
  await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hi.' }] });
  const teamGot = await eventually(async () => rx.received.find((r) => r.path === '/team'), 10_000, 'the llm.call delivery');
  const teamId = String(teamGot.headers['x-service-delivery']);
  await page.reload();
  const section = page.getByRole('region', { name: `Webhook ${rx.url}/team` });
  const teamRow = section.getByTestId(`delivery-${teamId}`);
  await teamRow.getByText('answered 503').waitFor({ timeout: 20_000 });
  rx.respondOn('/team', 200);
  await teamRow.getByRole('button', { name: /Replay/ }).click();
  await teamRow.getByText('(replay) delivered, 200').waitFor({ timeout: 20_000 });
  const detail = (await srv.api('GET', `/api/webhooks/deliveries/${teamId}`, { token: t.accessToken })).body.data;
  assert.equal(detail.status, 'succeeded');
  assert.equal(detail.attemptLog.at(-1).trigger, 'replay');
  await checkA11y('notifications-team-webhook');
});

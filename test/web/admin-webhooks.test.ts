// The admin console's webhook dashboard (issue 18 item 8, spec §6 "failures can be inspected in
// the admin console webhook dashboard"): deliveries of two tenants, one whose target refuses every
// attempt until the delivery is dropped and one whose target accepts. The API is checked for its
// filters and its guards (platform admins only); the screen is driven in headless Chromium by a
// platform admin, by keyboard, and checked against the API; a tenant owner sees no Admin group.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
import { startReceiver, type Receiver } from '../webhook-receiver.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { grantPlatformAdmin } from '../../src/app/identity/platform-admin.ts';
import { signIn as apiSignIn } from '../helpers.ts';
import { emitEvent } from '../../src/app/events/events.ts';
import { attemptDelivery, RETRY_DELAYS_MS } from '../../src/app/events/webhook-delivery.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let rx: Receiver;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let admin: Awaited<ReturnType<typeof signupTenant>>;
let failing: Awaited<ReturnType<typeof signupTenant>>;
let healthy: Awaited<ReturnType<typeof signupTenant>>;
let failedId: string;
let failedAttempts: number;

async function hook(t: Awaited<ReturnType<typeof signupTenant>>, path: string) {
  const r = await srv.api('POST', '/api/webhooks', { token: t.accessToken, body: { url: `${rx.url}${path}`, events: ['connector.connected'] } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
}

async function deliveryIdOf(tenantId: string) {
  const row = await srv.services.db.selectFrom('webhook_deliveries').select('id').where('tenant_id', '=', tenantId).where('webhook_id', 'is not', null).executeTakeFirstOrThrow();
  return row.id;
}

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(w.problems, [], `${name}: console errors or CSP violations`);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  w.problems.length = 0;
}

async function signIn(email: string, password: string) {
  await page.goto(`${srv.url}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((x) => x.pathname === '/overview');
}

before(async () => {
  await buildWeb({ quiet: true });
  // No worker: this test makes each delivery attempt itself (a worker's delivery job racing it
  // made a seventh attempt in CI).
  srv = await startTestServer({ worker: false, env: { ALLOW_PRIVATE_WEBHOOK_TARGETS: 'true' } });
  rx = await startReceiver();
  rx.respondOn('/fail', 500);
  rx.respondOn('/ok', 200);
  admin = await signupTenant(srv, 'ops');
  await grantPlatformAdmin(srv.services.db, admin.email);
  failing = await signupTenant(srv, 'failing');
  healthy = await signupTenant(srv, 'healthy');
  await hook(failing, '/fail');
  await hook(healthy, '/ok');
  for (const t of [failing, healthy]) {
    await emitEvent(srv.services, { type: 'connector.connected', tenantId: t.tenantId, projectId: t.defaultProjectId, payload: { tool: 'cursor', tier: 1, reason: 'test' } });
  }
  // The healthy tenant's delivery succeeds at once; the failing one is retried on its schedule
  // (the test's clock) until it is dropped.
  assert.equal(await attemptDelivery(srv.services, await deliveryIdOf(healthy.tenantId)), 'succeeded');
  failedId = await deliveryIdOf(failing.tenantId);
  let status = await attemptDelivery(srv.services, failedId);
  for (let i = 0; status !== 'failed' && i <= RETRY_DELAYS_MS.length; i++) {
    srv.clock.advance(RETRY_DELAYS_MS[Math.min(i, RETRY_DELAYS_MS.length - 1)] + 1_000);
    status = await attemptDelivery(srv.services, failedId);
  }
  assert.equal(status, 'failed', 'the refused delivery is dropped after its retries');
  failedAttempts = (await srv.services.db.selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', '=', failedId).execute()).length;
  assert.equal(failedAttempts, RETRY_DELAYS_MS.length + 1);
  // The retries moved the clock past the access tokens' lifetime: sign in again.
  admin.accessToken = await apiSignIn(srv, admin);
  failing.accessToken = await apiSignIn(srv, failing);
  browser = await launch();
  w = await openPage(browser);
  page = w.page;
});
after(async () => {
  await browser?.close();
  await srv?.close();
  await rx?.close();
});

describe('/api/admin/webhooks', () => {
  test('deliveries across tenants, filtered by status and tenant, with their attempts', async () => {
    const all = await srv.api('GET', '/api/admin/webhooks/deliveries', { token: admin.accessToken });
    assert.equal(all.status, 200, JSON.stringify(all.body));
    const tenants = new Set(all.body.data.items.map((d: { tenantId: string }) => d.tenantId));
    assert.ok(tenants.has(failing.tenantId) && tenants.has(healthy.tenantId), 'both tenants’ deliveries are listed');

    const failed = await srv.api('GET', '/api/admin/webhooks/deliveries?status=failed', { token: admin.accessToken });
    assert.deepEqual(
      failed.body.data.items.map((d: { id: string }) => d.id),
      [failedId],
    );
    const one = failed.body.data.items[0];
    assert.equal(one.tenantName, 'Tenant failing');
    assert.equal(one.lastStatusCode, 500);
    assert.equal(one.webhookUrl, `${rx.url}/fail`);

    const byTenant = await srv.api('GET', `/api/admin/webhooks/deliveries?tenantId=${healthy.tenantId}`, { token: admin.accessToken });
    assert.deepEqual(
      byTenant.body.data.items.map((d: { tenantId: string; status: string }) => [d.tenantId, d.status]),
      [[healthy.tenantId, 'succeeded']],
    );

    const page1 = await srv.api('GET', '/api/admin/webhooks/deliveries?limit=1', { token: admin.accessToken });
    assert.equal(page1.body.data.items.length, 1);
    assert.ok(page1.body.data.nextCursor, 'D9: a next cursor when more rows exist');
    const page2 = await srv.api('GET', `/api/admin/webhooks/deliveries?limit=1&cursor=${page1.body.data.nextCursor}`, { token: admin.accessToken });
    assert.notEqual(page2.body.data.items[0].id, page1.body.data.items[0].id);

    const detail = await srv.api('GET', `/api/admin/webhooks/deliveries/${failedId}`, { token: admin.accessToken });
    assert.equal(detail.status, 200);
    assert.equal(detail.body.data.attemptLog.length, failedAttempts);
    assert.ok(detail.body.data.attemptLog.every((a: { statusCode: number; succeeded: boolean }) => a.statusCode === 500 && !a.succeeded));
    assert.equal(JSON.parse(detail.body.data.body).type, 'connector.connected');

    const summary = await srv.api('GET', '/api/admin/webhooks/summary', { token: admin.accessToken });
    assert.equal(summary.body.data.byStatus.failed, 1);
    assert.ok(summary.body.data.byStatus.succeeded >= 1);
    assert.deepEqual(
      summary.body.data.failingTenants.map((t: { tenantId: string; failed: number }) => [t.tenantId, t.failed]),
      [[failing.tenantId, 1]],
    );
  });

  test('platform admins only: no token is 401, a tenant owner is 403, an unknown id is 404, a bad filter is 400', async () => {
    assert.equal((await srv.api('GET', '/api/admin/webhooks/deliveries')).status, 401);
    for (const path of ['/api/admin/webhooks/deliveries', `/api/admin/webhooks/deliveries/${failedId}`, '/api/admin/webhooks/summary']) {
      const r = await srv.api('GET', path, { token: failing.accessToken });
      assert.equal(r.status, 403, path);
      assert.equal(r.body.success, false);
    }
    const missing = await srv.api('GET', '/api/admin/webhooks/deliveries/00000000-0000-4000-8000-000000000000', { token: admin.accessToken });
    assert.equal(missing.status, 404);
    const bad = await srv.api('GET', '/api/admin/webhooks/deliveries?status=lost', { token: admin.accessToken });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
  });
});

describe('/admin/webhooks in the browser', () => {
  test('a tenant owner sees no Admin group in the navigation', async () => {
    await signIn(failing.email, failing.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Webhook deliveries' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Admin console' }).count(), 0);
    // Typing the console's address shows why there is nothing for them, not a broken page.
    await page.goto(`${srv.url}/admin/`);
    await page.getByRole('heading', { name: 'Admin console', level: 1 }).waitFor();
    await page.getByRole('alert').filter({ hasText: /platform administrators/i }).first().waitFor();
    await page.context().clearCookies();
  });

  test('the admin console home (/admin/) links to the learning plane and the webhook deliveries, with their figures', async () => {
    await signIn(admin.email, admin.password);
    const home = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin console' });
    await home.waitFor();
    await home.click();
    await page.waitForURL((x) => x.pathname === '/admin');
    await page.getByRole('heading', { name: 'Admin console', level: 1 }).waitFor();
    await page.getByTestId('admin-home-failed').getByText('1', { exact: true }).waitFor();
    await page.getByTestId('admin-home-proposals').waitFor();
    await checkA11y('admin-home');
    // The trailing-slash address the start banner used to name is the same page.
    await page.goto(`${srv.url}/admin/`);
    await page.getByRole('heading', { name: 'Admin console', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Open the learning plane' }).click();
    await page.waitForURL((x) => x.pathname === '/admin/learning');
    await page.goBack();
    await page.getByRole('link', { name: 'Open webhook deliveries' }).click();
    await page.waitForURL((x) => x.pathname === '/admin/webhooks');
    await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
  });

  test('a platform admin reaches the dashboard by keyboard, reads the failures and one delivery’s attempts', async () => {
    await page.goto(`${srv.url}/overview`);
    const link = page.getByRole('link', { name: 'Webhook deliveries' });
    await link.waitFor();
    await link.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((x) => x.pathname === '/admin/webhooks');
    await page.getByRole('heading', { name: 'Webhook deliveries', level: 1 }).waitFor();
    await page.getByTestId('tile-failed').getByText('1', { exact: true }).waitFor();
    const failingTable = page.getByRole('table', { name: 'Tenants with failed deliveries' });
    await failingTable.getByRole('cell', { name: '1', exact: true }).waitFor();
    const deliveries = page.getByRole('table', { name: 'Deliveries', exact: true });
    await deliveries.waitFor();
    await checkA11y('admin-webhooks');

    // The failing tenant's name filters the list to its failed deliveries.
    await failingTable.getByRole('button', { name: 'Tenant failing' }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Deliveries"] tbody tr').length === 1);
    assert.match(await deliveries.locator('tbody tr').first().innerText(), /Tenant failing[\s\S]*connector\.connected[\s\S]*Failed/);

    // One delivery: every attempt, with the target's answer.
    await deliveries.getByRole('button', { name: /^Delivery connector\.connected of Tenant failing/ }).press('Enter');
    const attempts = page.getByRole('table', { name: 'Attempts' });
    await attempts.waitFor();
    assert.equal(await attempts.locator('tbody tr').count(), failedAttempts);
    assert.match(await attempts.locator('tbody tr').first().innerText(), /500/);
    await checkA11y('admin-webhooks-delivery');
  });
  // Last: its rows would change the counts the tests above check.
  test('the deliveries page like the API (D9): 100, then "Load more" by keyboard, the focus kept, until all are shown', async () => {
    // 205 older deliveries of the healthy tenant's webhook (SQL, as the delivery job leaves them), two days ago:
    // outside the 24-hour summary, inside the list, which then holds three pages of 100.
    await sql`insert into webhook_deliveries (id, tenant_id, webhook_id, event_type, body, status, attempts, last_status_code, created_at, completed_at)
      select gen_random_uuid(), ${healthy.tenantId}::uuid, (select id from webhooks where tenant_id = ${healthy.tenantId}::uuid), 'connector.connected', '{}', 'succeeded', 1, 200,
        now() - interval '2 days' - g * interval '1 minute', now() - interval '2 days' - g * interval '1 minute'
      from generate_series(1, 205) g`.execute(srv.services.db);
    let total = 0;
    for (let cursor: string | null = null; ; ) {
      const r = (await srv.api('GET', `/api/admin/webhooks/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token: admin.accessToken })).body.data as { items: unknown[]; nextCursor: string | null };
      total += r.items.length;
      if (!r.nextCursor) break;
      cursor = r.nextCursor;
    }
    assert.ok(total > 205 && total <= 300, `${total} deliveries`);
    await page.goto(`${srv.url}/admin/webhooks`);
    const rows = page.getByRole('table', { name: 'Deliveries', exact: true }).locator('tbody tr');
    await page.getByText('Showing 100 deliveries; there are more.').waitFor();
    assert.equal(await rows.count(), 100);
    await page.getByRole('heading', { name: 'Deliveries (100 shown)' }).waitFor();
    const more = page.getByRole('button', { name: 'Load more deliveries' });
    await more.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Showing 200 deliveries; there are more.').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Load more deliveries', 'the button keeps the focus');
    await checkA11y('admin-webhooks-paged');
    await page.keyboard.press('Enter');
    await page.getByText(`Showing ${total} deliveries, all there are.`).waitFor();
    await page.waitForFunction((t) => document.activeElement?.textContent === t, `Showing ${total} deliveries, all there are.`);
    assert.equal(await rows.count(), total);
    assert.equal(await more.count(), 0, 'no button once every page is shown');
    await checkA11y('admin-webhooks-all');
  });
});

// The admin console's learning plane in headless Chromium (issue 18 item 8): a platform admin
// signs in, filters proposals minted from real calls, opens one and reads its gate history,
// synthetic batches and cases, replay runs and cost; then sets the month's synthgen budget and
// sees the change in the audit trail. A tenant owner is told the console is for platform admins.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { sql } from 'kysely';
import { signupTenant, startTestServer, tenantWithKey, type TestServer } from '../harness.ts';
import { LEARNING_TEST_ENV, makeCalls, mintProposals } from '../learning.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { grantPlatformAdmin } from '../../src/app/identity/platform-admin.ts';
import { axeViolations, launch, openPage, screenshot, type WatchedPage } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let admin: Awaited<ReturnType<typeof signupTenant>>;

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
  srv = await startTestServer({ env: LEARNING_TEST_ENV });
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 12);
  await mintProposals(srv);
  admin = await signupTenant(srv, 'console');
  await grantPlatformAdmin(srv.services.db, admin.email);
  browser = await launch();
  w = await openPage(browser);
  page = w.page;
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

describe('/admin/learning', () => {
  test('proposals with their filters, and one proposal’s gate history, batches, replay and cost', async () => {
    await signIn(admin.email, admin.password);
    await page.goto(`${srv.url}/admin/learning`);
    await page.getByRole('heading', { name: 'Learning plane' }).waitFor();
    const table = page.getByRole('table', { name: 'Proposals' });
    await table.waitFor();
    const total = (await sql<{ n: number }>`select count(*)::int as n from learning_proposals`.execute(srv.services.db)).rows[0].n;
    assert.equal(await table.locator('tbody tr').count(), total);
    await checkA11y('admin-learning-list');

    // Filters: no proposal came from the quality signal; all of them from coverage.
    await page.getByLabel('Source signal').selectOption('quality');
    await page.getByText('No proposal matches these filters.').waitFor();
    await page.getByLabel('Source signal').selectOption('coverage');
    await table.waitFor();
    assert.equal(await table.locator('tbody tr').count(), total);

    const validated = (await sql<{ title: string }>`select title from learning_proposals where last_validated_at is not null order by created_at limit 1`.execute(srv.services.db)).rows[0];
    await page.getByRole('button', { name: validated.title }).click();
    await page.getByRole('heading', { name: validated.title, level: 2 }).waitFor();
    const gates = page.getByRole('table', { name: 'Gate history' });
    await gates.waitFor();
    assert.equal(await gates.locator('tbody tr').count(), 2);
    const main = await page.getByRole('main').innerText();
    assert.match(main, /Gate 1 \(synthetic\)/);
    assert.match(main, /Gate 2 \(replay\)/);
    assert.match(main, /Tier A · tier-a-templates/);
    assert.match(main, /Tier B · tier-b-cheap-model/);
    assert.match(main, /of \d+ passed/);
    assert.match(main, /synthgen:synth:/);
    assert.ok(new URL(page.url()).searchParams.get('proposal'));
    await checkA11y('admin-learning-proposal');
  });

  test('budget: the month’s rows, the edit form, and the audit trail', async () => {
    await page.goto(`${srv.url}/admin/learning/budget`);
    await page.getByRole('heading', { name: 'Learning-plane budget' }).waitFor();
    await page.getByRole('table', { name: 'Budgets' }).waitFor();
    assert.match(await page.getByRole('main').innerText(), /No budget has been changed yet/);
    await page.getByLabel('New synthgen budget (USD)').fill('7.50');
    await page.getByRole('button', { name: 'Save synthgen budget' }).click();
    await page.getByText('Budget saved.').waitFor();
    const trail = page.getByRole('table', { name: 'Budget changes' });
    await trail.waitFor();
    assert.match(await trail.innerText(), /\$7\.50/);
    assert.match(await trail.innerText(), new RegExp(admin.userId));
    const row = (await sql<{ budget_micros: bigint }>`select budget_micros from learning_plane_budgets where category = 'synthgen'`.execute(srv.services.db)).rows[0];
    assert.equal(row.budget_micros, 7_500_000n);
    await page.getByLabel('New synthgen budget (USD)').fill('lots');
    await page.getByRole('button', { name: 'Save synthgen budget' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /US dollars/);
    w.problems.length = 0;
    await checkA11y('admin-learning-budget');
  });

  test('proposals and budgets page like the API (D9): 200, then "Load more" by keyboard; a sub-cent validation cost reads "< $0.01"', async () => {
    const db = srv.services.db;
    // 205 proposals older than the minted ones (SQL, as the plane writes them), each validated for
    // 4,000 micros, and 202 budget rows in months before this one: each list over a page of 200.
    await sql`insert into learning_proposals (id, priority, source_signal, subject_key, override, title, fires, validation_cost_micros, created_at)
      select gen_random_uuid(), 'low', 'cost', 'bulk-' || g, '{}'::jsonb, 'Bulk proposal ' || lpad(g::text, 3, '0'), 1, 4000, timestamptz '2020-01-01' + g * interval '1 minute'
      from generate_series(1, 205) g`.execute(db);
    await sql`insert into learning_plane_budgets (id, category, window_key, budget_micros, spent_micros, created_at, updated_at)
      select gen_random_uuid(), c, to_char(date '2000-01-01' + g * interval '1 month', 'YYYY-MM'), 5000000, 3000, now(), now()
      from generate_series(0, 100) g, (values ('synthgen'), ('replay')) v(c)`.execute(db);
    const total = (await sql<{ n: number }>`select count(*)::int as n from learning_proposals`.execute(db)).rows[0].n;
    const budgets = (await sql<{ n: number }>`select count(*)::int as n from learning_plane_budgets`.execute(db)).rows[0].n;
    assert.ok(total > 205 && total <= 400 && budgets > 200 && budgets <= 400, `${total} proposals, ${budgets} budget rows`);

    await page.goto(`${srv.url}/admin/learning`);
    const rows = page.getByRole('table', { name: 'Proposals' }).locator('tbody tr');
    await page.getByText('Showing 200 proposals; there are more.').waitFor();
    assert.equal(await rows.count(), 200);
    const more = page.getByRole('button', { name: 'Load more proposals' });
    await more.focus();
    await page.keyboard.press('Enter');
    await page.getByText(`Showing ${total} proposals, all there are.`).waitFor();
    assert.equal(await rows.count(), total);
    assert.equal(await more.count(), 0, 'no button once every page is shown');
    // The oldest came on the second page; its 4,000-micro cost is not "free".
    const oldest = rows.filter({ hasText: 'Bulk proposal 001' });
    assert.match(await oldest.innerText(), /< \$0\.01/);
    await checkA11y('admin-learning-all');

    await page.goto(`${srv.url}/admin/learning/budget`);
    const budgetRows = page.getByRole('table', { name: 'Budgets' }).locator('tbody tr');
    await page.getByText('Showing 200 budget rows; there are more.').waitFor();
    assert.equal(await budgetRows.count(), 200);
    // The month's edit form stays (its row is on the first page: newest month first).
    await page.getByLabel('New synthgen budget (USD)').waitFor();
    await page.getByRole('button', { name: 'Load more budget rows' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText(`Showing ${budgets} budget rows, all there are.`).waitFor();
    assert.equal(await budgetRows.count(), budgets);
    // 2000-01 (the oldest) came on the second page; 3,000 micros spent reads "< $0.01", not "$0.00".
    const first = budgetRows.filter({ hasText: '2000-01' });
    assert.equal(await first.count(), 2);
    assert.match(await first.first().innerText(), /\$5\.00\s+< \$0\.01\s+\$4\.99/);
    // The change trail came with the first page and is still shown once.
    assert.match(await page.getByRole('table', { name: 'Budget changes' }).innerText(), /\$7\.50/);
    await checkA11y('admin-learning-budget-all');
  });

  test('a tenant owner who is not a platform admin is told so', async () => {
    const owner = await signupTenant(srv, 'not-admin');
    const ctx = await openPage(browser);
    const p = ctx.page;
    await p.goto(`${srv.url}/login`);
    await p.getByLabel('E-mail').fill(owner.email);
    await p.getByLabel('Password').fill(owner.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL((x) => x.pathname === '/overview');
    await p.goto(`${srv.url}/admin/learning`);
    await p.getByRole('alert').waitFor();
    assert.match(await p.getByRole('alert').innerText(), /Platform administrators only|access/i);
    await p.context().close();
  });
});

// A team with more than one page of projects (D9: 200 a page) whose default project is its newest
// (as after an import of older projects): the projects API lists the default first, its cursor
// pages stay exact while projects are added, and the project pickers of /copy-paste, /integrations
// and /settings/ledger reach every project with "Load more" (they read only the first 200 before
// session 9). The ledger names a project of the second page instead of calling it deleted.
// Headless Chromium through playwright-core; axe-core; screenshots in test-results/web/.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { sql } from 'kysely';
import { signupTenant, startTestServer, type TestServer } from '../harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { appendLedgerEntry } from '../../src/app/money/ledger.ts';
import { axeViolations, launch, openPage, screenshot, signInPage, type WatchedPage } from './browser.ts';

let srv: TestServer;
let browser: Browser;
let team: Awaited<ReturnType<typeof signupTenant>>;
type P = { id: string; name: string; isDefault: boolean };
const list = async (query: string) => (await srv.api('GET', `/api/projects?${query}`, { token: team.accessToken })).body.data as { items: P[]; nextCursor: string | null };

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer();
  team = await signupTenant(srv, 'pickers');
  // 201 projects older than the default one (SQL, as the API writes them, dated a day earlier).
  await sql`insert into projects (tenant_id, name, created_at)
    select ${team.tenantId}::uuid, 'Older project ' || lpad(g::text, 3, '0'), now() - interval '1 day' + g * interval '1 second'
    from generate_series(1, 201) g`.execute(srv.services.db);
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

test('the projects API lists the default project first; its pages are exact and stable while projects are added', async () => {
  const first = await list('limit=200');
  assert.equal(first.items[0].id, team.defaultProjectId, 'the default project opens the first page');
  assert.equal(first.items[0].isDefault, true);
  assert.equal(first.items[1].name, 'Older project 001', 'then the others, oldest first');
  // Pages of 50; a project created half-way appears once, at the end; nothing is skipped or repeated.
  const seen: P[] = [];
  let cursor: string | null = null;
  let added: string | undefined;
  do {
    const page = await list(`limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    seen.push(...page.items);
    cursor = page.nextCursor;
    if (!added) {
      const r = await srv.api('POST', '/api/projects', { token: team.accessToken, body: { name: 'Added while paging' } });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      added = r.body.data.id as string;
    }
  } while (cursor);
  assert.equal(new Set(seen.map((p) => p.id)).size, seen.length, 'no project twice');
  assert.equal(seen.length, 203);
  assert.equal(seen[0].id, team.defaultProjectId);
  assert.equal(seen[seen.length - 1].id, added);
  assert.deepEqual(
    seen.slice(1, -1).map((p) => p.name),
    Array.from({ length: 201 }, (_, i) => `Older project ${String(i + 1).padStart(3, '0')}`),
  );
});

test('/copy-paste, /integrations and /settings/ledger: 200 projects, then every one with "Load more"', async () => {
  const first = await list('limit=200');
  const rest = await list(`limit=200&cursor=${encodeURIComponent(first.nextCursor!)}`);
  const total = first.items.length + rest.items.length;
  const later = rest.items[0];
  // A whole-account entry, then one of a project on the second page: the ledger must name that
  // project, not call it deleted, and its filter must reach it.
  for (const projectId of [null, later.id]) {
    await srv.services.db.transaction().execute((tx) =>
      appendLedgerEntry(tx, srv.services.secrets.ledger, { tenantId: team.tenantId, projectId, eventType: 'ADJUSTMENT', amountMicros: 1_000_000n, memo: 'test credit', at: srv.clock.now() }),
    );
  }

  const w: WatchedPage = await openPage(browser);
  const page = w.page;
  const check = async (name: string) => {
    await screenshot(page, name);
    assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
    assert.deepEqual(w.problems, [], `${name}: console errors or CSP violations`);
  };
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
  /** By keyboard: Tab from the select to "Load more projects", Enter; every project is then an option. */
  const loadAll = async (select: ReturnType<typeof page.getByLabel>, name: string) => {
    const options = select.locator('option');
    await page.getByText('Showing 200 projects; there are more.').waitFor();
    assert.equal(await select.locator(`option[value="${later.id}"]`).count(), 0, `${name}: page 2 not read yet`);
    await check(`${name}-projects-paged`);
    await select.focus();
    let hops = 0;
    while ((await focused()) !== 'Load more projects' && hops++ < 10) await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Load more projects', `${name}: Tab reaches the button`);
    await page.keyboard.press('Enter');
    await page.getByText(`Showing ${total} projects, all there are.`).waitFor();
    return options;
  };
  try {
    await signInPage(page, srv.url, team);

    // /copy-paste: the default project is chosen; a project of page 2 can be chosen after "Load more".
    await page.goto(srv.url + '/copy-paste');
    const cp = page.getByLabel('Project', { exact: true });
    await cp.waitFor();
    assert.equal(await cp.inputValue(), team.defaultProjectId, 'the default project is chosen');
    assert.equal(await cp.locator('option').count(), 200);
    const cpOptions = await loadAll(cp, 'copy-paste');
    assert.equal(await cpOptions.count(), total);
    await cp.selectOption(later.id);
    assert.equal(await cp.inputValue(), later.id);

    // /integrations: the same; the chosen project of page 2 stays chosen across a reload.
    await page.goto(srv.url + '/integrations');
    // The select's label wraps it (its accessible name is "Project"; the label's text also holds the options).
    const ip = page.getByRole('combobox', { name: 'Project', exact: true });
    await ip.waitFor();
    assert.equal(await ip.inputValue(), team.defaultProjectId);
    const ipOptions = await loadAll(ip, 'integrations');
    assert.equal(await ipOptions.count(), total);
    await ip.selectOption(later.id);
    await page.waitForURL((u) => u.searchParams.get('project') === later.id);
    await page.reload();
    await page.getByText('Showing 200 projects; there are more.').waitFor();
    assert.equal(await ip.inputValue(), later.id, 'read on its own after the reload');
    assert.equal(await ipOptions.count(), 201, 'the first page and the chosen project');

    // /settings/ledger: the entry names its project; the filter reaches it and filters by it.
    await page.goto(srv.url + '/settings/ledger');
    const table = page.locator('table');
    await table.getByText(later.name, { exact: true }).waitFor();
    assert.equal(await table.getByText('Deleted project').count(), 0);
    assert.equal(await table.locator('tbody tr').count(), 2);
    const lp = page.getByRole('form', { name: 'Filter the ledger' }).getByRole('combobox', { name: 'Project', exact: true });
    const lpOptions = await loadAll(lp, 'ledger');
    assert.equal(await lpOptions.count(), total + 1, 'every project and "All"');
    await lp.selectOption(later.id);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForFunction((name) => {
      const rows = [...document.querySelectorAll('table tbody tr')];
      return rows.length === 1 && rows[0].textContent!.includes(name);
    }, later.name);
    await check('ledger-filtered-page-2-project');
  } finally {
    await page.context().close();
  }
});

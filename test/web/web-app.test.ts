// The web app in headless Chromium, used as a person would (issue 15 item 9): sign in through
// the form, then every money screen, checking what is on screen against the API, the locked
// vocabulary (no model id in primary copy, the benchmark prompt), the live feed, a sandbox
// top-up paid on the checkout page, the ledger's verify button, keyboard use and axe-core.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import OpenAI from 'openai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { PRICE_BOOK } from '../../src/core/pricing/price-book.ts';
import { INSIGHTS_ENGINE_VERSION } from '../../src/core/vocabulary.ts';
import { approxCostUsd, formatBps, formatDelta, formatTokens, formatUsd } from '../../web/src/components/fns/money.ts';
import { axeViolations, launch, openPage, screenshot, textOf, type WatchedPage } from './browser.ts';

const MODEL_IDS = Object.values(PRICE_BOOK.providers).flatMap((p) => p.models.map((m) => m.id));
/** Primary copy names no model (vocabulary rule 1). */
function assertNoModelIds(text: string, where: string) {
  for (const id of MODEL_IDS) assert.ok(!text.includes(id), `${where} shows the model id ${id}`);
}

let srv: TestServer;
let browser: Browser;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
let w: WatchedPage;
let page: Page;
const api = async <T = any>(path: string): Promise<T> => {
  const r = await srv.api('GET', path, { token: t.accessToken });
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body.data as T;
};
const call = (content: string) =>
  new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] });

async function checkA11y(name: string) {
  await screenshot(page, name);
  assert.deepEqual(w.problems, [], `${name}: console errors or CSP violations`);
  assert.deepEqual(await axeViolations(page), [], `${name}: axe-core serious/critical violations`);
  // axe-core adds a <style> of its own, which the page's CSP refuses, as it should.
  w.problems.length = 0;
}

/** Navigates inside the app (a click on the shell's navigation: no reload). */
async function nav(name: string, path: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
  await page.waitForURL((u) => u.pathname === path);
  await page.getByRole('heading', { level: 1, name }).waitFor();
}

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer();
  t = await tenantWithKey(srv, { micros: 50_000_000n });
  for (const p of ['Write a haiku about the sea.', 'Summarise: the quarterly report shows growth.', 'Translate "good morning" to French.']) await call(p);
  browser = await launch();
  w = await openPage(browser);
  page = w.page;
});
after(async () => {
  await browser?.close();
  await srv?.close();
});

describe('signed out', () => {
  test('/ goes to the sign-in page, whose first load ships under 250 KB of compressed JavaScript, one chunk per screen', async () => {
    const scripts: Array<{ url: string; bytes: number }> = [];
    page.on('requestfinished', async (req) => {
      if (req.resourceType() !== 'script') return;
      const sizes = await req.sizes();
      scripts.push({ url: req.url(), bytes: sizes.responseBodySize });
    });
    await page.goto(srv.url + '/');
    await page.waitForURL((u) => u.pathname === '/login');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    page.removeAllListeners('requestfinished');
    const total = scripts.reduce((a, s) => a + s.bytes, 0);
    assert.ok(total > 10_000 && total < 250_000, `sign-in page JavaScript: ${total} bytes compressed (${scripts.map((s) => s.url.split('/').pop()).join(', ')})`);
    assert.ok(scripts.some((s) => /LoginPage-/.test(s.url)), 'the sign-in screen is its own chunk');
    assert.ok(!scripts.some((s) => /(OverviewPage|BillingPage|AnalyticsPage|LedgerPage|SummaryPage|SavingsChart)-/.test(s.url)), 'no other screen or the chart library is loaded');
    await checkA11y('login');
  });

  test('a wrong password reads as what to do next; the right one signs in to /overview', async () => {
    await page.getByLabel('E-mail').fill(t.email);
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /not right.*locked for 15 minutes.*reset your password/s);
    await screenshot(page, 'login-wrong-password');
    await page.getByLabel('Password').fill(t.password);
    await page.getByLabel('Password').press('Enter');
    await page.waitForURL((u) => u.pathname === '/overview');
  });
});

describe('signed in', () => {
  test('/overview: the five tiles equal the API; no benchmark means the prompt, never 0 %; no model ids', async () => {
    await page.getByTestId('tile-balance').waitFor();
    const o = await api('/api/tenant/insights/overview');
    assert.equal(o.benchmark, null);
    const tile = (id: string) => page.getByTestId(id).innerText();
    assert.match(await tile('tile-balance'), new RegExp(`${formatTokens(o.tiles.walletBalance.tokens)} tokens`));
    assert.match(await tile('tile-balance'), new RegExp(`\\${formatUsd(o.tiles.walletBalance.tokens)}`));
    assert.equal((await tile('tile-balance')).replace(/[^\d]/g, '').startsWith(o.tiles.walletBalance.tokens), true);
    assert.match(await tile('tile-burn'), new RegExp(`${formatTokens(o.tiles.serviceBurn30d)} tokens`));
    assert.ok(BigInt(o.tiles.serviceBurn30d) > 0n, 'the calls burned tokens');
    assert.match(await tile('tile-saved'), /Choose a benchmark provider/);
    assert.match(await tile('tile-percent'), /Choose a benchmark provider/);
    const text = await textOf(page);
    assert.match(text, /Choose a benchmark provider to see your savings/);
    assert.doesNotMatch(text, /\b0(\.00)? ?%/, 'no fabricated 0 %');
    assert.match(text, new RegExp(`Insights engine ${INSIGHTS_ENGINE_VERSION}`));
    assertNoModelIds(text, '/overview');
    await checkA11y('overview-no-benchmark');
  });

  test('/overview: the feed shows the last events and a new call appears without a reload', async () => {
    await page.getByText('Live: new activity appears here').waitFor();
    const feed = page.getByTestId('feed').locator('li');
    const before = await feed.count();
    assert.equal(before, (await api('/api/tenant/insights/overview')).activity.length);
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    await call('Give me one sentence about lighthouses.');
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="feed"] li').length === n, before + 1);
    assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload), true, 'the page was not reloaded');
    const o = await api('/api/tenant/insights/overview');
    assert.match(await page.getByTestId('tile-burn').innerText(), new RegExp(`${formatTokens(o.tiles.serviceBurn30d)} tokens`));
    assertNoModelIds(await textOf(page), '/overview feed');
  });
});

describe('billing', () => {
  test('/billing: a top-up paid on the sandbox checkout page lands in the balance, the ledger and the invoices', async () => {
    await nav('Billing', '/billing');
    const w0 = await api('/api/tenant/wallet');
    assert.match(await page.getByTestId('billing-balance').innerText(), new RegExp(`${formatTokens(w0.balance)} tokens`));
    await checkA11y('billing');
    // The schema's own words when the amount is out of bounds, before any request.
    await page.getByLabel('Amount in US dollars').fill('0.50');
    await page.getByRole('button', { name: 'Go to checkout' }).click();
    assert.match(await page.getByText(/must be at least/i).innerText(), /at least/);
    await page.getByLabel('Amount in US dollars').fill('25');
    await page.getByRole('button', { name: 'Go to checkout' }).click();
    await page.waitForURL(/\/api\/billing\/sandbox\/checkout\/cs_sandbox_/);
    await page.getByRole('heading', { name: /Add \$25\.00 to your Switchboard wallet/ }).waitFor();
    await screenshot(page, 'checkout');
    await page.getByRole('button', { name: /Pay \$25\.00/ }).click();
    await page.getByText('Paid.').waitFor();
    await page.getByRole('link', { name: 'Back to billing in Switchboard' }).click();
    // A full page load: the session comes back from the refresh cookie, no second sign-in.
    await page.waitForURL((u) => u.pathname === '/billing');
    await page.getByTestId('billing-balance').waitFor();
    const w1 = await api('/api/tenant/wallet');
    assert.equal(BigInt(w1.balance) - BigInt(w0.balance), 25_000_000n);
    assert.match(await page.getByTestId('billing-balance').innerText(), new RegExp(`${formatTokens(w1.balance)} tokens`));
    assert.match(await page.getByTestId('payment-method').innerText(), /Sandbox card •••• 4242/);
    const inv = (await api('/api/tenant/invoices')).items[0];
    const row = page.getByTestId('invoices').locator('tbody tr').first();
    assert.match(await row.innerText(), new RegExp(`${inv.number}.*\\$25\\.00`, 's'));
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: `Download PDF ${inv.number}` }).click()]);
    assert.equal(download.suggestedFilename(), `${inv.number}.pdf`);
  });

  test('/billing: choosing the benchmark provider says it applies to new calls; the auto-top-up rule is saved as the API has it', async () => {
    await page.locator('label.radio', { hasText: 'Anthropic' }).click();
    await page.getByText(/Benchmark provider set to Anthropic\. It applies to new calls from now on\./).waitFor();
    assert.deepEqual(await api('/api/tenant/baseline'), { providerKey: 'anthropic', brand: 'Anthropic' });
    await page.getByLabel('When the balance is below (US dollars)').fill('5');
    await page.getByLabel('Charge (US dollars)').fill('10.50');
    await page.getByRole('button', { name: 'Save rule' }).click();
    await page.getByText('Automatic top-up saved.').waitFor();
    assert.deepEqual((await api('/api/tenant/wallet')).autoTopup, { thresholdMicros: '5000000', amountMicros: '10500000' });
    assert.match(await page.getByTestId('auto-topup-rule').innerText(), /below 5,000,000 tokens \(\$5\.00\).*\$10\.50/);
    assertNoModelIds(await textOf(page), '/billing');
    await checkA11y('billing-after');
  });

  test('/overview with a benchmark: savings against "Anthropic-equivalent burn" equal the API', async () => {
    for (const p of ['Draft a polite reminder e-mail about an unpaid invoice.', 'List three uses of a paperclip.']) await call(p);
    await nav('Overview', '/overview');
    const o = await api('/api/tenant/insights/overview');
    assert.equal(o.equivalentLabel, 'Anthropic-equivalent burn');
    assert.ok(o.tiles.percentSaved30dBps !== null);
    await page.getByText(`Service burn vs Anthropic-equivalent burn`).waitFor();
    await page.waitForFunction((t) => document.querySelector('[data-testid="tile-saved"]')?.textContent?.includes(t), formatTokens(o.tiles.tokensSaved30d));
    assert.match(await page.getByTestId('tile-percent').innerText(), new RegExp(formatBps(o.tiles.percentSaved30dBps).replace('.', '\\.')));
    // The chart's window toggle, by keyboard.
    await page.getByRole('radio', { name: '30 days' }).or(page.getByRole('button', { name: '30 days' })).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await page.waitForResponse((r) => r.url().includes('/api/tenant/insights/savings?window=90'));
    assertNoModelIds(await textOf(page), '/overview with a benchmark');
    await checkA11y('overview');
  });
});

describe('ledger', () => {
  test('/settings/ledger: rows, running balance and seals equal the API; filters; verify names the first broken row', async () => {
    await nav('Ledger', '/settings/ledger');
    const page1 = await api('/api/tenant/ledger?limit=25');
    const rows = page.getByTestId('ledger').locator('tbody tr');
    await rows.first().waitFor();
    assert.equal(await rows.count(), page1.items.length);
    for (const [i, e] of page1.items.slice(0, 5).entries()) {
      const cells = await rows.nth(i).locator('td').allInnerTexts();
      assert.equal(cells[1], e.customerLabel);
      assert.equal(cells[3].replace(/[^\d−+-]/g, '').replace('−', '-').replace('+', ''), e.amountMicros);
      assert.equal(cells[4].replace(/[^\d]/g, ''), e.runningBalanceMicros);
      assert.equal(cells[5], e.sealHash.slice(0, 8));
    }
    await checkA11y('ledger');
    await page.getByLabel('Event type').selectOption('Top-up');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const topups = await api('/api/tenant/ledger?limit=25&type=Top-up');
    assert.ok(topups.items.length > 0, 'the demo tenant has a top-up to filter for');
    // Wait for the filtered table itself: while it reloads it is briefly empty, and "every" holds on no rows.
    await page.waitForFunction((n) => {
      const cells = [...document.querySelectorAll('[data-testid="ledger"] tbody tr td:nth-child(2)')];
      return cells.length === n && cells.every((td) => td.textContent === 'Top-up');
    }, topups.items.length);
    assert.equal(await rows.count(), topups.items.length);

    await page.getByRole('button', { name: 'Verify chain' }).click();
    const ok = await api('/api/tenant/ledger/verify');
    await page.getByText(`The ledger is intact: all ${ok.checked.toLocaleString('en-US')} entries carry a valid seal.`).waitFor();
    // Tamper with one sealed row in the database: the button names it.
    const victim = page1.items[page1.items.length - 2];
    await sql`update ledger_entries set amount_micros = amount_micros + 1 where id = ${victim.id}`.execute(srv.services.db);
    await page.getByRole('button', { name: 'Verify chain' }).click();
    const broken = await page.getByTestId('first-broken').innerText();
    const v = await api('/api/tenant/ledger/verify');
    assert.equal(v.verified, false);
    assert.equal(broken, v.firstBroken);
    assert.equal(broken, victim.id);
    await screenshot(page, 'ledger-broken');
    await sql`update ledger_entries set amount_micros = amount_micros - 1 where id = ${victim.id}`.execute(srv.services.db);
  });
});

describe('analytics and summary', () => {
  test('/analytics: tabs by keyboard, the engine version under every chart, model ids only in Audit and search', async () => {
    await nav('Analytics', '/analytics');
    const usage = await api('/api/tenant/insights/usage');
    const tab = (name: string) => page.getByRole('tab', { name });
    await page.getByTestId('usage-family').waitFor();
    const familyRows = await page.getByTestId('usage-family').locator('tbody tr').allInnerTexts();
    assert.equal(familyRows.length, usage.byTaskFamily.length);
    assert.match(familyRows[0], new RegExp(`${usage.byTaskFamily[0].taskFamily}.*${formatTokens(usage.byTaskFamily[0].serviceBurnMicros)}`, 's'));
    const footers = async () => page.locator('[role="tabpanel"] .card-foot').allInnerTexts();
    assert.ok((await footers()).length >= 3 && (await footers()).every((f) => f === `Insights engine ${usage.insightsEngineVersion}`));
    // The hourly chart is a time axis: one bar for each of the last 48 hours, quiet hours at 0.
    assert.equal(usage.byHour.length, 48);
    assert.ok(usage.byHour.some((r: { calls: number }) => r.calls === 0), 'this tenant has hours without calls');
    // Recharts draws no shape for a zero bar, so the axis shows in the bars' width: a 48th of the
    // plot each (one hour with calls alone would span the whole plot).
    const hourly = page.locator('figure[aria-label="Service burn per hour (UTC)"]');
    await hourly.locator('.recharts-bar-rectangle path').first().waitFor({ state: 'attached' });
    const plot = (await hourly.locator('.recharts-cartesian-grid').boundingBox())!;
    const bars = await hourly.locator('.recharts-bar-rectangle path').evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().width));
    assert.equal(bars.length, usage.byHour.filter((r: { serviceBurnMicros: string }) => BigInt(r.serviceBurnMicros) > 0n).length, 'a shape for each hour that burned');
    for (const width of bars) assert.ok(width > 0 && width <= plot.width / 48, `a bar ${width}px wide in a ${plot.width}px plot is one hour of 48`);
    assertNoModelIds(await textOf(page), 'Usage tab');
    await checkA11y('analytics-usage');

    // From the search field, Tab reaches the selected tab; arrows move between tabs.
    await page.getByLabel('Search activity').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Usage');
    await page.keyboard.press('ArrowRight');
    assert.equal(await tab('Savings').getAttribute('aria-selected'), 'true');
    await page.getByText('Service burn vs Anthropic-equivalent burn').waitFor();
    assert.ok((await footers()).every((f) => f === `Insights engine ${INSIGHTS_ENGINE_VERSION}`));
    assertNoModelIds(await textOf(page), 'Savings tab');
    await page.keyboard.press('ArrowRight');
    assert.equal(await tab('Ledger').getAttribute('aria-selected'), 'true');
    await page.getByTestId('ledger-activity').waitFor();
    assertNoModelIds(await textOf(page), 'Ledger tab');
    await page.keyboard.press('ArrowRight');
    assert.equal(await tab('Audit').getAttribute('aria-selected'), 'true');
    const audit = await api('/api/tenant/insights/audit');
    const path = audit.decisions.deliveryPaths[0];
    await page.getByTestId('delivery-paths').waitFor();
    assert.match(await page.getByTestId('delivery-paths').innerText(), new RegExp(path.model.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await checkA11y('analytics-audit');

    // Free-text search: a project name and a model id (the search may show the delivery path, D8).
    await page.getByLabel('Search activity').fill('paperclip');
    const results = page.getByTestId('search-results');
    await results.waitFor();
    assert.match(await results.innerText(), /List three uses of a paperclip/);
    await page.getByLabel('Search activity').fill(path.model);
    await page.getByText(`Results for “${path.model}”`).waitFor();
    const found = await api(`/api/tenant/insights/activity?search=${encodeURIComponent(path.model)}`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="search-results"] tbody tr').length === n, found.items.length);
  });

  test('/summary: each period equals the API, with deltas, top movers and the digest preview', async () => {
    // The harness's clock stands still: move it on so that the calls above are inside "today".
    srv.clock.advance(60_000);
    await nav('Summary', '/summary');
    const s = await api('/api/tenant/insights/summary?period=today');
    await page.getByTestId('summary-burn').waitFor();
    assert.equal(await page.getByTestId('summary-burn').innerText(), `${formatTokens(s.current.serviceBurnMicros)} tokens`);
    assert.equal(await page.getByTestId('summary-calls').innerText(), s.current.calls.toLocaleString('en-US'));
    assert.ok(BigInt(s.current.serviceBurnMicros) > 0n, 'today has calls');
    // The burn restated in dollars: a positive burn never reads "≈ $0.00" (under a cent it is "< $0.01").
    assert.equal(await page.getByTestId('summary-burn-usd').innerText(), approxCostUsd(s.current.serviceBurnMicros));
    assert.notEqual(await page.getByTestId('summary-burn-usd').innerText(), '≈ $0.00');
    assert.match(await page.getByTestId('summary-totals').innerText(), new RegExp(`\\${formatDelta(s.deltas.serviceBurnMicros)} tokens vs the period before`));
    const movers = await page.getByTestId('movers').locator('li').allInnerTexts();
    assert.equal(movers.length, Math.min(3, s.topMovers.length));
    assert.match(movers[0], new RegExp(s.topMovers[0].name));
    const digest = await api('/api/tenant/insights/summary/digest-preview');
    assert.equal(digest.cadence, 'weekly', 'the default cadence');
    await page.getByTestId('digest-preview').getByText(digest.subject).waitFor();
    const preview = await page.getByTestId('digest-preview').innerText();
    assert.match(preview, /Subject: Switchboard weekly digest for the week of/);
    assert.match(preview, /Service burn: \d[\d,]* tokens/);
    assert.ok(preview.replace(/\s+/g, ' ').includes(digest.text.replace(/\s+/g, ' ')), 'the e-mail text as the renderer made it');
    assertNoModelIds(await textOf(page), '/summary');
    await checkA11y('summary');
    for (const [label, period] of [['Yesterday', 'yesterday'], ['Week to date', 'wtd'], ['Month to date', 'mtd']] as const) {
      await page.getByRole('radio', { name: label }).or(page.getByRole('button', { name: label })).click();
      const p = await api(`/api/tenant/insights/summary?period=${period}`);
      await page.waitForFunction((t) => document.querySelector('[data-testid="summary-burn"]')?.textContent === t, `${formatTokens(p.current.serviceBurnMicros)} tokens`);
    }
    await page.getByRole('radio', { name: 'Custom' }).or(page.getByRole('button', { name: 'Custom' })).click();
    const today = new Date().toISOString().slice(0, 10);
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To (inclusive)').fill(today);
    await page.getByRole('button', { name: 'Show' }).click();
    const c = await api(`/api/tenant/insights/summary?period=custom&from=${today}&to=${today}`);
    await page.waitForFunction((t) => document.querySelector('[data-testid="summary-burn"]')?.textContent === t, `${formatTokens(c.current.serviceBurnMicros)} tokens`);
  });
});

describe('keyboard, sign out, sign-up and not found', () => {
  test('the skip link is the first stop and takes the keyboard to the screen', async () => {
    await page.goto(srv.url + '/overview');
    await page.getByTestId('tile-balance').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.evaluate(() => location.hash), '#main');
  });

  test('sign out ends the session: a reload stays signed out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => u.pathname === '/login');
    await page.goto(srv.url + '/billing');
    await page.waitForURL((u) => u.pathname === '/login' && u.searchParams.get('next') === '/billing');
  });

  test('sign-up validates with the API schema, then lands on an overview that asks for a benchmark', async () => {
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Team or company name').fill('Analytical Engines');
    await page.getByLabel('E-mail').fill(`ada-${Date.now()}@example.test`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    assert.match(await page.getByText('Must be at least 12 characters.').innerText(), /12/);
    await checkA11y('signup');
    await page.getByLabel('Password').fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL((u) => u.pathname === '/overview');
    await page.getByTestId('tile-balance').waitFor();
    assert.match(await page.locator('.topbar').innerText(), /Analytical Engines/);
    assert.match(await page.getByTestId('tile-saved').innerText(), /Choose a benchmark provider/);
  });

  test('an unknown address shows the not-found page', async () => {
    const r = await page.goto(srv.url + '/no/such/page');
    assert.equal(r?.status(), 404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await checkA11y('not-found');
  });
});

// Last in the file: its 50 top-ups change nothing another test of this file checks.
test('/billing: invoices page like the API (D9): 50, then "Load more" by keyboard until all are shown', async () => {
  // 50 more paid top-ups (sandbox checkout, confirmed as the page's Pay button does): over one page.
  for (let i = 0; i < 50; i++) {
    const top = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
    assert.equal(top.status, 201, JSON.stringify(top.body));
    assert.ok((await fetch(`${top.body.data.checkoutUrl}/confirm`, { method: 'POST', redirect: 'manual' })).status < 400);
  }
  const all: unknown[] = [];
  for (let cursor: string | null = null; ; ) {
    const r: { items: unknown[]; nextCursor: string | null } = await api(`/api/tenant/invoices?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
    all.push(...r.items);
    if (!r.nextCursor) break;
    cursor = r.nextCursor;
  }
  assert.ok(all.length > 50 && all.length <= 100, `${all.length} invoices`);
  // The tests before this one signed out and signed up someone else: a fresh browser context,
  // signed in as this tenant again.
  await page.context().close();
  w = await openPage(browser);
  page = w.page;
  await page.goto(`${srv.url}/login?next=%2Fbilling`);
  await page.getByLabel('E-mail').fill(t.email);
  await page.getByLabel('Password').fill(t.password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL((u) => u.pathname === '/billing');
  const rows = page.getByTestId('invoices').locator('tbody tr');
  await page.getByText('Showing 50 invoices; there are more.').waitFor();
  assert.equal(await rows.count(), 50);
  const more = page.getByRole('button', { name: 'Load more invoices' });
  await more.focus();
  await page.keyboard.press('Enter');
  await page.getByText(`Showing ${all.length} invoices, all there are.`).waitFor();
  assert.equal(await rows.count(), all.length);
  assert.equal(await more.count(), 0, 'no button once every page is shown');
  await checkA11y('billing-invoices-all');
});

// After the invoices test (same browser context, signed in as this tenant).
test('/analytics: search results page like the API (D9): 50, then "Load more" by keyboard until all are shown', async () => {
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
  for (let b = 0; b < 6; b++) {
    await Promise.all(Array.from({ length: 10 }, (_, i) => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Axolotl fact ${b * 10 + i}: name one.` }] })));
  }
  const results = async () => {
    const all: unknown[] = [];
    for (let cursor: string | null = null; ; ) {
      const r: { items: unknown[]; nextCursor: string | null } = await api(`/api/tenant/insights/activity?search=axolotl&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      all.push(...r.items);
      if (!r.nextCursor) return all;
      cursor = r.nextCursor;
    }
  };
  // Every call's row is in before the screen is read (the call log is written at settlement).
  let all = await results();
  for (let i = 0; all.length < 60 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    all = await results();
  }
  assert.equal(all.length, 60, 'one result per call: two pages of 50');
  await page.goto(`${srv.url}/analytics`);
  await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
  await page.getByLabel('Search activity').fill('axolotl');
  const rows = page.getByTestId('search-results').locator('tbody tr');
  await page.getByText('Showing 50 results; there are more.').waitFor();
  assert.equal(await rows.count(), 50);
  // By keyboard: from the search field, Tab reaches "Load more" after the result rows (they hold no control).
  await page.getByLabel('Search activity').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Load more results');
  await checkA11y('analytics-search-paged');
  await page.keyboard.press('Enter');
  await page.getByText(`Showing ${all.length} results, all there are.`).waitFor();
  assert.equal(await rows.count(), all.length);
  assert.equal(await page.getByRole('button', { name: 'Load more results' }).count(), 0, 'no button once every page is shown');
  await checkA11y('analytics-search-all');
});

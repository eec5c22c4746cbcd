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
import { formatBps, formatTokens, formatUsd } from '../../web/src/components/fns/money.ts';
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
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="feed"] li').length === n, before + 1, { timeout: 10_000 });
    assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload), true, 'the page was not reloaded');
    const o = await api('/api/tenant/insights/overview');
    assert.match(await page.getByTestId('tile-burn').innerText(), new RegExp(`${formatTokens(o.tiles.serviceBurn30d)} tokens`));
    assertNoModelIds(await textOf(page), '/overview feed');
  });
});

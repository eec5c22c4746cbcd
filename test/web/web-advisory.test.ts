// /advisory in headless Chromium, used as a person would (issue 17 item 6): choose a file, upload
// it, watch it finish, read the report (tiles, the chart of Tokens saved by task family, the
// breakdowns, the lines that could not be used), download the CSV; without a benchmark provider
// the page asks for one instead of showing 0 %. Locked vocabulary: no model id on screen.
// axe-core with no serious or critical violation; screenshots in test-results/web/.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, tenantWithKey, type TestServer } from '../harness.ts';
import { buildWeb } from '../../scripts/build-web.ts';
import { PRICE_BOOK } from '../../src/core/pricing/price-book.ts';
import { formatTokens } from '../../web/src/components/fns/money.ts';
import { axeViolations, launch, openPage, screenshot, signInPage, textOf, type WatchedPage } from './browser.ts';

const MODEL_IDS = Object.values(PRICE_BOOK.providers).flatMap((p) => p.models.map((m) => m.id));

let srv: TestServer;
let browser: Browser;
let w: WatchedPage;
let page: Page;
let dir: string;
let t: Awaited<ReturnType<typeof tenantWithKey>>;

const CSV = [
  'timestamp,provider,model,prompt,completion,input_tokens,output_tokens',
  '2026-10-02T08:00:00Z,openai,gpt-4o,"Write a Go function that parses RFC 3339 timestamps, with table-driven tests.",ok,1000,500',
  '2026-10-02T08:01:00Z,openai,gpt-4o,"Write a SQL query that returns the top 5 customers by revenue per region.",ok,800,400',
  '2026-10-02T08:02:00Z,anthropic,claude-opus-4-1,"Translate to Italian: the shop opens at nine and closes at six.",ok,200,40',
  '2026-10-02T08:03:00Z,google,gemini-2.5-pro,"Summarise: the board approved the plan and asked for a review in March.",ok,300,60',
  '2026-10-02T08:04:00Z,openai,gpt-4o,prompt,completion,lots,5',
].join('\n');

async function uploadAndWait(file: string) {
  await page.getByLabel(/Call history/).setInputFiles(file);
  await page.getByRole('button', { name: 'Upload and analyse' }).click();
  await page.getByRole('group', { name: 'Import totals' }).waitFor({ timeout: 20_000 });
}

before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer();
  t = await tenantWithKey(srv);
  dir = mkdtempSync(join(tmpdir(), 'adv17-web-'));
  browser = await launch();
  w = await openPage(browser, { acceptDownloads: true });
  page = w.page;
  await signInPage(page, srv.url, t);
});
after(async () => {
  await browser?.close();
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/advisory', () => {
  test('with a benchmark provider: upload, chart of Tokens saved by task family, breakdowns, CSV; keyboard and axe', async () => {
    await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'anthropic' } });
    const file = join(dir, 'history.csv');
    writeFileSync(file, CSV);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Advisory', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Advisory' }).waitFor();
    await uploadAndWait(file);
    assert.equal(await page.getByLabel(/Call history/).inputValue(), '', 'the picker is empty again after an upload');

    const api = (await srv.api('GET', '/api/advisory/imports', { token: t.accessToken })).body.data.items[0];
    assert.equal(new URL(page.url()).searchParams.get('import'), api.id);
    const rep = (await srv.api('GET', `/api/advisory/imports/${api.id}`, { token: t.accessToken })).body.data;
    assert.equal(rep.status, 'done');

    const tiles = page.getByRole('group', { name: 'Import totals' });
    assert.equal((await tiles.getByTestId('tile-calls').innerText()).split('\n')[1], '4');
    assert.match(await tiles.innerText(), /Anthropic-equivalent burn/);
    assert.equal((await tiles.getByTestId('tile-saved').innerText()).split('\n')[1], formatTokens(rep.totals.tokensSaved));
    // The chart: one bar per task family, labelled for assistive technology.
    const chart = page.getByRole('figure', { name: 'Tokens saved by task family against Anthropic-equivalent burn' });
    await chart.locator('.recharts-bar-rectangle').first().waitFor();
    assert.equal(await chart.locator('.recharts-bar-rectangle').count(), rep.byTaskFamily.length);
    const text = await textOf(page);
    assert.match(text, /By task family/);
    assert.match(text, /Coding/);
    assert.match(text, /Line 6: input_tokens is not a non-negative integer/);
    assert.match(text, /Economy class|Standard class|Premium class|Frontier class/);
    for (const id of MODEL_IDS) assert.ok(!text.includes(id), `the page shows the model id ${id}`);

    // The CSV download carries every line.
    const [dl] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await dl.path())!, 'utf8').trim().split('\r\n');
    assert.equal(csv.length, 1 + 5);
    assert.match(csv[0], /^line,status,error,/);

    // Keyboard: the file picker and the upload button are reachable by Tab.
    await page.getByLabel(/Call history/).focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Upload and analyse');

    await screenshot(page, 'advisory-report');
    assert.deepEqual(w.problems, [], 'console errors or CSP violations');
    assert.deepEqual(await axeViolations(page), []);
  });

  test('without a benchmark provider the page asks for one instead of a 0 %', async () => {
    const u = await tenantWithKey(srv);
    const w2 = await openPage(browser);
    page = w2.page;
    await signInPage(page, srv.url, u);
    await page.goto(srv.url + '/advisory');
    await page.getByText('No imports yet').waitFor();
    const file = join(dir, 'nobench.csv');
    writeFileSync(file, CSV);
    await uploadAndWait(file);
    await page.getByText('Choose a benchmark provider to see your savings.').waitFor();
    const text = await textOf(page);
    assert.doesNotMatch(text, /Tokens saved|% saved|0\.00 %/);
    assert.match(text, /Historical cost/);
    await screenshot(page, 'advisory-no-benchmark');
    assert.deepEqual(w2.problems, []);
    assert.deepEqual(await axeViolations(page), []);
  });
});

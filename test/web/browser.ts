// Headless Debian Chromium for the web app's tests (playwright-core drives it; no browser is
// downloaded). Each page records console errors and CSP violations, so a test can assert none.
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const SCREENSHOTS = join(process.cwd(), 'test-results', 'web');

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface WatchedPage {
  page: Page;
  /** Console errors and CSP violations seen so far. */
  problems: string[];
}

export async function openPage(browser: Browser, opts: { acceptDownloads?: boolean } = {}): Promise<WatchedPage> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: opts.acceptDownloads ?? true, locale: 'en-US', timezoneId: 'UTC' });
  const page = await ctx.newPage();
  // Generous: the machine may be shared and busy; a step that works finishes long before.
  page.setDefaultTimeout(30_000);
  const problems: string[] = [];
  page.on('console', (m) => {
    // A failed fetch the app handles (401 before sign-in, the refresh probe) is logged by the
    // browser as a resource error; the app's own errors and CSP reports are what count.
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return { page, problems };
}

/** Signs in through the login form (Enter in the password field) and waits for the overview. */
export async function signInPage(page: Page, baseUrl: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(baseUrl + '/login');
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL((u) => u.pathname === '/overview');
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (an injected
  // <script> would be refused by it, as it should be).
  const loaded = await page.evaluate('typeof window.axe');
  if (loaded === 'undefined') await page.evaluate(axeSource);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3) })))`)) as Array<{
    id: string;
    impact: string;
    help: string;
    nodes: string[];
  }>;
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.join(', ')}`);
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The page's visible text. */
export const textOf = (page: Page) => page.evaluate(() => document.body.innerText);

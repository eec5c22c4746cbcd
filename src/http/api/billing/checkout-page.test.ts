// The sandbox checkout page carries a Content-Security-Policy (issue 22 item 9), and the policy
// does not break it: in headless Chromium the page is styled, reports no violation, pays, and a
// script slipped into it would not run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { signupTenant, startTestServer, type TestServer } from '../../../../test/harness.ts';

let srv: TestServer;
let browser: Browser;
before(async () => {
  srv = await startTestServer({ worker: false });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
after(async () => {
  await browser?.close();
  await srv.close();
});

test('the checkout page has a strict CSP, renders under it, pays, and would not run an injected script', async () => {
  const t = await signupTenant(srv, 'buyer');
  const r = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const url = r.body.data.checkoutUrl as string;

  const res = await fetch(url);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
  assert.match(csp, /form-action 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);

  const page = await browser.newPage();
  try {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(url);
    assert.equal(await page.title(), 'Sandbox payment — no real money');
    const banner = await page.locator('.banner').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(banner, 'rgb(255, 243, 205)', 'the inline style is allowed by its hash');
    assert.deepEqual(violations, []);

    await page.getByRole('button', { name: /Pay \$5\.00/ }).click();
    await page.getByText('Paid. $5.00 was added to the wallet.').waitFor();
    assert.deepEqual(violations, []);
    const wallet = await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken });
    // D8a names it `balance`; older builds spell it `balanceMicros`.
    assert.equal(wallet.body.data.balance ?? wallet.body.data.balanceMicros, '5000000');

    // Anything injected into the page stays inert.
    const ran = await page.evaluate(async () => {
      const blocked = new Promise<string>((done) => document.addEventListener('securitypolicyviolation', (e) => done(e.violatedDirective), { once: true }));
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.body.appendChild(s);
      return { directive: await blocked, ran: (window as unknown as { __injected?: boolean }).__injected === true };
    });
    assert.equal(ran.ran, false);
    assert.match(ran.directive, /script-src/);
  } finally {
    await page.close();
  }
});

// The browser extension (D14 tier 3), end to end: `npm run build:extension`'s folder loaded
// unpacked into headless Chromium, configured through its own options page, and a test page on
// loopback whose `fetch` calls to the three vendors come back with Switchboard's answers (from the
// simulated upstream, on the ledger, channel `extension`), streams, errors and aborts included;
// the popup's numbers; the integrations tile; and a site that is not enabled left alone.
//
// Proof that nothing leaves for a vendor: every request the browser itself sends to the vendor
// hosts is caught by a context route that answers with a marker and counts. On an enabled site
// the count stays 0 for the re-routed calls; on a disabled one the page's call reaches it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { credit, signupTenant, startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { axeViolations, screenshot, textOf } from './web/browser.ts';
import { buildExtension } from '../scripts/build-extension.ts';
import { forwardedHeaders, reroute } from '../extension/src/reroute.ts';
import { isEnabled, matchPattern, parseSites } from '../extension/src/sites.ts';

describe('which calls the extension takes (pure rules)', () => {
  test('the three vendor endpoints map to the vendor-prefixed proxies; anything else passes', () => {
    assert.deepEqual(reroute('https://api.openai.com/v1/chat/completions', 'post'), { vendor: 'openai', path: '/v1/chat-proxy/v1/chat/completions' });
    assert.deepEqual(reroute('https://api.anthropic.com/v1/messages?beta=true', 'POST'), { vendor: 'anthropic', path: '/v1/messages-proxy/v1/messages?beta=true' });
    assert.deepEqual(reroute('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse&key=AIzaPAGE', 'POST'), {
      vendor: 'gemini',
      path: '/v1/generate-proxy/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    });
    for (const [url, method] of [
      ['https://api.openai.com/v1/models', 'GET'],
      ['https://api.openai.com/v1/chat/completions', 'GET'],
      ['https://api.openai.com/v1/embeddings', 'POST'],
      ['http://api.openai.com/v1/chat/completions', 'POST'],
      ['https://api.openai.com:8443/v1/chat/completions', 'POST'],
      ['https://api.openai.com.evil.test/v1/chat/completions', 'POST'],
      ['https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:countTokens', 'POST'],
      ['not a url', 'POST'],
    ]) assert.equal(reroute(url, method), null, `${method} ${url}`);
  });

  test("the page's vendor key and cookies stay behind; body type and vendor version headers travel", () => {
    const h = forwardedHeaders([
      ['Authorization', 'Bearer sk-page'],
      ['x-api-key', 'sk-ant-page'],
      ['x-goog-api-key', 'AIza-page'],
      ['cookie', 'a=b'],
      ['Content-Type', 'application/json'],
      ['anthropic-version', '2023-06-01'],
      ['anthropic-beta', 'tools-2024'],
    ]);
    assert.deepEqual(h, { 'content-type': 'application/json', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'tools-2024' });
  });

  test('enabled sites: hosts, subdomains and origins, with readable errors', () => {
    const { sites, errors } = parseSites('App.Example.com/path\n*.corp.test\nhttp://127.0.0.1:5173\n\nftp://x.test\nnot a host!\napp.example.com');
    assert.deepEqual(
      sites.map((s) => s.entry),
      ['app.example.com', '*.corp.test', 'http://127.0.0.1:5173'],
    );
    assert.deepEqual(sites.map(matchPattern), ['*://app.example.com/*', '*://*.corp.test/*', 'http://127.0.0.1:5173/*']);
    assert.equal(errors.length, 2);
    assert.match(errors[0], /only http and https/);
    assert.match(errors[1], /not a host name.*app\.example\.com/);
    assert.ok(isEnabled('https://app.example.com:8443/x', sites));
    assert.ok(isEnabled('https://corp.test/', sites) && isEnabled('https://a.b.corp.test/', sites));
    assert.ok(isEnabled('http://127.0.0.1:5173/', sites));
    assert.ok(!isEnabled('http://127.0.0.1:5174/', sites));
    assert.ok(!isEnabled('https://example.com/', sites));
    assert.ok(!isEnabled('https://xcorp.test/', sites));
    assert.ok(!isEnabled('chrome://settings', sites));
  });
});

/** The test web app: an empty page; the tests run `fetch` in its own world. */
function startSite(): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><head><title>A web app</title></head><body><h1>A web app that calls model vendors</h1></body></html>');
  });
  return new Promise((res) => server.listen(0, '127.0.0.1', () => res(server)));
}

interface PageAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
  reads: number;
  error?: string;
}

/** Run a `fetch` in the page's world and read the whole answer as the page sees it. */
function pageFetch(page: Page, url: string, init: { headers: Record<string, string>; body: unknown }): Promise<PageAnswer> {
  return page.evaluate(
    async ({ url, init }) => {
      try {
        const r = await fetch(url, { method: 'POST', headers: init.headers, body: JSON.stringify(init.body) });
        const reader = r.body!.getReader();
        const dec = new TextDecoder();
        let text = '';
        let reads = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          reads++;
          text += dec.decode(value, { stream: true });
        }
        return { status: r.status, headers: Object.fromEntries(r.headers), text, reads, ok: r.ok, type: r.type };
      } catch (e) {
        return { status: 0, headers: {}, text: '', reads: 0, error: `${(e as Error).name}: ${(e as Error).message}` };
      }
    },
    { url, init },
  );
}

const OPENAI = 'https://api.openai.com/v1/chat/completions';
const ANTHROPIC = 'https://api.anthropic.com/v1/messages';
const GEMINI = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent?key=AIza-the-pages-own-key';
const GEMINI_STREAM = 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse&key=AIza-the-pages-own-key';
const openaiHeaders = { 'content-type': 'application/json', authorization: 'Bearer sk-the-pages-own-key' };
const anthropicHeaders = { 'content-type': 'application/json', 'x-api-key': 'sk-ant-the-pages-own-key', 'anthropic-version': '2023-06-01' };
const geminiHeaders = { 'content-type': 'application/json' };
const VENDOR_MARKER = 'answered-by-the-vendor-stand-in';

describe('the extension in Chromium', () => {
  let srv: TestServer;
  let site: Server;
  let ctx: BrowserContext;
  let extId: string;
  let tmp: string;
  const vendorHits: string[] = [];
  let t: Awaited<ReturnType<typeof tenantWithKey>>;
  let siteUrl: string;
  let otherSiteUrl: string;

  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'sb-ext-test-'));
    const built = await buildExtension({ quiet: true, outDir: join(tmp, 'extension'), zipPath: join(tmp, 'extension.zip') });
    srv = await startTestServer();
    site = await startSite();
    const port = (site.address() as { port: number }).port;
    siteUrl = `http://127.0.0.1:${port}/app`;
    otherSiteUrl = `http://localhost:${port}/app`;
    t = await tenantWithKey(srv, { micros: 50_000_000n });
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } })).status, 200);
    ctx = await chromium.launchPersistentContext(join(tmp, 'profile'), {
      executablePath: '/usr/bin/chromium',
      // Playwright's headless Chromium is the new headless mode, which runs MV3 extensions.
      headless: true,
      args: [`--disable-extensions-except=${built.dir}`, `--load-extension=${built.dir}`, '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
      viewport: { width: 900, height: 800 },
    });
    ctx.setDefaultTimeout(30_000);
    // The vendors' real hosts, as far as this browser is concerned: any request that gets here
    // was sent by the browser itself, not by the extension.
    await ctx.route(/^https:\/\/(api\.openai\.com|api\.anthropic\.com|generativelanguage\.googleapis\.com)\//, (route) => {
      vendorHits.push(`${route.request().method()} ${route.request().url()}`);
      return route.fulfill({ status: 200, contentType: 'text/plain', body: VENDOR_MARKER, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' } });
    });
    let [sw] = ctx.serviceWorkers();
    sw ??= await ctx.waitForEvent('serviceworker');
    extId = new URL(sw.url()).host;
  });
  after(async () => {
    await ctx?.close();
    site?.close();
    await srv?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function configure(values: { baseUrl: string; key: string; sites: string }): Promise<string> {
    const page = await ctx.newPage();
    await page.goto(`chrome-extension://${extId}/options.html`);
    await page.getByLabel('Switchboard URL').fill(values.baseUrl);
    await page.getByLabel('Service key').fill(values.key);
    await page.getByLabel('Enabled sites').fill(values.sites);
    await page.getByRole('button', { name: 'Save and check' }).click();
    const status = page.getByRole('status');
    await status.filter({ hasNotText: 'Checking' }).waitFor();
    const text = (await status.textContent()) ?? '';
    await page.close();
    return text;
  }

  test('the build gives a loadable folder and a zip of the same files', async () => {
    const dir = join(tmp, 'extension');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    assert.equal(manifest.manifest_version, 3);
    assert.equal(manifest.version, JSON.parse(readFileSync('package.json', 'utf8')).version);
    // Read the zip back entry by entry (local headers) and compare with the folder.
    const z = readFileSync(join(tmp, 'extension.zip'));
    const names: string[] = [];
    for (let o = 0; z.readUInt32LE(o) === 0x04034b50; ) {
      const size = z.readUInt32LE(o + 18);
      const nameLen = z.readUInt16LE(o + 26);
      const extra = z.readUInt16LE(o + 28);
      const name = z.subarray(o + 30, o + 30 + nameLen).toString('utf8');
      const data = inflateRawSync(z.subarray(o + 30 + nameLen + extra, o + 30 + nameLen + extra + size));
      assert.deepEqual(data, readFileSync(join(dir, name)), name);
      names.push(name);
      o += 30 + nameLen + extra + size;
    }
    assert.deepEqual(names, ['background.js', 'content.js', 'manifest.json', 'options.html', 'options.js', 'page.js', 'popup.html', 'popup.js', 'style.css']);
  });

  test('the options page refuses a wrong key and a bad site line, in words that say what to do', async () => {
    assert.match(await configure({ baseUrl: srv.url, key: 'svc_dev_not-a-real-key', sites: '127.0.0.1' }), /refused the service key.*Keys page/);
    assert.match(await configure({ baseUrl: srv.url, key: t.key, sites: 'ftp://files.test' }), /only http and https/);
    assert.match(await configure({ baseUrl: 'switchboard.test', key: t.key, sites: '127.0.0.1' }), /with its scheme/);
  });

  test("the tile's setup wizard gives this URL and a fresh key; entered in the options page they connect the tile", async () => {
    const w = await tenantWithKey(srv);
    const tile = async () => (await srv.api('GET', `/api/projects/${w.defaultProjectId}/integrations`, { token: w.accessToken })).body.data.items.find((x: { tool: string }) => x.tool === 'browser-extension');
    assert.equal((await tile()).status, 'not configured');
    const r = await srv.api('POST', `/api/projects/${w.defaultProjectId}/integrations/browser-extension/setup`, { token: w.accessToken, body: { environment: 'production' } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.ok(r.body.data.steps.length >= 3 && r.body.data.steps.length <= 5);
    const values = JSON.parse(r.body.data.steps.flatMap((x: { snippets: Array<{ client: string; content: string }> }) => x.snippets).find((x: { client: string }) => x.client === 'Switchboard extension options').content);
    assert.equal(values['Switchboard URL'], srv.url);
    assert.match(values['Service key'], /^svc_live_/);
    assert.match(await configure({ baseUrl: values['Switchboard URL'], key: values['Service key'], sites: '127.0.0.1' }), /Saved\. Connected to .*\(production\)/);
    assert.equal((await tile()).status, 'connected');
  });

  test('on an enabled site the three vendors are answered by Switchboard, on the ledger, channel extension', async () => {
    const saved = await configure({ baseUrl: srv.url, key: t.key, sites: '127.0.0.1' });
    assert.match(saved, /Saved\. Connected to Tenant proxy · .* \(dev\)\. Routing on 1 site/);
    const options = await ctx.newPage();
    await options.goto(`chrome-extension://${extId}/options.html`);
    assert.equal(await options.getByLabel('Service key').inputValue(), '', 'the saved key is not shown again');
    assert.deepEqual(await axeViolations(options), []);
    await screenshot(options, 'extension-options');
    await options.close();

    const page = await ctx.newPage();
    await page.goto(siteUrl);
    const hitsBefore = vendorHits.length;
    const prompt = (what: string) => [{ role: 'user', content: `Write one sentence about ${what}.` }];
    // Everything the page's own scripts could observe of the extension: its window messages.
    await page.evaluate(() => {
      (window as unknown as { seen: string[] }).seen = [];
      window.addEventListener('message', (e) => (window as unknown as { seen: string[] }).seen.push(JSON.stringify(e.data)));
    });

    const plain = await pageFetch(page, OPENAI, { headers: openaiHeaders, body: { model: 'gpt-4o-mini', messages: prompt('lighthouses') } });
    assert.equal(plain.status, 200, plain.text);
    assert.equal(JSON.parse(plain.text).object, 'chat.completion');
    assert.equal(plain.headers['x-service-simulated'], 'true', 'answered by the simulated upstream behind Switchboard');

    const streamed = await pageFetch(page, OPENAI, { headers: openaiHeaders, body: { model: 'gpt-4o-mini', stream: true, messages: prompt('harbours') } });
    assert.equal(streamed.status, 200);
    assert.match(streamed.headers['content-type'], /text\/event-stream/);
    const frames = streamed.text.split('\n\n').filter((f) => f.startsWith('data: '));
    assert.equal(frames.at(-1), 'data: [DONE]');
    const content = frames.slice(0, -1).map((f) => JSON.parse(f.slice(6)).choices?.[0]?.delta?.content ?? '').join('');
    assert.ok(content.length > 0, 'the streamed text arrives');

    const claude = await pageFetch(page, ANTHROPIC, { headers: anthropicHeaders, body: { model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: prompt('tides') } });
    assert.equal(claude.status, 200, claude.text);
    assert.equal(JSON.parse(claude.text).type, 'message');

    const gemini = await pageFetch(page, GEMINI, { headers: geminiHeaders, body: { contents: [{ role: 'user', parts: [{ text: 'Write one sentence about gulls.' }] }] } });
    assert.equal(gemini.status, 200, gemini.text);
    assert.ok(JSON.parse(gemini.text).candidates[0].content.parts[0].text);

    const geminiStream = await pageFetch(page, GEMINI_STREAM, { headers: geminiHeaders, body: { contents: [{ role: 'user', parts: [{ text: 'Write one sentence about buoys.' }] }] } });
    assert.equal(geminiStream.status, 200);
    assert.ok(geminiStream.text.includes('data: {'), geminiStream.text.slice(0, 200));

    // A Request object works as well as a URL and init.
    const viaRequest = await page.evaluate(async (u) => {
      const r = await fetch(new Request(u, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant-page', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ model: 'x', max_tokens: 32, messages: [{ role: 'user', content: 'Hi from a Request' }] }) }));
      return { status: r.status, type: (await r.json()).type, id: r.headers.get('x-service-call-id') };
    }, ANTHROPIC);
    assert.deepEqual({ status: viaRequest.status, type: viaRequest.type }, { status: 200, type: 'message' });
    assert.ok(viaRequest.id);

    assert.equal(vendorHits.length, hitsBefore, `nothing was sent to a vendor host: ${vendorHits.slice(hitsBefore).join(', ')}`);
    // The page saw the calls go by (its own requests and answers), never the service key.
    const seen = (await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).join('\n');
    assert.ok(seen.includes('lighthouses') && seen.includes('chat.completion'), 'the page-world messages were observed');
    assert.ok(!seen.includes(t.key) && !seen.includes(t.key.slice(0, 16)), 'the service key never reaches the page');
    assert.ok(!JSON.stringify([plain, streamed, claude, gemini, geminiStream]).includes(t.key.slice(0, 16)), 'nor is it in any answer');

    // Each answer is a call of this tenant on channel extension, with its sealed ledger entry.
    const ids = [plain, streamed, claude, gemini, geminiStream].map((a) => a.headers['x-service-call-id']);
    assert.ok(ids.every(Boolean), 'every answer names its call');
    const rows = await srv.services.db.selectFrom('call_logs').select(['id', 'channel', 'status', 'ledger_entry_id', 'stream', 'key_id']).where('tenant_id', '=', t.tenantId).where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    assert.deepEqual(
      ids.map((id) => [byId.get(id)?.channel, byId.get(id)?.stream]),
      [
        ['extension:chat', false],
        ['extension:chat', true],
        ['extension:messages', false],
        ['extension:generate', false],
        ['extension:generate', true],
      ],
    );
    for (const r of rows) {
      assert.equal(r.status, 'succeeded');
      assert.equal(r.key_id, t.keyId, "billed to the extension's service key, not the page's");
    }
    // Settlement of a stream completes after its last frame: wait for the ledger to catch up.
    for (let i = 0; i < 100; i++) {
      const n = await srv.services.db.selectFrom('ledger_entries').select('call_id').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').where('call_id', 'in', ids).execute();
      if (n.length === ids.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const entries = await srv.services.db.selectFrom('ledger_entries').select(['call_id', 'amount_micros']).where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').where('call_id', 'in', ids).execute();
    assert.equal(entries.length, ids.length, 'each call has its ledger entry');
    assert.ok(entries.every((e) => BigInt(e.amount_micros) < 0n));
    await page.close();
  });

  test('requests the extension does not handle pass untouched, even on an enabled site', async () => {
    const page = await ctx.newPage();
    await page.goto(siteUrl);
    const before = vendorHits.length;
    const r = await page.evaluate(async () => {
      const res = await fetch('https://api.openai.com/v1/models', { headers: { authorization: 'Bearer sk-page' } });
      return { status: res.status, text: await res.text() };
    });
    assert.deepEqual(r, { status: 200, text: VENDOR_MARKER });
    assert.deepEqual(vendorHits.slice(before), ['GET https://api.openai.com/v1/models']);
    // And the page's other traffic too.
    assert.match(await page.evaluate(async (u) => (await fetch(u)).text(), siteUrl), /A web app/);
    await page.close();
  });

  test('aborting the page signal stops the call, before the answer and in the middle of a stream', async () => {
    srv.sim.faults.add({ promptIncludes: 'slow stream please', chunkDelayMs: 400 });
    const page = await ctx.newPage();
    await page.goto(siteUrl);
    const r = await page.evaluate(async (url) => {
      const early = new AbortController();
      early.abort();
      const first = await fetch(url, { method: 'POST', signal: early.signal, headers: { 'content-type': 'application/json' }, body: '{"model":"x","messages":[{"role":"user","content":"never sent"}]}' }).then(
        () => 'resolved',
        (e: Error) => e.name,
      );
      const mid = new AbortController();
      const res = await fetch(url, {
        method: 'POST',
        signal: mid.signal,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'A slow stream please, about rivers, at length.' }] }),
      });
      const reader = res.body!.getReader();
      const one = await reader.read();
      const t0 = Date.now();
      mid.abort();
      const next = await reader.read().then(
        (x) => (x.done ? 'done' : 'more data'),
        (e: Error) => e.name,
      );
      return { first, status: res.status, gotFirst: !one.done, second: next, ms: Date.now() - t0 };
    }, OPENAI);
    assert.deepEqual({ first: r.first, status: r.status, gotFirst: r.gotFirst, second: r.second }, { first: 'AbortError', status: 200, gotFirst: true, second: 'AbortError' });
    assert.ok(r.ms < 300, 'the abort is seen at once, not after the next frame');
    const never = await srv.services.db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).where('prompt_excerpt', 'like', '%never sent%').execute();
    assert.equal(never.length, 0, 'an already aborted fetch never reaches Switchboard');
    srv.sim.faults.clear();
    await page.close();
  });

  test('the popup shows the site as routed and today’s calls and tokens saved; the integrations tile is connected', async () => {
    const app = await ctx.newPage();
    await app.goto(siteUrl);
    const popup = await ctx.newPage();
    await popup.goto(`chrome-extension://${extId}/popup.html`);
    await popup.getByText('Routed through Switchboard').waitFor();
    const calls = await srv.services.db
      .selectFrom('call_logs')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', t.tenantId)
      .where('channel', 'like', 'extension:%')
      .where('parent_call_id', 'is', null)
      .executeTakeFirstOrThrow();
    assert.ok(Number(calls.n) >= 5);
    await popup.getByText(/tokens$/).waitFor();
    const text = await textOf(popup);
    assert.match(text, new RegExp(`Calls\\s+${Number(calls.n)}\\b`));
    assert.match(text, /Tokens saved\s+-?[\d,]+ tokens/);
    assert.match(text, /Against OpenAI/);
    assert.deepEqual(await axeViolations(popup), []);
    await screenshot(popup, 'extension-popup');
    await popup.close();

    // The same figures from the endpoint the popup reads.
    const today = await srv.api('GET', '/api/connector/today?channel=extension', { headers: { authorization: `Bearer ${t.key}` } });
    assert.equal(today.status, 200);
    assert.equal(today.body.data.calls, Number(calls.n));
    assert.equal(today.body.data.benchmarkProvider, 'OpenAI');

    // A site that is not enabled.
    const other = await ctx.newPage();
    await other.goto(otherSiteUrl);
    const popup2 = await ctx.newPage();
    await popup2.goto(`chrome-extension://${extId}/popup.html`);
    await popup2.getByText('Not routed on this site').waitFor();
    assert.match(await textOf(popup2), /localhost/);
    await popup2.close();
    await other.close();
    await app.close();

    const tiles = await srv.api('GET', `/api/projects/${t.defaultProjectId}/integrations`, { token: t.accessToken });
    const tile = tiles.body.data.items.find((x: { tool: string }) => x.tool === 'browser-extension');
    assert.equal(tile.status, 'connected');
    const sources = await srv.services.db.selectFrom('connector_heartbeats').select('channel').where('project_id', '=', t.defaultProjectId).execute();
    const seen = sources.map((x) => x.channel);
    for (const c of ['extension:chat', 'extension:messages', 'extension:generate']) assert.ok(seen.includes(c), `the extension's ${c} traffic is evidence for the tile (${seen.join(', ')})`);
  });

  test("a site that is not enabled is left alone: its vendor calls go out as the page sent them", async () => {
    const page = await ctx.newPage();
    await page.goto(otherSiteUrl);
    const before = vendorHits.length;
    const callsBefore = await srv.services.db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).execute();
    const a = await pageFetch(page, OPENAI, { headers: { authorization: 'Bearer sk-page' }, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
    const b = await pageFetch(page, ANTHROPIC, { headers: {}, body: { model: 'claude', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] } });
    assert.deepEqual([a.text, b.text], [VENDOR_MARKER, VENDOR_MARKER]);
    assert.deepEqual(vendorHits.slice(before).filter((h) => h.startsWith('POST')), [`POST ${OPENAI}`, `POST ${ANTHROPIC}`]);
    const callsAfter = await srv.services.db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).execute();
    assert.equal(callsAfter.length, callsBefore.length, 'Switchboard saw nothing');
    assert.equal(await page.evaluate(() => Object.prototype.hasOwnProperty.call(window, '__switchboardExtension')), false, 'fetch is not wrapped here');
    await page.close();
  });

  test('an empty wallet: the page gets the 402 in each vendor’s own error shape', async () => {
    const broke = await signupTenant(srv, 'broke');
    await credit(srv, broke.tenantId, 0n);
    const k = await srv.api('POST', '/api/keys', { token: broke.accessToken, body: { name: 'extension', environment: 'dev' } });
    assert.match(await configure({ baseUrl: srv.url, key: k.body.data.key, sites: '127.0.0.1' }), /Saved/);
    const page = await ctx.newPage();
    await page.goto(siteUrl);
    const a = await pageFetch(page, OPENAI, { headers: openaiHeaders, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } });
    assert.equal(a.status, 402);
    assert.equal(typeof JSON.parse(a.text).error.message, 'string');
    const b = await pageFetch(page, ANTHROPIC, { headers: anthropicHeaders, body: { model: 'x', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] } });
    assert.equal(b.status, 402);
    assert.equal(JSON.parse(b.text).type, 'error');
    const g = await pageFetch(page, GEMINI, { headers: geminiHeaders, body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } });
    assert.equal(g.status, 402);
    assert.equal(JSON.parse(g.text).error.code, 402);

    // Its popup: no benchmark provider, so no tokens-saved figure (never a made-up 0), and only its own calls.
    const popup = await ctx.newPage();
    await popup.goto(`chrome-extension://${extId}/popup.html`);
    await popup.getByText('Choose a benchmark provider on the Billing page').waitFor();
    assert.match(await textOf(popup), /Tokens saved\s+Not computed/);
    await popup.close();
    const today = await srv.api('GET', '/api/connector/today?channel=extension', { headers: { authorization: `Bearer ${k.body.data.key}` } });
    const own = await srv.services.db.selectFrom('call_logs').select('id').where('tenant_id', '=', broke.tenantId).where('parent_call_id', 'is', null).execute();
    assert.deepEqual({ calls: today.body.data.calls, tokensSaved: today.body.data.tokensSaved, benchmarkProvider: today.body.data.benchmarkProvider }, { calls: own.length, tokensSaved: null, benchmarkProvider: null });
    await page.close();
  });

  test('signing in by device authorisation creates a key for the chosen project and environment, and keeps only the key', async () => {
    const page = await ctx.newPage();
    await page.goto(`chrome-extension://${extId}/options.html`);
    await page.getByLabel('Switchboard URL').fill(srv.url);
    await page.getByLabel('Enabled sites').fill('127.0.0.1');
    const opened = ctx.waitForEvent('page');
    await page.getByRole('button', { name: 'Sign in with Switchboard' }).click();
    const code = (await page.locator('#user-code').filter({ hasText: /[A-Z]{4}-[A-Z]{4}/ }).textContent())!;
    const devicePage = await opened;
    assert.equal(devicePage.url(), `${srv.url}/device?code=${code}`, 'the device page opens with the code');
    await devicePage.close();
    // The person approves it, signed in to the web app (the /device screen has its own test).
    const ok = await srv.api('POST', '/api/auth/device/confirm', { token: t.accessToken, body: { userCode: code } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    await page.getByLabel('Project to bill').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByLabel('Project to bill').inputValue(), t.defaultProjectId);
    await page.getByLabel('Environment').selectOption('staging');
    assert.deepEqual(await axeViolations(page), []);
    await screenshot(page, 'extension-options-signin');
    await page.getByRole('button', { name: 'Create a key for this browser' }).click();
    await page.getByRole('status').filter({ hasText: /^Saved\./ }).waitFor();
    assert.match((await page.getByRole('status').textContent())!, /Connected to Tenant proxy · .* \(staging\)\. Routing on 1 site/);
    await page.close();

    const key = await srv.services.db.selectFrom('api_keys').select(['id', 'environment', 'project_id']).where('tenant_id', '=', t.tenantId).where('name', '=', 'Browser extension').executeTakeFirstOrThrow();
    assert.deepEqual({ environment: key.environment, project: key.project_id }, { environment: 'staging', project: t.defaultProjectId });
    const session = await srv.services.db.selectFrom('sessions').select(['revoked_at']).where('tenant_id', '=', t.tenantId).where('name', '=', 'Browser extension').executeTakeFirstOrThrow();
    assert.notEqual(session.revoked_at, null, 'the sign-in session is ended: the key is the only credential kept');

    const app = await ctx.newPage();
    await app.goto(siteUrl);
    const r = await pageFetch(app, OPENAI, { headers: openaiHeaders, body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello from the signed-in extension' }] } });
    assert.equal(r.status, 200, r.text);
    const row = await srv.services.db.selectFrom('call_logs').select(['key_id', 'channel']).where('id', '=', r.headers['x-service-call-id']).executeTakeFirstOrThrow();
    assert.deepEqual(row, { key_id: key.id, channel: 'extension:chat' });
    await app.close();
  });
});

// The web app as the `serve` process hands it out (D13): `/` and every screen get index.html
// with a Content-Security-Policy, an unknown path gets the app's not-found page with 404, /api
// stays JSON, assets are immutable and pre-compressed, and an unchanged app is not rebuilt.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../harness.ts';
import { buildWeb, webIsBuilt } from '../../scripts/build-web.ts';
import { APP_ROUTES } from '../../src/core/web-routes.ts';

let srv: TestServer;
before(async () => {
  await buildWeb({ quiet: true });
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

test('every screen and / answer the app with a strict CSP; unknown paths answer 404 with the same app', async () => {
  for (const path of ['/', ...APP_ROUTES, '/overview/', '/login?next=%2Fbilling']) {
    const r = await fetch(srv.url + path);
    assert.equal(r.status, 200, path);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    const csp = r.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, `${path}: scripts only from this origin, no 'unsafe-inline'`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(csp, /frame-ancestors 'none'/);
    const html = await r.text();
    assert.match(html, /<div id="root"><\/div>/);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script in the page');
  }
  for (const path of ['/nope', '/overview/extra', '/admin/unknown', '/settings']) {
    const r = await fetch(srv.url + path);
    assert.equal(r.status, 404, path);
    assert.match(r.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok(r.headers.get('content-security-policy'));
  }
  const api = await fetch(`${srv.url}/api/nope`);
  assert.equal(api.status, 404);
  assert.equal((await api.json()).success, false, '/api keeps its JSON envelope');
  // `/api` itself and any path under it, with or without a query or a trailing slash, by any
  // method: the envelope's 404, never the web app's HTML not-found page.
  for (const [method, path] of [['GET', '/api'], ['GET', '/api?x=1'], ['GET', '/api/'], ['GET', '/api/nope/deeper'], ['HEAD', '/api'], ['POST', '/api'], ['DELETE', '/api/x']]) {
    const r = await fetch(srv.url + path, { method });
    assert.equal(r.status, 404, `${method} ${path}`);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${method} ${path}`);
    if (method === 'HEAD') continue;
    const body = await r.json();
    assert.equal(body.success, false, `${method} ${path}`);
    assert.equal(body.code, 'not_found', `${method} ${path}`);
    // `/api` itself points to the API reference; a wrong path under it just says there is no route.
    if (['/api', '/api?x=1', '/api/'].includes(path)) assert.match(body.error, /API reference is at \/docs/, `${method} ${path}`);
    else assert.equal(body.error, `No route ${method} ${path.split('?')[0]}`, `${method} ${path}`);
  }
  // The reference it points to is there.
  assert.equal((await fetch(`${srv.url}/docs/`)).status, 200);
  // `/v1` itself answers a vendor-shaped error, as every wrong path under it does.
  const v1 = await fetch(`${srv.url}/v1`);
  assert.equal(v1.status, 404);
  assert.match(v1.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof (await v1.json()).error, 'object', 'the OpenAI error shape');
  const post = await fetch(`${srv.url}/overview`, { method: 'POST' });
  assert.equal(post.status, 404);
  assert.match(post.headers.get('content-type') ?? '', /json/, 'only GET reaches the app');
});

test('assets: hashed names, cached for a year, served brotli-compressed when accepted', async () => {
  const html = await (await fetch(srv.url + '/')).text();
  const entry = /<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
  assert.ok(entry, html);
  const br = await fetch(srv.url + entry, { headers: { 'accept-encoding': 'br' } });
  assert.equal(br.status, 200);
  assert.equal(br.headers.get('content-encoding'), 'br');
  assert.match(br.headers.get('cache-control') ?? '', /max-age=31536000.*immutable|immutable.*max-age=31536000/);
  assert.match(br.headers.get('content-type') ?? '', /javascript/);
  assert.equal((await fetch(`${srv.url}/assets/nope.js`)).status, 404);
});

test('a second build with nothing changed does not rebuild', async () => {
  assert.equal(webIsBuilt(), true);
  assert.equal(await buildWeb({ quiet: true }), false);
});

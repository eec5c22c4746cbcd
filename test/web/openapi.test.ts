// The API reference (issue 15 item 10): /openapi.json is a valid OpenAPI 3.1 document generated
// from the routes' own zod schemas, every registered /api, /auth and /v1 route is in it, and /docs
// serves a viewer of it with its own CSP.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestServer, type TestServer } from '../harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

test('/openapi.json validates as OpenAPI 3.1 and lists every registered API and proxy route', async () => {
  const r = await fetch(`${srv.url}/openapi.json`);
  assert.equal(r.status, 200);
  const doc = await r.json();
  assert.equal(doc.openapi, '3.1.0');
  const v = await new Validator().validate(doc);
  assert.equal(v.valid, true, JSON.stringify(v.errors, null, 1)?.slice(0, 2000));

  const toOpenApi = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}');
  const api = srv.app!.routeList.filter((x) => /^\/(api|v1|auth)\//.test(x.url) || x.url === '/health');
  assert.ok(api.length > 60, `found ${api.length} routes`);
  const missing = api.filter((x) => !doc.paths[toOpenApi(x.url)]?.[x.method.toLowerCase()]);
  assert.deepEqual(missing, [], 'every route is documented');
  for (const p of Object.keys(doc.paths)) assert.doesNotMatch(p, /^\/(assets|docs)|^\/$/, `${p} is the web app, not API`);

  // Generated from the zod schemas: the top-up body names its field and its pattern.
  const topup = doc.paths['/api/tenant/wallet/topup'].post;
  const body = topup.requestBody.content['application/json'].schema;
  assert.deepEqual(body.required, ['amountMicros']);
  const login = doc.paths['/api/auth/login'].post.requestBody.content['application/json'].schema;
  assert.deepEqual(Object.keys(login.properties).sort(), ['email', 'password']);
  assert.ok(doc.paths['/api/tenant/insights/overview'].get.responses['200'], 'response schemas are there too');
});

test('/docs serves the viewer with a CSP', async () => {
  const r = await fetch(`${srv.url}/docs/`, { redirect: 'follow' });
  assert.equal(r.status, 200);
  assert.match(await r.text(), /swagger-ui/i);
  assert.ok(r.headers.get('content-security-policy'));
});

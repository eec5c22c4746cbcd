// The real operations emit their events (issue 6.1, D10) end to end: a proxied call streams
// llm.call (with savingsTokens) and moves the project's stage; a top-up through the sandbox
// checkout streams wallet.topup. A customer watching the project stream sees all three.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { openStream } from './sse-client.ts';
import { loadCallContext } from '../src/app/money/wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

test('a proxied call streams llm.call and stage.changed; a sandbox top-up streams wallet.topup', async () => {
  const t = await tenantWithKey(srv);
  assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'anthropic' } })).status, 200);
  const stream = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
  assert.equal(stream.status, 200);
  await stream.next('connected');

  const { response } = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 })
    .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Write one line about the sea.' }] })
    .withResponse();
  const call = await stream.next('llm.call', 5000);
  const frame = JSON.parse(call.data);
  assert.equal(frame.type, 'llm.call');
  assert.equal(frame.projectId, t.defaultProjectId);
  assert.equal(frame.tenantId, t.tenantId);
  assert.equal(frame.payload.callId, response.headers.get('x-service-call-id'));
  assert.equal(frame.payload.modelClass, response.headers.get('x-service-model-class'));
  assert.equal(String(frame.payload.savingsTokens), response.headers.get('x-service-tokens-saved'), 'the same savings as the response header ("null" without a benchmark provider)');
  assert.match(frame.payload.costMicros, /^\d+$/);
  assert.equal(frame.payload.channel, 'proxy');
  assert.ok(call.id, 'every frame carries an SSE id');
  const stage = JSON.parse((await stream.next('stage.changed', 5000)).data);
  assert.equal(stage.payload.to, 'live');
  // This replica's cached call context (loaded by the call, before the move) follows the move at
  // once, so the next call does not read the stage again in its settlement.
  assert.equal((await loadCallContext(srv.services, { tenantId: t.tenantId, projectId: t.defaultProjectId })).stage, 'live');

  const top = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
  assert.equal(top.status, 201, JSON.stringify(top.body));
  const confirm = await fetch(`${top.body.data.checkoutUrl}/confirm`, { method: 'POST' });
  assert.equal(confirm.status, 200);
  const topup = JSON.parse((await stream.next('wallet.topup', 5000)).data);
  assert.equal(topup.payload.amountMicros, '5000000');
  stream.close();
});

test('the integrations connection test runs a dummy prompt end to end and connects the tool; removing it disconnects', async () => {
  const t = await tenantWithKey(srv);
  const stream = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
  await stream.next('connected');
  const r = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/openai-sdk/test`, { token: t.accessToken });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.data.ok, true);
  assert.match(r.body.data.callId, /^[0-9a-f-]{36}$/);
  const connected = JSON.parse((await stream.next('connector.connected', 5000)).data);
  assert.deepEqual(connected.payload, { tool: 'openai-sdk', tier: 1, reason: 'connection_test' });
  // The test's own call is billed, so the project leaves onboarding (the frames may come in either order).
  const stage = stream.records.filter((x) => x.event === 'stage.changed').map((x) => JSON.parse(x.data).payload);
  assert.equal(stage[0]?.from, 'onboarding');
  const tiles = await srv.api('GET', `/api/projects/${t.defaultProjectId}/integrations`, { token: t.accessToken });
  assert.equal(tiles.body.data.items.find((x: { tool: string }) => x.tool === 'openai-sdk').status, 'connected');
  assert.equal(tiles.body.data.items.find((x: { tool: string }) => x.tool === 'mcp').status, 'not configured');
  assert.equal((await srv.api('DELETE', `/api/projects/${t.defaultProjectId}/integrations/openai-sdk`, { token: t.accessToken })).status, 200);
  const gone = JSON.parse((await stream.next('connector.disconnected', 5000)).data);
  assert.equal(gone.payload.tool, 'openai-sdk');
  assert.equal((await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/unknown-tool/test`, { token: t.accessToken })).status, 400);
  stream.close();
});

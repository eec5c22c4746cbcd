// `switchboard mcp` driven the way an MCP client drives it: the MCP SDK's own Client over stdio
// (StdioClientTransport spawns the real command) against a real server on a free port. Every
// `ask` must land in the ledger on channel `mcp`; errors must say what to do; stdout must carry
// protocol messages only.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestServer, tenantWithKey, signupTenant, type TestServer } from '../../../test/harness.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TSX = ['--import', 'tsx', 'src/main.ts', 'mcp'];

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
let client: Client;
let stderr = '';

async function connect(env: Record<string, string>, args = TSX) {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stderr: 'pipe' });
  transport.stderr?.on('data', (d) => (stderr += d));
  const c = new Client({ name: 'switchboard-test', version: '1.0.0' });
  await c.connect(transport);
  return c;
}

/** Run the command to its end with raw pipes: what it wrote to each stream and its exit code. */
function runToExit(env: Record<string, string>, args = TSX): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => resolve({ code, stdout: out, stderr: err }));
  });
}

before(async () => {
  srv = await startTestServer();
  t = await tenantWithKey(srv);
  client = await connect({ SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: t.key });
});
after(async () => {
  await client?.close();
  await srv.close();
});

const structured = (r: Awaited<ReturnType<Client['callTool']>>) => r.structuredContent as Record<string, any>;

describe('switchboard mcp over stdio', () => {
  test('lists the four D14 tools with precise input and output schemas', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    assert.deepEqual([...byName.keys()].sort(), ['ask', 'recent_activity', 'savings', 'wallet']);
    const ask = byName.get('ask')!;
    assert.deepEqual(ask.inputSchema.required, ['prompt']);
    const props = ask.inputSchema.properties as Record<string, any>;
    assert.deepEqual(Object.keys(props).sort(), ['format', 'maxTokens', 'prompt', 'system']);
    assert.deepEqual(props.format.enum, ['text', 'json']);
    assert.equal(props.maxTokens.type, 'integer');
    assert.ok(ask.description!.includes('wallet'));
    assert.deepEqual(Object.keys(ask.outputSchema!.properties as object).sort(), ['callId', 'costMicros', 'modelClass', 'savingsTokens', 'text']);
    const savingsWindow = (byName.get('savings')!.inputSchema.properties as Record<string, any>).window;
    assert.deepEqual((savingsWindow.anyOf ?? []).map((x: { const: number }) => x.const).sort((a: number, b: number) => a - b), [7, 30, 90]);
    for (const x of tools) assert.ok(x.outputSchema && x.description && x.description.length > 40, `${x.name} has an output schema and a description`);
  });

  test('ask is routed, billed and sealed like any call, on channel mcp', async () => {
    const before = await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken });
    const r = await client.callTool({ name: 'ask', arguments: { prompt: 'Name three rivers in Europe.', system: 'Be brief.', maxTokens: 200 } });
    assert.equal(r.isError, undefined);
    const s = structured(r);
    assert.equal((r.content as Array<{ text: string }>)[0].text, s.text);
    assert.ok(s.text.length > 0);
    assert.match(s.callId, /^[0-9a-f-]{36}$/);
    assert.match(s.modelClass, /^(economy|standard|premium|frontier)$/);
    assert.ok(BigInt(s.costMicros) > 0n);
    assert.equal(s.savingsTokens, null, 'no benchmark provider chosen yet: no savings figure');
    const row = await srv.services.db.selectFrom('call_logs').select(['channel', 'tenant_id', 'debited_micros']).where('id', '=', s.callId).executeTakeFirstOrThrow();
    assert.equal(row.channel, 'mcp:chat');
    assert.equal(row.tenant_id, t.tenantId);
    const entry = await srv.services.db.selectFrom('ledger_entries').select(['amount_micros', 'event_type']).where('call_id', '=', s.callId).executeTakeFirstOrThrow();
    assert.equal(entry.event_type, 'AI_USAGE');
    assert.equal(-entry.amount_micros, BigInt(s.costMicros));
    const after = await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken });
    assert.equal(BigInt(before.body.data.balance) - BigInt(after.body.data.balance), BigInt(s.costMicros));
  });

  test('format json answers with one JSON object; savings appear once a benchmark provider is set', async () => {
    assert.equal((await srv.api('PATCH', '/api/tenant/baseline', { token: t.accessToken, body: { providerKey: 'openai' } })).status, 200);
    const r = await client.callTool({ name: 'ask', arguments: { prompt: 'List two colours as JSON.', format: 'json' } });
    const s = structured(r);
    assert.equal(typeof JSON.parse(s.text), 'object');
    assert.match(s.savingsTokens, /^-?\d+$/);
  });

  test('wallet, savings and recent_activity report what the customer API reports', async () => {
    const w = structured(await client.callTool({ name: 'wallet', arguments: {} }));
    const api = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data;
    assert.equal(w.balance, api.balance);
    assert.equal(w.reserved, api.reserved);
    assert.equal(w.runway, api.runway);
    assert.equal(w.billingUrl, `${srv.services.publicUrl}/billing`);

    const sv = await client.callTool({ name: 'savings', arguments: { window: 7 } });
    const s = structured(sv);
    assert.equal(s.windowDays, 7);
    assert.equal(s.series.length, 7);
    assert.equal(s.benchmarkProvider, 'OpenAI');
    const series = (await srv.api('GET', '/api/tenant/insights/savings?window=7', { token: t.accessToken })).body.data.series;
    // The whole burn: the chart's compared burn plus what was spent without a benchmark.
    assert.equal(s.serviceBurn, series.reduce((a: bigint, d: { serviceBurnMicros: string; unbenchmarkedBurnMicros: string }) => a + BigInt(d.serviceBurnMicros) + BigInt(d.unbenchmarkedBurnMicros), 0n).toString());
    assert.match((sv.content as Array<{ text: string }>)[0].text, /Tokens saved/);
    const bad = await client.callTool({ name: 'savings', arguments: { window: 14 } });
    assert.equal(bad.isError, true, 'a window other than 7, 30 or 90 is refused');

    const a = structured(await client.callTool({ name: 'recent_activity', arguments: { limit: 5 } }));
    assert.ok(a.items.length >= 2);
    assert.ok(a.items.every((x: { channel: string }) => x.channel === 'mcp'));
    assert.equal(a.items[0].kind, 'ai_usage');
  });

  test('start-up says hello: the heartbeat is recorded for the key’s project on channel mcp', async () => {
    const hb = await srv.services.db.selectFrom('connector_heartbeats').selectAll().where('project_id', '=', t.defaultProjectId).executeTakeFirstOrThrow();
    assert.equal(hb.channel, 'mcp');
    assert.equal(hb.key_id, t.keyId);
  });

  test('an empty wallet is a tool error that names the billing page', async () => {
    const poor = await signupTenant(srv, 'poor');
    const k = await srv.api('POST', '/api/keys', { token: poor.accessToken, body: { name: 'mcp', environment: 'dev' } });
    const c = await connect({ SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: k.body.data.key });
    try {
      const r = await c.callTool({ name: 'ask', arguments: { prompt: 'Hello?' } });
      assert.equal(r.isError, true);
      const text = (r.content as Array<{ text: string }>)[0].text;
      assert.ok(text.includes(`${srv.url}/billing`), text);
      assert.match(text, /Top up/);
    } finally {
      await c.close();
    }
  });

  test('a revoked key at start-up: a clear message on stderr, a non-zero exit, nothing on stdout', async () => {
    const k = await srv.api('POST', '/api/keys', { token: t.accessToken, body: { name: 'doomed', environment: 'dev' } });
    assert.equal((await srv.api('DELETE', `/api/keys/${k.body.data.record.id}`, { token: t.accessToken })).status, 200);
    const r = await runToExit({ SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: k.body.data.key });
    assert.equal(r.code, 77);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /refused the credentials/);
    assert.ok(r.stderr.includes(`${srv.url}/developer-zone`), r.stderr);
    const missing = await runToExit({ SWITCHBOARD_URL: srv.url });
    assert.equal(missing.code, 77);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /SWITCHBOARD_API_KEY is not set/);
    const down = await runToExit({ SWITCHBOARD_URL: 'http://127.0.0.1:9', SWITCHBOARD_API_KEY: t.key });
    assert.equal(down.code, 69);
    assert.equal(down.stdout, '');
    assert.match(down.stderr, /could not be reached/);
  });

  test('the package bin runs the built bundle: `switchboard mcp` speaks MCP on stdout and nothing else', async () => {
    execFileSync('npm', ['run', 'build:server', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    const p = spawn(process.execPath, ['bin/switchboard.js', 'mcp'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', SWITCHBOARD_URL: srv.url, SWITCHBOARD_API_KEY: t.key }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    const lines = () => out.split('\n').filter(Boolean);
    const waitLines = async (n: number) => {
      for (let i = 0; i < 200 && lines().length < n; i++) await new Promise((r) => setTimeout(r, 50));
    };
    const send = (m: object) => p.stdin.write(JSON.stringify(m) + '\n');
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await waitLines(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ask', arguments: { prompt: 'Say hi.' } } });
    await waitLines(2);
    p.stdin.end();
    await new Promise((r) => p.on('exit', r));
    const msgs = lines().map((l) => JSON.parse(l));
    assert.deepEqual(msgs.map((m) => m.jsonrpc), ['2.0', '2.0'], 'every stdout line is a JSON-RPC message');
    assert.equal(msgs[0].result.serverInfo.name, 'switchboard');
    const callId = msgs[1].result.structuredContent.callId;
    const row = await srv.services.db.selectFrom('call_logs').select('channel').where('id', '=', callId).executeTakeFirstOrThrow();
    assert.equal(row.channel, 'mcp:chat');
  });
});

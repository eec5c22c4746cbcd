// Integration tiles (D14): status from real traffic and heartbeats, and the setup wizard whose
// blocks (Claude Desktop, Cursor, VS Code) carry this deployment's URL and a fresh key — used
// as-is to start the real MCP server, which turns the tile connected.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { credit, signupTenant, startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { openStream } from '../../../../test/sse-client.ts';
import { addMember } from '../../../../test/helpers.ts';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

async function tiles(token: string, projectId: string): Promise<Record<string, { status: string; lastSeenAt: string | null }>> {
  const r = await srv.api('GET', `/api/projects/${projectId}/integrations`, { token });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return Object.fromEntries(r.body.data.items.map((x: { tool: string; status: string; lastSeenAt: string | null }) => [x.tool, x]));
}
async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting for ${what}`);
}
const signIn = async (email: string, password: string) => (await srv.api('POST', '/api/auth/login', { body: { email, password } })).body.data.tokens.accessToken as string;

describe('the MCP server tile', () => {
  test('the wizard gives exact Claude Desktop, Cursor and VS Code blocks with this URL and a fresh key; starting that server connects the tile', async () => {
    const t = await signupTenant(srv, 'wiz');
    await credit(srv, t.tenantId, 5_000_000n);
    const stream = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
    await stream.next('connected');
    assert.equal((await tiles(t.accessToken, t.defaultProjectId)).mcp.status, 'not configured');

    const w = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/mcp/setup`, { token: t.accessToken, body: { environment: 'staging' } });
    assert.equal(w.status, 201, JSON.stringify(w.body));
    const d = w.body.data;
    assert.equal(d.baseUrl, srv.url);
    assert.ok(d.steps.length >= 3 && d.steps.length <= 5);
    const snippets = d.steps.flatMap((x: { snippets: unknown[] }) => x.snippets) as Array<{ client: string; content: string }>;
    const block = (client: string) => JSON.parse(snippets.find((x) => x.client === client)!.content);
    const claude = block('Claude Desktop').mcpServers.switchboard;
    const cursor = block('Cursor').mcpServers.switchboard;
    const vscode = block('VS Code').servers.switchboard;
    assert.deepEqual(cursor, claude);
    assert.deepEqual({ ...vscode, type: undefined }, { ...claude, type: undefined });
    assert.equal(vscode.type, 'stdio');
    assert.deepEqual([claude.command, ...claude.args], ['switchboard', 'mcp']);
    assert.equal(claude.env.SWITCHBOARD_URL, srv.url);
    assert.match(claude.env.SWITCHBOARD_API_KEY, /^svc_stage_/);
    // The key is fresh, of this project and environment, and audited.
    const key = await srv.services.db.selectFrom('api_keys').select(['id', 'project_id', 'environment', 'prefix']).where('id', '=', d.key.id).executeTakeFirstOrThrow();
    assert.equal(key.project_id, t.defaultProjectId);
    assert.equal(key.environment, 'staging');
    assert.ok(claude.env.SWITCHBOARD_API_KEY.startsWith(key.prefix));

    // The block, as a client would run it (the `switchboard` bin is the same entry point).
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', 'src/main.ts', ...claude.args], cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...claude.env }, stderr: 'pipe' });
    const client = new Client({ name: 'wizard-check', version: '1' });
    await client.connect(transport);
    try {
      const tile = (await tiles(t.accessToken, t.defaultProjectId)).mcp;
      assert.equal(tile.status, 'connected', 'the heartbeat at start-up connects the tile');
      const ev = JSON.parse((await stream.next('connector.connected', 5000)).data);
      assert.deepEqual(ev.payload, { tool: 'mcp', tier: 2, reason: 'heartbeat' });
      const r = await client.callTool({ name: 'ask', arguments: { prompt: 'Hello' } });
      assert.equal(r.isError, undefined);
    } finally {
      await client.close();
      stream.close();
    }
  });

  test('real MCP traffic connects the tile; 7 silent days or a revoked key disconnect it', async () => {
    const t = await tenantWithKey(srv);
    const openai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    await openai.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'via an MCP connector' }] }, { headers: { 'x-service-channel': 'mcp' } });
    await until(async () => (await tiles(t.accessToken, t.defaultProjectId)).mcp.status === 'connected', 'the mcp tile to connect from traffic');
    const all = await tiles(t.accessToken, t.defaultProjectId);
    assert.equal(all['openai-sdk'].status, 'not configured', 'an MCP call does not count for the OpenAI SDK tile');

    await openai.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'plain SDK call' }] });
    await until(async () => (await tiles(t.accessToken, t.defaultProjectId))['openai-sdk'].status === 'connected', 'the openai-sdk tile to connect from its traffic');

    srv.clock.advance(7 * 86_400_000 + 60_000);
    try {
      const token = await signIn(t.email, t.password);
      const later = await tiles(token, t.defaultProjectId);
      assert.equal(later.mcp.status, 'disconnected');
      assert.equal(later['openai-sdk'].status, 'disconnected');
      assert.equal(later['gemini-sdk'].status, 'not configured');
    } finally {
      srv.clock.advance(-(7 * 86_400_000 + 60_000));
    }

    const hb = await srv.api('POST', '/api/connector/heartbeat', { headers: { authorization: `Bearer ${t.key}`, 'x-service-channel': 'mcp' }, body: {} });
    assert.equal(hb.status, 200);
    assert.equal((await tiles(t.accessToken, t.defaultProjectId)).mcp.status, 'connected');
    assert.equal((await srv.api('DELETE', `/api/keys/${t.keyId}`, { token: t.accessToken })).status, 200);
    assert.equal((await tiles(t.accessToken, t.defaultProjectId)).mcp.status, 'disconnected', 'its key is gone');
  });

  test('the wizard creates keys, so it needs an admin; unknown tools and bad environments are 400s', async () => {
    const t = await tenantWithKey(srv);
    const bad = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/mcp/setup`, { token: t.accessToken, body: { environment: 'prod' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.success, false);
    assert.equal((await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/fax/setup`, { token: t.accessToken, body: {} })).status, 400);
    const other = await signupTenant(srv, 'other');
    assert.equal((await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/mcp/setup`, { token: other.accessToken, body: {} })).status, 404);
    const sdk = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/openai-sdk/setup`, { token: t.accessToken });
    assert.equal(sdk.status, 201);
    const code = sdk.body.data.steps.flatMap((x: { snippets: Array<{ content: string }> }) => x.snippets).map((x: { content: string }) => x.content).join('\n');
    assert.ok(code.includes(`${srv.url}/v1`) && /svc_dev_\w+/.test(code));
  });

  test('connection tests need an admin: a member or viewer gets the 403 envelope, and nothing is spent, minted or changed', async () => {
    const t = await tenantWithKey(srv);
    const member = await signupTenant(srv, 'member');
    const viewer = await signupTenant(srv, 'viewer');
    const asMember = (await addMember(srv, t, member, 'member')).tokens.accessToken;
    const asViewer = (await addMember(srv, t, viewer, 'viewer')).tokens.accessToken;
    const db = srv.services.db;
    const keysBefore = await db.selectFrom('api_keys').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    for (const token of [asMember, asViewer]) {
      for (const tool of ['mcp', 'openai-sdk', 'copy-paste']) {
        const r = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/${tool}/test`, { token });
        assert.equal(r.status, 403, `${tool}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.success, false);
        assert.equal(r.body.code, 'forbidden');
        assert.match(r.body.error, /admin/);
      }
    }
    const keysAfter = await db.selectFrom('api_keys').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.equal(keysAfter.n, keysBefore.n, 'the refused MCP test minted no key');
    const calls = await db.selectFrom('call_logs').select((e) => e.fn.countAll<string>().as('n')).where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.equal(Number(calls.n), 0, 'the refused tests made no call');
    const project = await srv.api('GET', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken });
    assert.equal(project.body.data.stage, 'onboarding');
    const owner = await srv.api('POST', `/api/projects/${t.defaultProjectId}/integrations/openai-sdk/test`, { token: t.accessToken });
    assert.equal(owner.status, 200, JSON.stringify(owner.body));
    assert.equal(owner.body.data.ok, true);
  });
});

// The /integrations screen (spec §1): one tile per tool with its tier and status, and a connection
// test that sends a dummy prompt end to end through the real pipeline (billed and ledgered like any
// call) with one of the project's own keys. A passing test connects the tool (connector.connected,
// onboarding → connected); removing it disconnects (connector.disconnected). A tile's status comes
// from what really happened (D14, app/connectors/connector-status.ts): calls on the tool's channel,
// its heartbeats and its connection tests.
import type { Services } from '../shared/index.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import { appError, AppError } from '../../core/errors.ts';
import { getProject } from '../projects/index.ts';
import { connectorConnected, connectorDisconnected } from '../projects/index.ts';
import { runCall } from '../calls/index.ts';
import { copyPaste } from './copy-paste.ts';
import { forgetTool, recordHeartbeat, TOOL_SOURCES, toolStatuses, type Channel } from './connector-status.ts';
import { addIntegrationTool, dropIntegrationTool, newestLiveKey } from './connectors.repo.ts';

/** The tools of the integrations screen and their connector tier (spec §1 "Connector tiers"). */
export const TOOLS = {
  'openai-sdk': { tier: 1, name: 'OpenAI SDK (chat completions)' },
  'anthropic-sdk': { tier: 1, name: 'Anthropic SDK (messages)' },
  'gemini-sdk': { tier: 1, name: 'Google Gen AI SDK (generate content)' },
  mcp: { tier: 2, name: 'MCP server' },
  'browser-extension': { tier: 3, name: 'Browser extension' },
  'desktop-bridge': { tier: 4, name: 'Desktop bridge' },
  'copy-paste': { tier: 5, name: 'Copy-paste' },
  advisory: { tier: 6, name: 'Advisory import' },
} as const;
export type Tool = keyof typeof TOOLS;
export const TOOL_IDS = Object.keys(TOOLS) as Tool[];

/**
 * The project's tiles in catalogue (tier) order, D9 pages: the cursor is the last tile's tool, so
 * the next page starts after it. Only the page's tools are looked up.
 */
export async function listIntegrations(s: Services, tenantId: string, projectId: string, page: PageQuery) {
  await getProject(s.db, tenantId, projectId);
  const after = decodeCursor(page.cursor, ['tool'] as const);
  const from = after ? TOOL_IDS.indexOf(after.tool as Tool) + 1 : 0;
  if (after && from === 0) throw appError('validation', 'cursor is not valid', { field: 'cursor' });
  const tools = TOOL_IDS.slice(from, from + page.limit + 1);
  const st = await toolStatuses(s, tenantId, projectId, tools.slice(0, page.limit));
  return toPage(tools, page.limit, (id) => ({ tool: id, name: TOOLS[id].name, tier: TOOLS[id].tier, status: st.get(id)!.status, lastSeenAt: st.get(id)!.lastSeenAt }), (id) => ({ tool: id }));
}

/**
 * A connector spoke for itself (a heartbeat on its channel, D14): note it, and when this connects
 * it (first time, or after 7 silent days) say so on the project's stream.
 */
export async function connectorSeen(s: Services, c: { tenantId: string; projectId: string; channel: Channel; keyId: string | null; sessionId?: string | null }) {
  const tool = TOOL_IDS.find((t) => TOOL_SOURCES[t].primary === c.channel);
  const fresh = await recordHeartbeat(s, { tenantId: c.tenantId, projectId: c.projectId, source: c.channel, keyId: c.keyId, sessionId: c.sessionId ?? null });
  if (fresh && tool) await connectorConnected(s, null, { tenantId: c.tenantId, projectId: c.projectId, tool, tier: TOOLS[tool].tier, reason: 'heartbeat' });
}

/** What a connection test exercised and how it went (D14: each tile through its own path). */
export interface ConnectionTestResult {
  ok: boolean;
  tool: Tool;
  /** 'proxy:<surface>', 'mcp', 'copy-paste' or 'evidence' (a connector that runs on the user's machine and tests itself). */
  path: string;
  latencyMs: number;
  callId: string | null;
  error: string | null;
  message: string;
}

/** Paths the HTTP layer provides: the MCP server runs in-process against this deployment's own address. */
export interface ConnectionProbes {
  mcp?: (project: { tenantId: string; projectId: string }) => Promise<{ callId: string }>;
}

const PROMPT = 'Connection test: reply with the single word OK.';
const SDK_CALLS = {
  'openai-sdk': { shape: 'openai', surface: 'chat', body: { model: 'connection-test', max_tokens: 16, messages: [{ role: 'user', content: PROMPT }] } },
  'anthropic-sdk': { shape: 'anthropic', surface: 'messages', body: { model: 'connection-test', max_tokens: 16, messages: [{ role: 'user', content: PROMPT }] } },
  'gemini-sdk': { shape: 'gemini', surface: 'generate', body: { contents: [{ role: 'user', parts: [{ text: PROMPT }] }], generationConfig: { maxOutputTokens: 16 } } },
} as const;

/** Self-testing connectors: what the user does on their machine, since the service cannot drive it. */
const SELF_TESTED: Partial<Record<Tool, string>> = {
  'browser-extension': 'The extension tests its own connection when you save its options (URL, key and enabled sites); a call from an enabled site does too.',
  'desktop-bridge': 'The desktop bridge connects when you run `switchboard bridge` and approve its code at /device.',
  advisory: 'The advisory tile connects with an import: upload a call history at /advisory or with `switchboard advisory <file>`.',
};

export async function testConnection(s: Services, input: { tenantId: string; projectId: string; tool: Tool; userId: string }, probes: ConnectionProbes = {}): Promise<ConnectionTestResult> {
  await getProject(s.db, input.tenantId, input.projectId);
  const started = Date.now();
  const tool = input.tool;
  const done = (r: Omit<ConnectionTestResult, 'tool' | 'latencyMs'>): ConnectionTestResult => ({ tool, latencyMs: Date.now() - started, ...r });

  const selfTest = SELF_TESTED[tool];
  if (selfTest) {
    // Never "connected" on the strength of some other path: only this connector's own evidence counts.
    const st = (await toolStatuses(s, input.tenantId, input.projectId, [tool])).get(tool)!;
    return st.status === 'connected'
      ? done({ ok: true, path: 'evidence', callId: null, error: null, message: `${TOOLS[tool].name} was last heard from at ${st.lastSeenAt}.` })
      : done({ ok: false, path: 'evidence', callId: null, error: `${TOOLS[tool].name} has not connected to this project${st.status === 'disconnected' ? ' recently' : ' yet'}.`, message: selfTest });
  }

  let callId: string;
  let path: string;
  let keyId: string | null = null;
  try {
    if (tool === 'mcp') {
      if (!probes.mcp) throw appError('upstream_unconfigured', 'The MCP connection test is not available on this server');
      path = 'mcp';
      callId = (await probes.mcp({ tenantId: input.tenantId, projectId: input.projectId })).callId;
    } else if (tool === 'copy-paste') {
      path = 'copy-paste';
      callId = (await copyPaste(s, { tenantId: input.tenantId, userId: input.userId, projectId: input.projectId, prompt: PROMPT, channel: 'copy-paste:connection-test', signal: AbortSignal.timeout(30_000) })).callId;
    } else {
      const c = SDK_CALLS[tool as keyof typeof SDK_CALLS];
      path = `proxy:${c.surface}`;
      const key = await newestLiveKey(s.db, input.tenantId, input.projectId, s.clock.now());
      if (!key) throw appError('conflict', 'Create a key for this project first (the setup wizard makes one): the test runs the way your SDK will, with a key');
      keyId = key.id;
      const out = await runCall(
        s,
        s.calls,
        {
          shape: c.shape,
          surface: c.surface,
          vendorLocked: false,
          // Attributed to the tile's own surface (`proxy:messages:connection-test`), never counted as its traffic.
          channel: `proxy:${c.surface}:connection-test`,
          principal: { keyId: key.id, tenantId: input.tenantId, projectId: input.projectId, environment: key.environment, expiresAt: null, revokedAt: null },
          parseCtx: c.shape === 'gemini' ? { model: 'connection-test', stream: false } : undefined,
          signal: AbortSignal.timeout(30_000),
          body: structuredClone(c.body),
        },
        () => {
          throw new Error('the connection test is not streamed');
        },
      );
      if (out.kind !== 'json') throw appError('upstream_failed');
      callId = out.headers['x-service-call-id'];
    }
  } catch (e) {
    if (e instanceof AppError && (e.status === 402 || e.status >= 500)) return done({ ok: false, path: tool === 'mcp' ? 'mcp' : tool, callId: null, error: e.message, message: 'The test call did not go through.' });
    throw e;
  }
  await addIntegrationTool(s.db, input.tenantId, input.projectId, tool, s.clock.now());
  await recordHeartbeat(s, { tenantId: input.tenantId, projectId: input.projectId, source: TOOL_SOURCES[tool].primary, keyId });
  await connectorConnected(s, null, { tenantId: input.tenantId, projectId: input.projectId, tool, tier: TOOLS[tool].tier, reason: 'connection_test', actorUserId: input.userId });
  return done({ ok: true, path, callId, error: null, message: `A test prompt went through ${TOOLS[tool].name}'s own path end to end and was billed like any call.` });
}

export async function removeIntegration(s: Services, input: { tenantId: string; projectId: string; tool: Tool; userId: string }) {
  const p = await getProject(s.db, input.tenantId, input.projectId);
  const seen = (await toolStatuses(s, input.tenantId, input.projectId, [input.tool])).get(input.tool)!.status !== 'not configured';
  if (!p.integrations.includes(input.tool) && !seen) throw appError('not_found', 'That tool is not connected to this project');
  await forgetTool(s, input.tenantId, input.projectId, input.tool);
  await dropIntegrationTool(s.db, input.tenantId, input.projectId, input.tool, s.clock.now());
  await connectorDisconnected(s, null, { tenantId: input.tenantId, projectId: input.projectId, tool: input.tool, tier: TOOLS[input.tool].tier, reason: 'removed', actorUserId: input.userId });
}

// The /integrations screen (spec §1): one tile per tool with its tier and status, and a connection
// test that sends a dummy prompt end to end through the real pipeline (billed and ledgered like any
// call) with one of the project's own keys. A passing test connects the tool (connector.connected,
// onboarding → connected); removing it disconnects (connector.disconnected). A tile's status comes
// from what really happened (D14, app/connectors/connector-status.ts): calls on the tool's channel,
// its heartbeats and its connection tests.
import { sql } from 'kysely';
import type { Services } from '../shared/services.ts';
import { appError, AppError } from '../../core/errors.ts';
import { getProject } from '../projects/projects.ts';
import { connectorConnected, connectorDisconnected } from '../projects/stages.ts';
import { runCall } from '../calls/pipeline.ts';
import { forgetTool, recordHeartbeat, TOOL_SOURCES, toolStatuses, type Channel } from './connector-status.ts';

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

export async function listIntegrations(s: Services, tenantId: string, projectId: string) {
  await getProject(s.db, tenantId, projectId);
  const st = await toolStatuses(s, tenantId, projectId, TOOL_IDS);
  return TOOL_IDS.map((id) => ({ tool: id, name: TOOLS[id].name, tier: TOOLS[id].tier, status: st.get(id)!.status, lastSeenAt: st.get(id)!.lastSeenAt }));
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

export async function testConnection(s: Services, input: { tenantId: string; projectId: string; tool: Tool; userId: string }) {
  await getProject(s.db, input.tenantId, input.projectId);
  const key = await s.db
    .selectFrom('api_keys')
    .select(['id', 'environment'])
    .where('tenant_id', '=', input.tenantId)
    .where('project_id', '=', input.projectId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', s.clock.now())]))
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!key) throw appError('conflict', 'Create an API key for this project first: the test runs with one of its keys');
  const started = Date.now();
  try {
    const out = await runCall(
      s,
      s.calls,
      {
        shape: 'openai',
        surface: 'chat',
        vendorLocked: false,
        // Attributed to the tool's own channel (`mcp:connection-test`), never counted as its traffic.
        channel: `${TOOL_SOURCES[input.tool].channel}:connection-test`,
        principal: { keyId: key.id, tenantId: input.tenantId, projectId: input.projectId, environment: key.environment, expiresAt: null, revokedAt: null },
        signal: AbortSignal.timeout(30_000),
        body: { model: 'connection-test', max_tokens: 16, messages: [{ role: 'user', content: 'Connection test: reply with the single word OK.' }] },
      },
      () => {
        throw new Error('the connection test is not streamed');
      },
    );
    if (out.kind !== 'json') throw appError('upstream_failed');
    await sql`update projects set integrations = (select jsonb_agg(distinct v) from jsonb_array_elements_text(integrations || ${JSON.stringify([input.tool])}::jsonb) v), updated_at = ${s.clock.now()}
               where id = ${input.projectId} and tenant_id = ${input.tenantId}`.execute(s.db);
    await recordHeartbeat(s, { tenantId: input.tenantId, projectId: input.projectId, source: TOOL_SOURCES[input.tool].primary, keyId: key.id });
    await connectorConnected(s, null, { tenantId: input.tenantId, projectId: input.projectId, tool: input.tool, tier: TOOLS[input.tool].tier, reason: 'connection_test', actorUserId: input.userId });
    return { ok: true, tool: input.tool, latencyMs: Date.now() - started, callId: out.headers['x-service-call-id'], error: null };
  } catch (e) {
    if (e instanceof AppError && (e.status === 402 || e.status >= 500)) {
      return { ok: false, tool: input.tool, latencyMs: Date.now() - started, callId: null, error: e.message };
    }
    throw e;
  }
}

export async function removeIntegration(s: Services, input: { tenantId: string; projectId: string; tool: Tool; userId: string }) {
  const p = await getProject(s.db, input.tenantId, input.projectId);
  const seen = (await toolStatuses(s, input.tenantId, input.projectId, [input.tool])).get(input.tool)!.status !== 'not configured';
  if (!p.integrations.includes(input.tool) && !seen) throw appError('not_found', 'That tool is not connected to this project');
  await forgetTool(s, input.tenantId, input.projectId, input.tool);
  await sql`update projects set integrations = coalesce((select jsonb_agg(v) from jsonb_array_elements_text(integrations) v where v <> ${input.tool}), '[]'::jsonb), updated_at = ${s.clock.now()}
             where id = ${input.projectId} and tenant_id = ${input.tenantId}`.execute(s.db);
  await connectorDisconnected(s, null, { tenantId: input.tenantId, projectId: input.projectId, tool: input.tool, tier: TOOLS[input.tool].tier, reason: 'removed', actorUserId: input.userId });
}

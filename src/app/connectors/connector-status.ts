// Integration tile status from what really happened (D14): a tool is `connected` while its
// connector has made a call, sent a heartbeat or passed its connection test within the last 7
// days (it becomes connected on the first of these, so within 24 hours of it) with a credential
// that still works; `disconnected` once it was seen and then went silent for 7 days, or lost its
// key or session; `not configured` when it was never seen.
//
// Evidence lives in connector_heartbeats, one row per project and source: a connector's own
// heartbeat ('mcp') or a call's full channel ('proxy:chat', 'mcp:chat'); it is written by
// events/connector-activity.ts (calls note themselves there without importing this domain).
import type { Services } from '../shared/index.ts';
import type { Channel } from '../events/index.ts';
import { SILENT_AFTER_MS } from '../events/index.ts';
import { deleteHeartbeats, heartbeatChannels, heartbeatEvidence } from './connectors.repo.ts';

export { recordHeartbeat, SILENT_AFTER_MS } from '../events/index.ts';
export type { Channel };


/** Which sources speak for a tile: a channel, and for the proxy's SDK tiles the surfaces. */
export const TOOL_SOURCES: Record<string, { channel: Channel; surfaces?: readonly string[]; primary: string }> = {
  'openai-sdk': { channel: 'proxy', surfaces: ['chat', 'responses'], primary: 'proxy:chat' },
  'anthropic-sdk': { channel: 'proxy', surfaces: ['messages'], primary: 'proxy:messages' },
  'gemini-sdk': { channel: 'proxy', surfaces: ['generate'], primary: 'proxy:generate' },
  mcp: { channel: 'mcp', primary: 'mcp' },
  'browser-extension': { channel: 'extension', primary: 'extension' },
  'desktop-bridge': { channel: 'bridge', primary: 'bridge' },
  'copy-paste': { channel: 'copy-paste', primary: 'copy-paste' },
  advisory: { channel: 'advisory', primary: 'advisory' },
};

const speaksFor = (tool: string, source: string): boolean => {
  const t = TOOL_SOURCES[tool];
  if (!t) return false;
  const [head, surface] = source.split(':');
  return head === t.channel && (!t.surfaces || (surface !== undefined && t.surfaces.includes(surface)));
};

export type TileStatus = 'connected' | 'disconnected' | 'not configured';

/** Status and last-seen time of each tool of a project. */
export async function toolStatuses(s: Services, tenantId: string, projectId: string, tools: readonly string[]): Promise<Map<string, { status: TileStatus; lastSeenAt: string | null }>> {
  const now = s.clock.now();
  const rows = await heartbeatEvidence(s.db, tenantId, projectId, now);
  const out = new Map<string, { status: TileStatus; lastSeenAt: string | null }>();
  for (const tool of tools) {
    // The latest source speaking for the tool decides: its time and its credential.
    let last: (typeof rows)[number] | null = null;
    for (const r of rows) if (speaksFor(tool, r.channel) && (!last || r.last_seen_at > last.last_seen_at)) last = r;
    if (!last) out.set(tool, { status: 'not configured', lastSeenAt: null });
    else {
      const fresh = now.getTime() - last.last_seen_at.getTime() <= SILENT_AFTER_MS;
      out.set(tool, { status: fresh && last.credential_ok ? 'connected' : 'disconnected', lastSeenAt: last.last_seen_at.toISOString() });
    }
  }
  return out;
}

/** Forget a tool's evidence (the tile's "remove"). */
export async function forgetTool(s: Services, tenantId: string, projectId: string, tool: string): Promise<void> {
  const rows = await heartbeatChannels(s.db, tenantId, projectId);
  const mine = rows.map((r) => r.channel).filter((c) => speaksFor(tool, c));
  if (mine.length) await deleteHeartbeats(s.db, projectId, mine);
}

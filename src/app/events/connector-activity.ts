// Evidence that a connector is alive (D14 tile status): one connector_heartbeats row per project
// and source, a connector's own heartbeat ('mcp') or a settled call's full channel ('proxy:chat',
// 'mcp:chat'). Calls note themselves after settlement, at most once a minute per project and
// source per process, without waiting, so the proxy's hot path pays one map lookup. Here, below
// both calls/ and connectors/, so the call path can write it without a circle between them.
import { mapPerServices, type Services } from '../shared/index.ts';
import { CHANNELS } from './events.ts';
import { upsertHeartbeat } from './events.repo.ts';

/** How long a connector stays connected after it was last seen. */
export const SILENT_AFTER_MS = 7 * 86_400_000;
/** Calls refresh their source's row at most this often (per process). */
const NOTE_EVERY_MS = 60_000;

const isChannel = (c: string) => (CHANNELS as readonly string[]).includes(c);

/**
 * Note that a source was seen. Returns true when this makes it (newly) connected: no row before,
 * or the last one older than SILENT_AFTER_MS.
 */
export async function recordHeartbeat(
  s: Services,
  input: { tenantId: string; projectId: string; source: string; keyId: string | null; sessionId?: string | null },
): Promise<boolean> {
  const now = s.clock.now();
  const was = await upsertHeartbeat(s.db, { tenantId: input.tenantId, projectId: input.projectId, source: input.source, keyId: input.keyId, sessionId: input.sessionId ?? null, now });
  return was === null || now.getTime() - was.getTime() > SILENT_AFTER_MS;
}

const noted = mapPerServices<number>();
/** After a settled call: refresh the row of the call's channel, throttled, never awaited. */
export function noteCallSource(s: Services, c: { tenantId: string; projectId: string; keyId: string | null; channel: string }): void {
  if (!isChannel(c.channel.split(':')[0]) || c.channel.endsWith(':connection-test')) return;
  const m = noted(s);
  const k = `${c.projectId}|${c.channel}`;
  const now = Date.now();
  if (now - (m.get(k) ?? 0) < NOTE_EVERY_MS) return;
  if (m.size > 100_000) m.clear();
  m.set(k, now);
  recordHeartbeat(s, { tenantId: c.tenantId, projectId: c.projectId, source: c.channel, keyId: c.keyId }).catch((e) => {
    m.delete(k);
    s.log.warn(e, 'connector activity not recorded');
  });
}


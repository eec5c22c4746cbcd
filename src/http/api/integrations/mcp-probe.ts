// The MCP tile's connection test through the MCP server's own path (D14): the real server
// (createMcpServer, as `switchboard mcp` runs it) behind an in-memory MCP client calls its `ask`
// tool, whose service client speaks HTTP to this very process on its own address with channel
// `mcp`, as on a user's machine. It holds a key made for the test and revoked right after; the
// key never speaks for the tile (the tile's evidence is the passed test itself).
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import type { Services } from '../../../app/shared/index.ts';
import { audit } from '../../../app/identity/index.ts';
import { createKey, revokeKey } from '../../../app/identity/index.ts';
import { appError } from '../../../core/errors.ts';
import { createMcpServer } from '../../../connectors/mcp/server.ts';
import { ServiceClient } from '../../../connectors/mcp/service-client.ts';
import type { App } from '../common.ts';
import pkg from '../../../../package.json' with { type: 'json' };

/** This process's own address, reachable from itself (a wildcard bind is reached on loopback). */
function ownUrl(app: App): string {
  const a = app.server.address() as AddressInfo | null;
  if (!a || typeof a === 'string') throw appError('upstream_unconfigured', 'The server is not listening on a TCP port');
  const host = a.address === '0.0.0.0' || a.address === '::' ? '127.0.0.1' : a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}`;
}

export function mcpProbe(app: App, s: Services, actor: { userId: string; ip: string; userAgent: string | null }) {
  return async (p: { tenantId: string; projectId: string }): Promise<{ callId: string }> => {
    const k = await createKey(s.db, { tenantId: p.tenantId, projectId: p.projectId, name: 'MCP connection test (revoked after the test)', environment: 'dev' });
    await audit(s.db, s.secrets.ledger, { userId: actor.userId, tenantId: p.tenantId, event: 'key_created', at: s.clock.now(), detail: { keyId: k.record.id, connectionTest: 'mcp' }, ip: actor.ip, userAgent: actor.userAgent });
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const server = await createMcpServer(new ServiceClient(ownUrl(app), { bearer: () => k.key }, 'mcp'), pkg.version);
    const client = new Client({ name: 'switchboard-connection-test', version: pkg.version });
    const [a, b] = InMemoryTransport.createLinkedPair();
    try {
      await Promise.all([server.connect(a), client.connect(b)]);
      const r = await client.callTool({ name: 'ask', arguments: { prompt: 'Connection test: reply with the single word OK.', maxTokens: 16 } });
      const text = (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join(' ');
      if (r.isError) throw appError('upstream_failed', `The MCP server's ask tool failed: ${text}`);
      const callId = (r.structuredContent as { callId?: unknown } | undefined)?.callId;
      if (typeof callId !== 'string') throw appError('upstream_failed', 'The MCP server answered without a call id');
      return { callId };
    } finally {
      await client.close().catch(() => undefined);
      await server.close().catch(() => undefined);
      // The call noted its source (`mcp:chat`) with the test's key, off the answer's path: give it
      // a moment, then detach the key from that evidence before revoking it.
      for (let i = 0; i < 10; i++) {
        const seen = await s.db.selectFrom('connector_heartbeats').select('channel').where('key_id', '=', k.record.id).executeTakeFirst();
        if (seen) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await sql`update connector_heartbeats set key_id = null where key_id = ${k.record.id}`.execute(s.db);
      await revokeKey(s.db, s.clock, s.keyCache, p.tenantId, k.record.id);
      await audit(s.db, s.secrets.ledger, { userId: actor.userId, tenantId: p.tenantId, event: 'key_revoked', at: s.clock.now(), detail: { keyId: k.record.id, connectionTest: 'mcp' }, ip: actor.ip, userAgent: actor.userAgent });
    }
  };
}

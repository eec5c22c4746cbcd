// The developer zone's catalogues (D13): GET /api/models/catalogue (the Model Marketplace,
// filterable by provider, modelClass and capability) and GET /api/tools (connectors and CLI tools
// with setup snippets, and the MCP server's tools as the server itself lists them). Any member.
import { marketplace } from '../../../core/pricing/catalogue.ts';
import { BRANDS } from '../../../core/providers.ts';
import { toolCatalogue, type McpToolInfo } from '../../../app/connectors/index.ts';
import { createMcpServer } from '../../../connectors/mcp/server.ts';
import type { ServiceClient } from '../../../connectors/mcp/service-client.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { catalogue, catalogueQuery, toolsList } from './schemas.ts';
import pkg from '../../../../package.json' with { type: 'json' };

/** The MCP server's tools, listed by the server over MCP in memory (no service call: listing runs no tool). */
let mcpTools: Promise<McpToolInfo[]> | null = null;
function listMcpTools(): Promise<McpToolInfo[]> {
  mcpTools ??= (async () => {
    // The MCP SDK is loaded on the first listing, not by every serving process (docs/performance.md).
    const [{ Client }, { InMemoryTransport }] = await Promise.all([import('@modelcontextprotocol/sdk/client/index.js'), import('@modelcontextprotocol/sdk/inMemory.js')]);
    const server = await createMcpServer({} as ServiceClient, pkg.version);
    const client = new Client({ name: 'switchboard-tools-catalogue', version: pkg.version });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const { tools } = await client.listTools();
      return tools.map((t) => {
        const props = (t.inputSchema.properties ?? {}) as Record<string, { type?: unknown; description?: unknown; anyOf?: Array<{ type?: unknown; const?: unknown }> }>;
        const required = new Set(t.inputSchema.required ?? []);
        return {
          name: t.name,
          title: t.title ?? null,
          description: t.description ?? '',
          inputs: Object.entries(props).map(([name, p]) => ({
            name,
            type: typeof p.type === 'string' ? p.type : p.anyOf ? p.anyOf.map((x) => String(x.const ?? x.type)).join(' | ') : 'any',
            required: required.has(name),
            description: typeof p.description === 'string' ? p.description : null,
          })),
        };
      });
    } finally {
      await client.close();
      await server.close();
    }
  })().catch((e: unknown) => {
    mcpTools = null;
    throw e;
  });
  return mcpTools;
}

const scripts: Record<string, string> = (pkg as { scripts?: Record<string, string> }).scripts ?? {};

const route: RouteModule = (app, s) => {
  app.get('/api/models/catalogue', { schema: { querystring: catalogueQuery, response: { 200: envelope(catalogue) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(marketplace(BRANDS, (p) => s.calls.providers.has(p), req.query)),
  );
  app.get('/api/tools', { schema: { response: { 200: envelope(toolsList) } }, onRequest: requireAuth(s) }, async () =>
    ok({
      items: toolCatalogue(s.publicUrl.replace(/\/+$/, ''), {
        mcpTools: await listMcpTools(),
        // Tiers 3 and 6 are offered once this deployment ships them (issue 17).
        extensionBuilt: 'build:extension' in scripts,
        advisoryBuilt: app.routeList.some((r) => r.method === 'POST' && r.url === '/api/advisory/imports'),
      }),
    }),
  );
};
export default route;

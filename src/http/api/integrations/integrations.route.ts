// GET /api/projects/:id/integrations (tiles, D9 pages in catalogue order), POST /api/projects/:id/integrations/:tool/test (the
// end-to-end connection test), DELETE /api/projects/:id/integrations/:tool (disconnect).
import { z } from 'zod';
import { listIntegrations, removeIntegration, testConnection, TOOL_IDS } from '../../../app/connectors/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { mcpProbe } from './mcp-probe.ts';
import { emptyData, envelope, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const toolParams = z.strictObject({ id: z.uuid({ message: 'must be a UUID' }), tool: z.enum(TOOL_IDS) });
const tile = z.object({ tool: z.string(), name: z.string(), tier: z.number().int(), status: z.enum(['connected', 'disconnected', 'not configured']), lastSeenAt: z.string().nullable() });
const result = z.object({
  ok: z.boolean(),
  tool: z.string(),
  path: z.string().describe("what was exercised: 'proxy:<surface>', 'mcp', 'copy-paste', or 'evidence' for connectors that test themselves on the user's machine"),
  latencyMs: z.number(),
  callId: z.string().nullable(),
  error: z.string().nullable(),
  message: z.string(),
});

const route: RouteModule = (app, s) => {
  app.get(
    '/api/projects/:id/integrations',
    { schema: { params: z.strictObject({ id: z.uuid() }), querystring: pageQuerySchema, response: { 200: envelope(pageOf(tile)) } }, onRequest: requireAuth(s) },
    async (req) => ok(await listIntegrations(s, authOf(req).tenantId, req.params.id, req.query)),
  );
  // The test is a change, not a read (decisions: members read; admins and owners change projects
  // and keys): it makes a billed call, can move the project's stage and the tile's status, and the
  // MCP test mints (then revokes) a service key. So it needs an admin, like the setup wizard.
  app.post('/api/projects/:id/integrations/:tool/test', { schema: { params: toolParams, response: { 200: envelope(result) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    const ctx = authOf(req);
    return ok(await testConnection(s, { tenantId: ctx.tenantId, projectId: req.params.id, tool: req.params.tool, userId: ctx.userId }, { mcp: mcpProbe(app, s, { userId: ctx.userId, ...metaOf(req) }) }));
  });
  app.delete('/api/projects/:id/integrations/:tool', { schema: { params: toolParams, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    const ctx = authOf(req);
    await removeIntegration(s, { tenantId: ctx.tenantId, projectId: req.params.id, tool: req.params.tool, userId: ctx.userId });
    return ok({});
  });
};
export default route;

// POST /api/projects/:id/integrations/:tool/setup {environment?}: the tile's setup wizard (D14).
// It creates a fresh key for the project and environment (admins, as POST /api/keys; audited)
// and returns the wizard's steps with this deployment's URL and that key in every snippet.
import { z } from 'zod';
import { audit } from '../../../app/identity/index.ts';
import { createKey } from '../../../app/identity/index.ts';
import { getProject } from '../../../app/projects/index.ts';
import { TOOLS } from '../../../app/connectors/index.ts';
import { WIZARD_TOOLS, wizardSteps } from '../../../app/connectors/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

const params = z.strictObject({ id: z.uuid({ message: 'must be a UUID' }), tool: z.enum(WIZARD_TOOLS) });
const body = z.strictObject({ environment: z.enum(['dev', 'staging', 'production']).default('dev') }).nullish();
const snippet = z.object({ client: z.string(), path: z.string().nullable(), language: z.string(), content: z.string() });
const wizard = z.object({
  tool: z.string(),
  name: z.string(),
  baseUrl: z.string(),
  key: z.object({ id: z.string(), name: z.string(), environment: z.string(), prefix: z.string() }),
  steps: z.array(z.object({ title: z.string(), text: z.string(), snippets: z.array(snippet) })),
});

const route: RouteModule = (app, s) =>
  app.post(
    '/api/projects/:id/integrations/:tool/setup',
    { schema: { params, body, response: { 201: envelope(wizard) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req, reply) => {
      const ctx = authOf(req);
      const project = await getProject(s.db, ctx.tenantId, req.params.id);
      const tool = req.params.tool;
      const environment = req.body?.environment ?? 'dev';
      const name = `${TOOLS[tool].name} (setup ${s.clock.now().toISOString().slice(0, 10)})`;
      const k = await createKey(s.db, { tenantId: ctx.tenantId, projectId: project.id, name, environment });
      await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'key_created', at: s.clock.now(), detail: { keyId: k.record.id, wizard: tool }, ...metaOf(req) });
      return reply.status(201).send(
        ok({
          tool,
          name: TOOLS[tool].name,
          baseUrl: s.publicUrl.replace(/\/+$/, ''),
          key: { id: k.record.id, name, environment, prefix: k.record.prefix },
          steps: wizardSteps(tool, s.publicUrl.replace(/\/+$/, ''), k.key, name),
        }),
      );
    },
  );
export default route;

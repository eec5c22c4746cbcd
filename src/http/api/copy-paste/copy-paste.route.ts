// POST /api/copy-paste {projectId, prompt, system?} (D13, tier 5): a routed call on channel
// `copy-paste`, billed and ledgered like any other (app/connectors/copy-paste.ts). Members and up:
// it spends the wallet. The tenant's per-minute limit of the chat surface applies, as on the proxy.
import { copyPaste } from '../../../app/connectors/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { rateLimit } from '../../proxy/scope.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { copyPasteAnswer, copyPasteBody } from './schemas.ts';

const route: RouteModule = (app, s) =>
  app.post('/api/copy-paste', { schema: { body: copyPasteBody, response: { 200: envelope(copyPasteAnswer) } }, onRequest: requireAuth(s, { role: 'member' }) }, async (req, reply) => {
    const ctx = authOf(req);
    await rateLimit(s, reply, 'chat', ctx.tenantId);
    // The upstream call stops when the browser goes away, as a proxied call does.
    const abort = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const { projectId, prompt, system } = req.body;
    return ok(await copyPaste(s, { tenantId: ctx.tenantId, userId: ctx.userId, projectId, prompt, system: system ?? null, signal: abort.signal }));
  });
export default route;

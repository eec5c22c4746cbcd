// POST /api/advisory/imports: upload a call history (NDJSON or CSV, D14 tier 6) as the raw request
// body; it is read as a stream, never held whole (see app/connectors/advisory-import.ts), and
// queued for the worker. 202 with the import's id; poll GET /api/advisory/imports/:id for the
// report. GET /api/advisory/imports lists the caller's imports, newest first.
// Auth: a service key of the project, or a signed-in member (token, PAT or session cookie).
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { formatOf, receiveImport } from '../../../app/connectors/index.ts';
import { getImport } from '../../../app/connectors/index.ts';
import { listImportSummaries, summaryOf } from '../../../app/connectors/index.ts';
import { listImports } from '../../../app/connectors/index.ts';
import { appError } from '../../../core/errors.ts';
import { envelope, ok, type App, type RouteModule } from '../common.ts';
import { importSummary } from './schemas.ts';
import { requireUserOrKey, tenantOf, uploaderOf } from './access.ts';

const uploadQuery = z.strictObject({
  format: z.enum(['ndjson', 'csv']).optional(),
  filename: z.string().trim().min(1).max(200).optional(),
  projectId: z.uuid({ message: 'must be a UUID' }).optional(),
});
const listQuery = z.strictObject({ limit: z.coerce.number().int().min(1).max(100).default(20) });

/** The first chunk tells the format when neither the query nor the Content-Type does. */
async function* withFirst(first: Buffer | undefined, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  if (first) yield first;
  for (;;) {
    const n = await rest.next();
    if (n.done) return;
    yield n.value;
  }
}

const route: RouteModule = (app, s) => {
  // Its own scope: the body is a stream for this route only, whatever its Content-Type.
  app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    scope.post(
      '/api/advisory/imports',
      {
        schema: {
          description:
            'Upload a call history to see what Switchboard would have done and saved (D14 tier 6). Send the file as the raw body: NDJSON ({request, response} log lines of the three wire shapes, or OpenAI Batch output lines) or CSV with the header timestamp,provider,model,prompt,completion,input_tokens,output_tokens. Up to 100,000 rows. Nothing is sent upstream and the wallet is not touched.',
          querystring: uploadQuery,
          response: { 202: envelope(importSummary.extend({ reportUrl: z.string() })) },
        },
        onRequest: requireUserOrKey(s, 'member'),
      },
      async (req, reply) => {
        const who = await uploaderOf(s, req, req.query.projectId);
        const body = req.body as Readable | undefined;
        if (!body || typeof (body as Readable)[Symbol.asyncIterator] !== 'function') throw appError('validation', 'Send the file as the request body (NDJSON or CSV)');
        const it = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
        const head = await it.next();
        const first = head.done ? undefined : head.value;
        const format = formatOf(req.query.format, req.headers['content-type'], first?.[0]);
        const r = await receiveImport(s, who, { source: withFirst(first, it), format, filename: req.query.filename ?? null });
        const imp = await getImport(s.db, who.tenantId, r.id);
        if (!imp) throw appError('not_found');
        return reply.code(202).send(ok({ ...summaryOf(imp), reportUrl: `/api/advisory/imports/${r.id}` }));
      },
    );
  });

  app.get(
    '/api/advisory/imports',
    { schema: { querystring: listQuery, response: { 200: envelope(z.object({ items: z.array(importSummary) })) } }, onRequest: requireUserOrKey(s, 'viewer') },
    async (req) => {
      const k = req.advisoryKey;
      if (k) return ok({ items: (await listImports(s.db, k.tenantId, 500)).filter((i) => i.project_id === k.projectId).slice(0, req.query.limit).map(summaryOf) });
      return ok({ items: await listImportSummaries(s.db, tenantOf(req), req.query.limit) });
    },
  );
};
export default route;

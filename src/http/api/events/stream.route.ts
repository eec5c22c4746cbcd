// GET /api/service/projects/:id/events: the project's Server-Sent Events stream (spec §6).
// Authenticated like every /api route (Bearer or the sb_access cookie, which EventSource sends
// with credentials); a project of another tenant is a 404, exactly like one that does not exist.
// Resume with the Last-Event-ID header, or `?lastEventId=` for EventSource polyfills. Open streams
// are capped per user and per tenant (stream-slots.ts): 429 with Retry-After beyond the cap.
import { z } from 'zod';
import { getProject } from '../../../app/projects/index.ts';
import { appError } from '../../../core/errors.ts';
import { ACCESS_COOKIE, authOf, bearer, requireAuth } from '../../plugins/auth.ts';
import { idParams, type RouteModule } from '../common.ts';
import { serveEventStream } from './stream.ts';
import { takeStreamSlot } from './stream-slots.ts';

const query = z.object({ lastEventId: z.string().max(64).optional() });

const acceptsEventStream = (accept: string | undefined) => !accept || /(^|,)\s*(text\/event-stream|text\/\*|\*\/\*)\s*(;|,|$)/i.test(accept);

const route: RouteModule = (app, s) => {
  app.get('/api/service/projects/:id/events', { schema: { params: idParams, querystring: query }, onRequest: requireAuth(s) }, async (req, reply) => {
    const auth = authOf(req);
    if (!acceptsEventStream(req.headers.accept)) throw appError('not_acceptable');
    await getProject(s.db, auth.tenantId, req.params.id);
    const header = req.headers['last-event-id'];
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? req.query.lastEventId ?? null;
    const credential = (bearer(req) ?? req.cookies[ACCESS_COOKIE])!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) headers[k] = String(v);
    const release = takeStreamSlot(s, auth);
    reply.hijack();
    serveEventStream(s, req.raw, reply.raw, { auth, credential, projectId: req.params.id, lastEventId, headers, onClose: release });
  });
};
export default route;

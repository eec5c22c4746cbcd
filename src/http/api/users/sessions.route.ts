// GET /api/users/me/sessions and DELETE /api/users/me/sessions/:id (refresh token dead at once).
import { z } from 'zod';
import { session } from './schemas.ts';
import { listSessions, revokeSession } from '../../../app/identity/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { pageList } from '../../../app/shared/index.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/users/me/sessions', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(session)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(pageList(await listSessions(s, authOf(req)), req.query, (x) => ({ at: x.createdAt, id: x.id }), 'desc')),
  );
  app.delete('/api/users/me/sessions/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s) }, async (req) => {
    await revokeSession(s, authOf(req), req.params.id, 'revoked', metaOf(req));
    return ok({});
  });
};
export default route;

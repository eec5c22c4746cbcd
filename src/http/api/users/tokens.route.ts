// Personal access tokens (D2): POST returns the token once; GET lists; DELETE revokes.
import { z } from 'zod';
import { pat, patCreateBody, patCreated } from './schemas.ts';
import { createPat, listPats, revokePat } from '../../../app/identity/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { pageList } from '../../../app/shared/index.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const route: RouteModule = (app, s) => {
  app.post('/api/users/me/tokens', { schema: { body: patCreateBody, response: { 201: envelope(patCreated) } }, onRequest: requireAuth(s) }, async (req, reply) =>
    reply.status(201).send(ok(await createPat(s, authOf(req), req.body, metaOf(req)))),
  );
  app.get('/api/users/me/tokens', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(pat)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(pageList(await listPats(s, authOf(req)), req.query, (x) => ({ at: x.createdAt, id: x.id }), 'desc')),
  );
  app.delete('/api/users/me/tokens/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s) }, async (req) => {
    await revokePat(s, authOf(req), req.params.id, metaOf(req));
    return ok({});
  });
};
export default route;

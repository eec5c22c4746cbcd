// Projects (D4): GET/POST /api/projects, GET/PATCH/DELETE /api/projects/:id. Reading needs any
// role; changing needs admin.
import { createProject, deleteProject, getProject, listProjects, updateProject } from '../../../app/projects/index.ts';
import { invalidateCallContext } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { createProjectBody, patchProjectBody, project } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/projects', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(project)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await listProjects(s.db, authOf(req).tenantId, req.query)),
  );
  app.post('/api/projects', { schema: { body: createProjectBody, response: { 201: envelope(project) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req, reply) =>
    reply.status(201).send(ok(await createProject(s.db, authOf(req).tenantId, req.body))),
  );
  app.get('/api/projects/:id', { schema: { params: idParams, response: { 200: envelope(project) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await getProject(s.db, authOf(req).tenantId, req.params.id)),
  );
  app.patch(
    '/api/projects/:id',
    { schema: { params: idParams, body: patchProjectBody, response: { 200: envelope(project) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req) => {
      const p = await updateProject(s.db, authOf(req).tenantId, req.params.id, req.body);
      // Budget, floor, benchmark override and region feed the call path (loadCallContext).
      invalidateCallContext(s, authOf(req).tenantId);
      return ok(p);
    },
  );
  app.delete('/api/projects/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    // Its keys are revoked with it: evicted from every replica's key cache at once, as DELETE /api/keys/:id does.
    for (const keyId of await deleteProject(s.db, authOf(req).tenantId, req.params.id)) s.keyCache.invalidateKey(keyId);
    invalidateCallContext(s, authOf(req).tenantId);
    return ok({});
  });
};
export default route;

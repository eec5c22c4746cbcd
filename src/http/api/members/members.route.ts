// Tenant members: GET /api/members, PATCH /api/members/:id {role}, DELETE /api/members/:id
// (owners/admins; see app/identity/members.ts). POST /api/members {email, role} no longer adds a
// registered user without consent (issue 22 item 7): it sends an invitation, exactly like
// POST /api/members/invites (members/invites.route.ts), and answers with it.
import { createInvite } from '../../../app/identity/index.ts';
import { changeRole, listMembers, removeMember } from '../../../app/identity/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { pageList } from '../../../app/shared/index.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { invite, inviteBody, member, memberRolePatch } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/members', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(member)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(pageList(await listMembers(s.db, authOf(req).tenantId), req.query, (x) => ({ at: x.createdAt, id: x.userId }), 'asc')),
  );
  app.post('/api/members', { schema: { body: inviteBody, response: { 201: envelope(invite) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req, reply) =>
    reply.status(201).send(ok(await createInvite(s, authOf(req), req.body))),
  );
  app.patch(
    '/api/members/:id',
    { schema: { params: idParams, body: memberRolePatch, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req) => {
      await changeRole(s.db, authOf(req), req.params.id, req.body.role);
      return ok({});
    },
  );
  app.delete('/api/members/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    await removeMember(s.db, s.keyCache, authOf(req), req.params.id);
    return ok({});
  });
};
export default route;

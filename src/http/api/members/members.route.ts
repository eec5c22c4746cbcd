// Tenant members: GET /api/members, POST /api/members {email, role},
// PATCH /api/members/:id {role}, DELETE /api/members/:id (owners/admins; see app/members.ts).
import { z } from 'zod';
import { addMember, changeRole, listMembers, removeMember } from '../../../app/identity/members.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { emptyData, envelope, idParams, ok, type RouteModule } from '../common.ts';

const role = z.enum(['owner', 'admin', 'member', 'viewer']);
const member = z.object({ userId: z.string(), email: z.string(), name: z.string(), role, createdAt: z.string() });

const route: RouteModule = (app, s) => {
  app.get('/api/members', { schema: { response: { 200: envelope(z.object({ items: z.array(member) })) } }, onRequest: requireAuth(s) }, async (req) =>
    ok({ items: await listMembers(s.db, authOf(req).tenantId) }),
  );
  app.post(
    '/api/members',
    { schema: { body: z.strictObject({ email: z.email().max(254), role }), response: { 201: envelope(member) } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req, reply) => reply.status(201).send(ok(await addMember(s.db, authOf(req), req.body))),
  );
  app.patch(
    '/api/members/:id',
    { schema: { params: idParams, body: z.strictObject({ role }), response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) },
    async (req) => {
      await changeRole(s.db, authOf(req), req.params.id, req.body.role);
      return ok({});
    },
  );
  app.delete('/api/members/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    await removeMember(s.db, authOf(req), req.params.id);
    return ok({});
  });
};
export default route;

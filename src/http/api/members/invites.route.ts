// Invitations (D13; app/identity/invites.ts): POST /api/members/invites {email, role},
// GET /api/members/invites, DELETE /api/members/invites/:id (owners and admins);
// GET /api/members/invites/preview?token= and POST /api/members/invites/accept {token, ...}
// for whoever holds the e-mailed link, signed in or not.
import { acceptInvite, createInvite, listInvites, previewInvite, revokeInvite } from '../../../app/identity/index.ts';
import { authOf, metaOf, optionalAuth, requireAuth, setSessionCookies } from '../../plugins/auth.ts';
import { loginRateLimit } from '../auth/login.route.ts';
import { pageList } from '../../../app/shared/index.ts';
import { emptyData, envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';
import { acceptInviteBody, acceptResult, invite, inviteBody, invitePreview, invitePreviewQuery } from './schemas.ts';

const route: RouteModule = (app, s) => {
  app.post('/api/members/invites', { schema: { body: inviteBody, response: { 201: envelope(invite) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req, reply) =>
    reply.status(201).send(ok(await createInvite(s, authOf(req), req.body))),
  );
  app.get('/api/members/invites', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(invite)) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) =>
    ok(pageList(await listInvites(s, authOf(req)), req.query, (x) => ({ at: x.createdAt, id: x.id }), 'desc')),
  );
  app.delete('/api/members/invites/:id', { schema: { params: idParams, response: { 200: emptyData } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    await revokeInvite(s, authOf(req), req.params.id);
    return ok({});
  });
  app.get('/api/members/invites/preview', { schema: { querystring: invitePreviewQuery, response: { 200: envelope(invitePreview) } }, onRequest: loginRateLimit(s) }, async (req) =>
    ok(await previewInvite(s, req.query.token)),
  );
  app.post(
    '/api/members/invites/accept',
    { schema: { body: acceptInviteBody, response: { 200: envelope(acceptResult) } }, onRequest: [loginRateLimit(s), optionalAuth(s)] },
    async (req, reply) => {
      const r = await acceptInvite(s, req.auth, req.body, metaOf(req));
      if (r.tokens) setSessionCookies(s, req, reply, r.tokens);
      return ok(r);
    },
  );
};
export default route;

// E-mail verification: POST /api/users/me/verify-email sends the link; GET
// /api/auth/verify-email?token= (the link itself) sets emailVerifiedAt.
import { z } from 'zod';
import { sendVerificationEmail, verifyEmail } from '../../../app/identity/users.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { emptyData, envelope, ok, type RouteModule } from '../common.ts';
import { profile } from '../users/schemas.ts';

const route: RouteModule = (app, s) => {
  app.post('/api/users/me/verify-email', { schema: { response: { 202: emptyData } }, onRequest: requireAuth(s) }, async (req, reply) => {
    await sendVerificationEmail(s, authOf(req).userId);
    return reply.status(202).send(ok({}));
  });
  app.get(
    '/api/auth/verify-email',
    { schema: { querystring: z.strictObject({ token: z.string().min(1).max(4096) }), response: { 200: envelope(profile) } } },
    async (req) => ok(await verifyEmail(s, req.query.token)),
  );
};
export default route;

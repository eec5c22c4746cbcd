// E-mail verification: POST /api/users/me/verify-email sends the link, which opens the web app's
// /verify-email page (D13); the page confirms with POST /api/auth/verify-email {token}. GET
// /api/auth/verify-email?token= does the same for links sent before the page existed.
import { z } from 'zod';
import { verifyEmailBody } from './schemas.ts';
import { sendVerificationEmail, verifyEmail } from '../../../app/identity/index.ts';
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
  app.post('/api/auth/verify-email', { schema: { body: verifyEmailBody, response: { 200: envelope(profile) } } }, async (req) => ok(await verifyEmail(s, req.body.token)));
};
export default route;

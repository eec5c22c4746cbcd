// GET /api/users/me/audit (the tamper-evident security log, D2) and /api/users/me/audit/verify.
import { z } from 'zod';
import { listAudit, verifyAudit } from '../../../app/identity/audit.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const entry = z.object({
  id: z.string(),
  event: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  sealHash: z.string(),
  prevHash: z.string(),
});

const route: RouteModule = (app, s) => {
  app.get('/api/users/me/audit', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(entry)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await listAudit(s.db, authOf(req).userId, req.query)),
  );
  app.get(
    '/api/users/me/audit/verify',
    { schema: { response: { 200: envelope(z.object({ verified: z.boolean(), firstBroken: z.string().nullable(), checked: z.number() })) } }, onRequest: requireAuth(s) },
    async (req) => ok(await verifyAudit(s.db, s.secrets.ledger, authOf(req).userId)),
  );
};
export default route;

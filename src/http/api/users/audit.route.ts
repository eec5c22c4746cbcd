// GET /api/users/me/audit (the tamper-evident security log, D2) and /api/users/me/audit/verify.
import { auditEntry, auditVerdict } from './schemas.ts';
import { listAudit, verifyAudit } from '../../../app/identity/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

const route: RouteModule = (app, s) => {
  app.get('/api/users/me/audit', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(auditEntry)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await listAudit(s.db, authOf(req).userId, req.query)),
  );
  app.get(
    '/api/users/me/audit/verify',
    { schema: { response: { 200: envelope(auditVerdict) } }, onRequest: requireAuth(s) },
    async (req) => ok(await verifyAudit(s.db, s.secrets.ledger, authOf(req).userId)),
  );
};
export default route;

// Service API keys (D3): POST /api/keys → {key, record} (the key is shown once), GET /api/keys,
// POST /api/keys/:id/rotate (old key lives 24 h more), DELETE /api/keys/:id (revoked at once).
import { z } from 'zod';
import { audit } from '../../../app/identity/index.ts';
import { createKey, keyOwnerSession, listKeys, revokeKey, rotateKey } from '../../../app/identity/index.ts';
import { getDefaultProjectId, getProject } from '../../../app/projects/index.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { appError } from '../../../core/errors.ts';
import { envelope, idParams, ok, pageOf, pageQuerySchema, type RouteModule } from '../common.ts';

export const keyRecord = z.object({
  id: z.string(),
  name: z.string(),
  environment: z.enum(['dev', 'staging', 'production']),
  projectId: z.string(),
  prefix: z.string(),
  last4: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  rotatedFromId: z.string().nullable(),
});
const created = envelope(z.object({ key: z.string(), record: keyRecord }));
const body = z.strictObject({
  name: z.string().trim().min(1).max(120),
  environment: z.enum(['dev', 'staging', 'production']),
  projectId: z.uuid().optional(),
  /**
   * The key ends with the signed-in device session that makes it (the desktop bridge's MCP key):
   * revoking the session on /security, signing out or refresh-token reuse revoke it too. Off by
   * default, so a client that signs in only to mint a key and then ends its session (the browser
   * extension) keeps the key. Refused with a session that is not a named device session.
   */
  endsWithSession: z.boolean().optional(),
});

const route: RouteModule = (app, s) => {
  app.post('/api/keys', { schema: { body, response: { 201: created } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req, reply) => {
    const ctx = authOf(req);
    const projectId = req.body.projectId ? (await getProject(s.db, ctx.tenantId, req.body.projectId)).id : await getDefaultProjectId(s.db, ctx.tenantId);
    const sessionId = req.body.endsWithSession ? await keyOwnerSession(s.db, ctx.sessionId) : null;
    if (req.body.endsWithSession && !sessionId) {
      throw appError('validation', 'endsWithSession needs a device sign-in session (the desktop bridge); create the key without it from the web app or a personal access token', { field: 'endsWithSession' });
    }
    const r = await createKey(s.db, { tenantId: ctx.tenantId, projectId, name: req.body.name, environment: req.body.environment, sessionId });
    await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'key_created', at: s.clock.now(), detail: { keyId: r.record.id }, ...metaOf(req) });
    return reply.status(201).send(ok(r));
  });
  app.get('/api/keys', { schema: { querystring: pageQuerySchema, response: { 200: envelope(pageOf(keyRecord)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(await listKeys(s.db, authOf(req).tenantId, req.query)),
  );
  app.post('/api/keys/:id/rotate', { schema: { params: idParams, response: { 201: created } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req, reply) => {
    const ctx = authOf(req);
    const r = await rotateKey(s.db, s.clock, s.keyCache, ctx.tenantId, req.params.id);
    await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'key_rotated', at: s.clock.now(), detail: { keyId: req.params.id, newKeyId: r.record.id }, ...metaOf(req) });
    return reply.status(201).send(ok(r));
  });
  app.delete('/api/keys/:id', { schema: { params: idParams, response: { 200: envelope(keyRecord) } }, onRequest: requireAuth(s, { role: 'admin' }) }, async (req) => {
    const ctx = authOf(req);
    const r = await revokeKey(s.db, s.clock, s.keyCache, ctx.tenantId, req.params.id);
    await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'key_revoked', at: s.clock.now(), detail: { keyId: r.id }, ...metaOf(req) });
    return ok(r);
  });
};
export default route;

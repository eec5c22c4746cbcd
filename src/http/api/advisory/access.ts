// Who may use the advisory endpoints (D14 tier 6): a service key of the project, or a signed-in user.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../../app/shared/index.ts';
import type { Uploader } from '../../../app/connectors/index.ts';
import type { ImportRecord } from '../../../app/connectors/index.ts';
import { getDefaultProjectId, getProject } from '../../../app/projects/index.ts';
import { appError } from '../../../core/errors.ts';
import { authOf, bearer, requireAuth } from '../../plugins/auth.ts';
import { rateLimitHeaders } from '../../plugins/rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    advisoryKey?: { keyId: string; tenantId: string; projectId: string };
  }
}

/** A service key (the CLI, scripts) rather than a user's token: `svc_live_…`, never a PAT. */
const isServiceKey = (t: string | null): t is string => !!t && /^svc_[a-z]+_/.test(t) && !t.startsWith('svc_pat_');

/** Reads and uploads per key per minute (a user's token has the per-user /api limit instead). */
export const ADVISORY_KEY_PER_MIN = 120;

/**
 * onRequest: a service key of the project, or a signed-in user (token, PAT or session) with at
 * least `role`. Either way the import belongs to one tenant, and a key sees its own project's only.
 */
export const requireUserOrKey = (s: Services, role: 'viewer' | 'member') => {
  const user = requireAuth(s, { role });
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const t = bearer(req);
    if (!isServiceKey(t)) return user(req, reply);
    const p = await s.keyCache.authenticate(t);
    if (!p) throw appError('invalid_api_key', 'The service key is invalid, expired or revoked: create one at /developer-zone');
    const d = await s.limiter.take(`advisory:${p.keyId}`, ADVISORY_KEY_PER_MIN, 60_000);
    reply.headers(rateLimitHeaders(d, 60));
    if (!d.allowed) throw appError('rate_limited', undefined, { headers: { 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) } });
    req.advisoryKey = { keyId: p.keyId, tenantId: p.tenantId, projectId: p.projectId };
  };
};

export const tenantOf = (req: FastifyRequest): string => req.advisoryKey?.tenantId ?? authOf(req).tenantId;

/** Who uploads, and into which project: the key's, else `projectId` of the caller's tenant, else the default. */
export async function uploaderOf(s: Services, req: FastifyRequest, projectId: string | undefined): Promise<Uploader> {
  const k = req.advisoryKey;
  if (k) {
    if (projectId && projectId !== k.projectId) throw appError('forbidden', "A service key imports into its own project only: leave out projectId or use that project's key");
    return { tenantId: k.tenantId, projectId: k.projectId, userId: null, keyId: k.keyId };
  }
  const ctx = authOf(req);
  const pid = projectId ? (await getProject(s.db, ctx.tenantId, projectId)).id : await getDefaultProjectId(s.db, ctx.tenantId);
  return { tenantId: ctx.tenantId, projectId: pid, userId: ctx.userId, keyId: null };
}

/** A key reads its own project's imports; a user reads the tenant's. */
export function visible(req: FastifyRequest, imp: ImportRecord | null): ImportRecord {
  if (!imp || (req.advisoryKey && imp.project_id !== req.advisoryKey.projectId)) throw appError('not_found', 'No such advisory import: check the id, or list them at GET /api/advisory/imports');
  return imp;
}


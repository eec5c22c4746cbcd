// Shapes and the credential rule of the advisory endpoints (D14 tier 6). Amounts are wallet
// tokens (1 token = 1 USD micro, D1) as integer strings; savings follow the locked vocabulary.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../app/shared/services.ts';
import type { Uploader } from '../../../app/connectors/advisory-import.ts';
import type { ImportRecord } from '../../../app/connectors/advisory.repo.ts';
import { getDefaultProjectId, getProject } from '../../../app/projects/projects.ts';
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

const micros = z.string().regex(/^-?\d+$/);
const bench = z.object({ providerKey: z.string(), brand: z.string() }).nullable();

export const importSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  filename: z.string().nullable(),
  format: z.enum(['ndjson', 'csv']),
  status: z.enum(['receiving', 'queued', 'processing', 'done', 'failed']),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  progress: z.object({ totalRows: z.number().int(), processedRows: z.number().int(), malformedRows: z.number().int(), percent: z.number().int() }),
  benchmark: bench,
  equivalentLabel: z.string(),
});

const figures = {
  calls: z.number().int(),
  inputTokens: micros,
  outputTokens: micros,
  historicalCost: micros,
  wouldHaveCost: micros,
  equivalentBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  percentSavedBps: micros.nullable(),
};

export const reportRow = z.object({
  line: z.number().int(),
  status: z.enum(['pending', 'done', 'malformed']),
  error: z.string().nullable(),
  occurredAt: z.string().nullable(),
  promptExcerpt: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  taskFamily: z.string().nullable(),
  complexity: z.string().nullable(),
  modelClass: z.string().nullable(),
  wouldHaveModel: z.string().nullable(),
  historicalCost: micros.nullable(),
  wouldHaveCost: micros.nullable(),
  equivalentBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  percentSavedBps: micros.nullable(),
});

export const report = importSummary.extend({
  benchmarkPrompt: z.string().nullable(),
  totals: z.object(figures),
  byTaskFamily: z.array(z.object({ taskFamily: z.string(), ...figures })),
  byComplexity: z.array(z.object({ complexity: z.string(), ...figures })),
  malformed: z.object({ count: z.number().int(), items: z.array(z.object({ line: z.number().int(), error: z.string() })) }),
  rows: z.object({ items: z.array(reportRow), nextCursor: z.string().nullable() }),
  methodology: z.object({
    savingsMethodologyVersion: z.string(),
    pricingVersion: z.string(),
    routingTableVersion: z.string().nullable(),
    classifierVersion: z.string().nullable(),
  }),
  insightsEngineVersion: z.string(),
});

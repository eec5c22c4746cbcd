// Who is calling /api: a Bearer access JWT, a personal access token, or the access-token cookie
// (for the event stream and the web app). Also applies the per-user /api rate limit (D9).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, requireRole, type AuthContext, type Role } from '../../app/identity/auth.ts';
import type { Services } from '../../app/shared/services.ts';
import { appError } from '../../core/errors.ts';
import { rateLimitHeaders } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const ACCESS_COOKIE = 'sb_access';
export const API_RATE_PER_MIN = 600;

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && /^bearer\s+/i.test(h)) return h.replace(/^bearer\s+/i, '').trim() || null;
  return null;
}

/** onRequest hook factory (runs before the body is even parsed): authenticate, check the minimum role, apply the per-user limit. */
export function requireAuth(s: Services, opts: { role?: Role; platformAdmin?: boolean } = {}) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = bearer(req) ?? (req.cookies?.[ACCESS_COOKIE] as string | undefined) ?? null;
    if (!token) throw appError('unauthenticated');
    const ctx = await authenticate(s, token);
    req.auth = ctx;
    const d = await s.limiter.take(`api:${ctx.userId}`, API_RATE_PER_MIN, 60_000);
    reply.headers(rateLimitHeaders(d, 60));
    if (!d.allowed) throw appError('rate_limited', undefined, { headers: { 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) } });
    if (opts.platformAdmin && !ctx.platformAdmin) throw appError('forbidden', 'Platform administrators only');
    if (opts.role) requireRole(ctx, opts.role);
  };
}

export const authOf = (req: FastifyRequest): AuthContext => {
  if (!req.auth) throw appError('unauthenticated');
  return req.auth;
};

export const metaOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

// Who is calling /api: a Bearer access JWT, a personal access token, or the access-token cookie
// (for the event stream and the web app). Also applies the per-user /api rate limit (D9).
//
// Browser session (D13): the refresh token lives in an httpOnly, SameSite=Strict cookie scoped to
// /api/auth (Secure over https); the access cookie is SameSite=Strict too. A state-changing
// request authenticated by a cookie must come from the service's own origin (issue 22 item 1):
// its Origin, or without one its Sec-Fetch-Site or Referer, must be ours, else 403. A request
// with an Authorization header needs no such check: a cross-site page cannot set that header.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ACCESS_TTL_S, REFRESH_TTL_S, authenticate, requireRole, type AuthContext, type Role } from '../../app/identity/index.ts';
import type { Services } from '../../app/shared/index.ts';
import { appError } from '../../core/errors.ts';
import { rateLimitHeaders } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const ACCESS_COOKIE = 'sb_access';
export const REFRESH_COOKIE = 'sb_refresh';
export const REFRESH_COOKIE_PATH = '/api/auth';
export const API_RATE_PER_MIN = 600;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (h && /^bearer\s+/i.test(h)) return h.replace(/^bearer\s+/i, '').trim() || null;
  return null;
}

function isOwnOrigin(s: Services, req: FastifyRequest, origin: string): boolean {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (u.origin === new URL(s.publicUrl).origin) return true;
  // The Host header names the origin the browser sent this request to; a page of another origin
  // cannot change it. This keeps the check right when PUBLIC_URL is unset or the port was free-picked.
  const host = req.headers.host?.toLowerCase();
  return host !== undefined && (u.protocol === 'http:' || u.protocol === 'https:') && u.host === host;
}

/** 403 unless a state-changing request comes from the service's own origin (see header). */
export function assertSameOrigin(s: Services, req: FastifyRequest): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (isOwnOrigin(s, req, origin)) return;
    throw appError('cross_site');
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) {
    if (site === 'same-origin' || site === 'none') return;
    throw appError('cross_site');
  }
  const referer = req.headers.referer;
  if (referer && isOwnOrigin(s, req, referer)) return;
  throw appError('cross_site', 'Cross-site request refused: a write signed in by cookie must carry the Origin of the Switchboard app; scripts and tools should send Authorization: Bearer instead');
}

/** The credential of a request and whether it came from a cookie (which needs the origin check). */
function credentialOf(req: FastifyRequest): { token: string; fromCookie: boolean } | null {
  const b = bearer(req);
  if (b) return { token: b, fromCookie: false };
  const c = req.cookies?.[ACCESS_COOKIE];
  return c ? { token: c, fromCookie: true } : null;
}

async function signIn(s: Services, req: FastifyRequest, reply: FastifyReply, cred: { token: string; fromCookie: boolean }): Promise<AuthContext> {
  if (cred.fromCookie) assertSameOrigin(s, req);
  const ctx = await authenticate(s, cred.token);
  req.auth = ctx;
  const d = await s.limiter.take(`api:${ctx.userId}`, API_RATE_PER_MIN, 60_000);
  reply.headers(rateLimitHeaders(d, 60));
  if (!d.allowed) throw appError('rate_limited', undefined, { headers: { 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) } });
  return ctx;
}

/** onRequest hook factory (runs before the body is even parsed): authenticate, check the minimum role, apply the per-user limit. */
export function requireAuth(s: Services, opts: { role?: Role; platformAdmin?: boolean } = {}) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const cred = credentialOf(req);
    if (!cred) throw appError('unauthenticated');
    const ctx = await signIn(s, req, reply, cred);
    if (opts.platformAdmin && !ctx.platformAdmin) throw appError('forbidden', 'Platform administrators only');
    if (opts.role) requireRole(ctx, opts.role);
  };
}

/** Like requireAuth for routes that also serve signed-out callers: `req.auth` stays null without a credential. */
export function optionalAuth(s: Services) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const cred = credentialOf(req);
    if (cred) await signIn(s, req, reply, cred);
  };
}

export const authOf = (req: FastifyRequest): AuthContext => {
  if (!req.auth) throw appError('unauthenticated');
  return req.auth;
};

export const metaOf = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] ?? null });

const secureCookies = (s: Services, req: FastifyRequest) => s.publicUrl.startsWith('https:') || req.protocol === 'https';

/** Login, sign-up, refresh, switch and invitation sign-in set both session cookies (D13). */
export function setSessionCookies(s: Services, req: FastifyRequest, reply: FastifyReply, tokens: { accessToken: string; refreshToken: string }) {
  const secure = secureCookies(s, req);
  reply.setCookie(ACCESS_COOKIE, tokens.accessToken, { httpOnly: true, sameSite: 'strict', secure, path: '/api', maxAge: ACCESS_TTL_S });
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, { httpOnly: true, sameSite: 'strict', secure, path: REFRESH_COOKIE_PATH, maxAge: REFRESH_TTL_S });
}

export function clearSessionCookies(s: Services, req: FastifyRequest, reply: FastifyReply) {
  const secure = secureCookies(s, req);
  reply.clearCookie(ACCESS_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: '/api' });
  reply.clearCookie(REFRESH_COOKIE, { httpOnly: true, sameSite: 'strict', secure, path: REFRESH_COOKIE_PATH });
}

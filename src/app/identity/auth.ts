// Authentication (D2): signup, login with lockout, rotating refresh tokens with reuse detection,
// logout, sessions with server-side idle sign-out, and personal access tokens. Access tokens are
// 15-minute HS256 JWTs carrying the session id; every /api request checks that session.
import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Executor } from '../../store/db.ts';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { base62, formatKey, hashSecret, isWellFormedKey, PAT_PREFIX } from '../../core/tokens.ts';
import { audit } from './audit.ts';
import { evictSessionKeys } from './keys.ts';
import * as sessions from './sessions.repo.ts';
import { firstTenantOf, insertTenantWithOwner } from './users.repo.ts';
import { createProject } from '../projects/index.ts';
import { ROLE_RANK, type IdleChoice, type Role } from '../../core/identity.ts';
import { hashPassword, verifyCredentials, type RequestMeta, type UserView } from './credentials.ts';
export { hashPassword, type RequestMeta, type UserView } from './credentials.ts';

export const ACCESS_TTL_S = 15 * 60;
export const REFRESH_TTL_S = 7 * 24 * 60 * 60;
export { IDLE_CHOICES, MIN_PASSWORD_LENGTH, ROLE_RANK, type IdleChoice, type Role } from '../../core/identity.ts';
const IDLE_MS: Record<IdleChoice, number | null> = {
  '15min': 15 * 60_000,
  '1h': 3_600_000,
  '4h': 4 * 3_600_000,
  '24h': 24 * 3_600_000,
  never: null,
};
/** last_seen_at is refreshed at most this often, so authenticated reads do not all write. */
const TOUCH_EVERY_MS = 30_000;

export interface AuthContext {
  userId: string;
  tenantId: string;
  role: Role;
  platformAdmin: boolean;
  sessionId: string | null;
  patId: string | null;
}

export interface LoginResult {
  user: UserView;
  tokens: { accessToken: string; refreshToken: string };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function issueTokens(s: Services, userId: string, tenantId: string, sessionId: string, jti: string) {
  const now = Math.floor(s.clock.now().getTime() / 1000);
  const accessToken = await new SignJWT({ tid: tenantId, sid: sessionId, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TTL_S)
    .sign(s.secrets.jwt);
  const refreshToken = await new SignJWT({ tid: tenantId, sid: sessionId, typ: 'refresh' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(now + REFRESH_TTL_S)
    .sign(s.secrets.jwt);
  return { accessToken, refreshToken };
}

async function verifyJwt(s: Services, token: string, typ: 'access' | 'refresh') {
  try {
    // exp is required: a token without one would never expire (issue 22 item 6).
    const { payload } = await jwtVerify(token, s.secrets.jwt, {
      algorithms: ['HS256'],
      currentDate: s.clock.now(),
      requiredClaims: ['exp', 'sub', 'sid', 'tid'],
    });
    if (payload.typ !== typ || !isUuid(payload.sub) || !isUuid(payload.sid) || !isUuid(payload.tid)) {
      throw appError('invalid_token');
    }
    return payload as typeof payload & { sub: string; sid: string; tid: string };
  } catch (e) {
    if (e instanceof joseErrors.JOSEError) throw appError('invalid_token');
    throw e;
  }
}

const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

export async function startSession(s: Services, tx: Executor, userId: string, tenantId: string, meta: RequestMeta) {
  const jti = randomUUID();
  const now = s.clock.now();
  const session = await sessions.insertSession(tx, {
    userId,
    tenantId,
    jti,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 512) ?? null,
    now,
    expiresAt: new Date(now.getTime() + REFRESH_TTL_S * 1000),
  });
  return issueTokens(s, userId, tenantId, session.id, jti).then((tokens) => ({ tokens, sessionId: session.id }));
}

export async function signup(
  s: Services,
  input: { email: string; password: string; name: string; tenantName: string },
  meta: RequestMeta,
): Promise<LoginResult> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await s.db.transaction().execute(async (tx) => {
      const { tenant, user } = await insertTenantWithOwner(tx, { tenantName: input.tenantName, email: input.email, passwordHash, name: input.name });
      await createProject(tx, tenant.id, { name: 'Default project', isDefault: true });
      const { tokens } = await startSession(s, tx, user.id, tenant.id, meta);
      await audit(tx, s.secrets.ledger, { userId: user.id, tenantId: tenant.id, event: 'signup', at: s.clock.now(), ...meta });
      return { user, tokens };
    });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw appError('email_taken');
    throw e;
  }
}

export async function login(s: Services, input: { email: string; password: string }, meta: RequestMeta): Promise<LoginResult> {
  const user = await verifyCredentials(s, input.email, input.password, meta);
  const membership = await firstTenantOf(s.db, user.id);
  if (!membership) throw appError('invalid_credentials');
  return s.db.transaction().execute(async (tx) => {
    const { tokens, sessionId } = await startSession(s, tx, user.id, membership.tenant_id, meta);
    await audit(tx, s.secrets.ledger, { userId: user.id, tenantId: membership.tenant_id, event: 'login', at: s.clock.now(), detail: { sessionId }, ...meta });
    return { user, tokens };
  });
}

/** Rotate: the presented refresh token must be the session's current one; an older one is a reuse and ends the session. */
export async function refresh(s: Services, refreshToken: string, meta: RequestMeta) {
  const claims = await verifyJwt(s, refreshToken, 'refresh');
  const now = s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    const session = await sessions.lockSession(tx, claims.sid);
    if (!session || session.revoked_at || session.expires_at <= now || session.user_id !== claims.sub) throw appError('session_revoked');
    if (session.refresh_jti !== claims.jti) {
      await sessions.markSessionRevoked(tx, session.id, now, 'refresh_reuse');
      await audit(tx, s.secrets.ledger, { userId: session.user_id, tenantId: session.tenant_id, event: 'refresh_reuse_detected', at: now, detail: { sessionId: session.id }, ...meta });
      return null;
    }
    if (await endIfIdle(s, tx, session.id, session.user_id, session.tenant_id, session.last_seen_at)) return 'idle' as const;
    const jti = randomUUID();
    await sessions.rotateRefreshJti(tx, session.id, jti, now);
    return issueTokens(s, session.user_id, session.tenant_id, session.id, jti);
  }).then(async (r) => {
    // The revocation above must commit before we answer, so the error is thrown outside the transaction.
    if (r === null || r === 'idle') await evictSessionKeys(s.db, s.keyCache, [claims.sid]);
    if (!r) throw appError('session_revoked', 'Refresh token reuse detected; the session has been revoked');
    if (r === 'idle') throw appError('session_revoked', 'Signed out after inactivity');
    return r;
  });
}

/** Server-side idle sign-out: a session unused for longer than the user's setting ends (D2). */
async function endIfIdle(s: Services, db: Executor, sessionId: string, userId: string, tenantId: string, lastSeen: Date): Promise<boolean> {
  const idle = IDLE_MS[(await sessions.idleTimeoutOf(db, userId)) as IdleChoice];
  const now = s.clock.now();
  if (idle === null || now.getTime() - lastSeen.getTime() <= idle) return false;
  if (await sessions.revokeOpenSession(db, sessionId, now, 'idle')) await audit(db, s.secrets.ledger, { userId, tenantId, event: 'session_idle_expired', at: now, detail: { sessionId } });
  return true;
}

export async function logout(s: Services, ctx: AuthContext, meta: RequestMeta) {
  if (!ctx.sessionId) throw appError('forbidden', 'Personal access tokens have no session to end');
  await revokeSession(s, ctx, ctx.sessionId, 'logout', meta);
}

export async function revokeSession(s: Services, ctx: AuthContext, sessionId: string, reason: 'logout' | 'revoked', meta: RequestMeta) {
  const now = s.clock.now();
  if (!(await sessions.revokeOpenSession(s.db, sessionId, now, reason, ctx.userId))) throw appError('not_found', 'Session not found');
  // A bridge session's service key was revoked with it (trigger, migration 028b): evict it now.
  await evictSessionKeys(s.db, s.keyCache, [sessionId]);
  await audit(s.db, s.secrets.ledger, {
    userId: ctx.userId,
    tenantId: ctx.tenantId,
    event: reason === 'logout' ? 'logout' : 'session_revoked',
    at: now,
    detail: { sessionId },
    ...meta,
  });
}

export async function listSessions(s: Services, ctx: AuthContext) {
  const rows = await sessions.listOpenSessions(s.db, ctx.userId, s.clock.now());
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    ip: r.ip,
    userAgent: r.user_agent,
    createdAt: r.created_at.toISOString(),
    lastSeenAt: r.last_seen_at.toISOString(),
    expiresAt: r.expires_at.toISOString(),
    current: r.id === ctx.sessionId,
  }));
}

/** Resolve `Authorization: Bearer` (or the access cookie) into who is calling, or throw 401. */
export async function authenticate(s: Services, token: string): Promise<AuthContext> {
  if (token.startsWith(PAT_PREFIX)) return authenticatePat(s, token);
  const claims = await verifyJwt(s, token, 'access');
  const row = await sessions.sessionPrincipal(s.db, claims.sid, claims.sub);
  const now = s.clock.now();
  if (!row || row.revoked_at || row.expires_at <= now) throw appError('session_revoked');
  // The tenant is the session's, never the token's word alone: after a tenant switch the old
  // access tokens name the previous tenant and stop working (issue 22 item 6).
  if (row.tenant_id !== claims.tid) throw appError('invalid_token');
  if (await endIfIdle(s, s.db, row.id, claims.sub, row.tenant_id, row.last_seen_at)) {
    await evictSessionKeys(s.db, s.keyCache, [row.id]);
    throw appError('session_revoked', 'Signed out after inactivity');
  }
  if (now.getTime() - row.last_seen_at.getTime() > TOUCH_EVERY_MS) {
    await sessions.touchSession(s.db, row.id, now);
  }
  return { userId: claims.sub, tenantId: row.tenant_id, role: row.role, platformAdmin: row.platform_admin, sessionId: row.id, patId: null };
}

async function authenticatePat(s: Services, token: string): Promise<AuthContext> {
  if (!isWellFormedKey(token, PAT_PREFIX)) throw appError('invalid_token');
  const now = s.clock.now();
  const row = await sessions.patPrincipal(s.db, hashSecret(token));
  if (!row || row.revoked_at || (row.expires_at && row.expires_at <= now)) throw appError('invalid_token');
  if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
    await sessions.touchPat(s.db, row.id, now);
  }
  return { userId: row.user_id, tenantId: row.tenant_id, role: row.role, platformAdmin: row.platform_admin, sessionId: null, patId: row.id };
}

export async function createPat(s: Services, ctx: AuthContext, input: { name: string; expiresInDays?: number }, meta: RequestMeta) {
  const token = formatKey(PAT_PREFIX, base62(randomBytes(64), 32));
  const now = s.clock.now();
  const row = await sessions.insertPat(s.db, {
    userId: ctx.userId,
    tenantId: ctx.tenantId,
    name: input.name,
    tokenHash: hashSecret(token),
    prefix: token.slice(0, 12),
    last4: token.slice(-4),
    now,
    expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
  });
  await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'token_created', at: now, detail: { tokenId: row.id }, ...meta });
  return { token, record: toPatView(row) };
}

type PatRow = { id: string; name: string; prefix: string; last4: string; created_at: Date; expires_at: Date | null; last_used_at: Date | null; revoked_at: Date | null };
export const toPatView = (r: PatRow) => ({
  id: r.id,
  name: r.name,
  prefix: r.prefix,
  last4: r.last4,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at?.toISOString() ?? null,
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  revokedAt: r.revoked_at?.toISOString() ?? null,
});

export async function listPats(s: Services, ctx: AuthContext) {
  const rows = await sessions.listPatRows(s.db, ctx.userId, ctx.tenantId);
  return rows.map(toPatView);
}

export async function revokePat(s: Services, ctx: AuthContext, id: string, meta: RequestMeta) {
  const now = s.clock.now();
  if (!(await sessions.revokePatRow(s.db, { id, userId: ctx.userId, tenantId: ctx.tenantId, now }))) throw appError('not_found', 'Token not found');
  await audit(s.db, s.secrets.ledger, { userId: ctx.userId, tenantId: ctx.tenantId, event: 'token_revoked', at: now, detail: { tokenId: id }, ...meta });
}

export function requireRole(ctx: AuthContext, min: Role): void {
  if (ROLE_RANK[ctx.role] < ROLE_RANK[min]) throw appError('forbidden', `This action needs the ${min} role or higher`);
}

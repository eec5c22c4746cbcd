// The identity domain's statements on sessions and personal access tokens (docs/layout.md: SQL in
// *.repo.ts, the decisions in auth.ts, password.ts, tenants.ts, members.ts and device-auth.ts).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

export async function insertSession(
  db: Executor,
  v: { userId: string; tenantId: string; jti: string; ip: string | null; userAgent: string | null; now: Date; expiresAt: Date },
): Promise<{ id: string }> {
  return db
    .insertInto('sessions')
    .values({
      user_id: v.userId,
      tenant_id: v.tenantId,
      refresh_jti: v.jti,
      ip: v.ip,
      user_agent: v.userAgent,
      created_at: v.now,
      last_seen_at: v.now,
      expires_at: v.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export async function lockSession(tx: Executor, id: string) {
  return tx.selectFrom('sessions').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function markSessionRevoked(tx: Executor, id: string, now: Date, reason: string): Promise<void> {
  await tx.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason }).where('id', '=', id).execute();
}

export async function rotateRefreshJti(tx: Executor, id: string, jti: string, now: Date): Promise<void> {
  await tx.updateTable('sessions').set({ refresh_jti: jti, last_seen_at: now }).where('id', '=', id).execute();
}

export async function idleTimeoutOf(db: Executor, userId: string): Promise<string> {
  const u = await db.selectFrom('users').select('idle_timeout').where('id', '=', userId).executeTakeFirstOrThrow();
  return u.idle_timeout;
}

/** Ends a session that is still open; true when this call ended it. */
export async function revokeOpenSession(db: Executor, id: string, now: Date, reason: string, userId?: string): Promise<boolean> {
  let q = db.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason }).where('id', '=', id);
  if (userId !== undefined) q = q.where('user_id', '=', userId);
  const r = await q.where('revoked_at', 'is', null).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function listOpenSessions(db: Executor, userId: string, now: Date) {
  return db
    .selectFrom('sessions')
    .select(['id', 'name', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** A session with its user and the membership it is signed into. */
export async function sessionPrincipal(db: Executor, sessionId: string, userId: string) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 's.user_id').onRef('m.tenant_id', '=', 's.tenant_id'))
    .select(['s.id', 's.tenant_id', 's.revoked_at', 's.last_seen_at', 's.expires_at', 'u.platform_admin', 'u.idle_timeout', 'm.role'])
    .where('s.id', '=', sessionId)
    .where('s.user_id', '=', userId)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
}

export async function nameSession(db: Executor, id: string, name: string): Promise<void> {
  await sql`update sessions set name = ${name} where id = ${id}`.execute(db);
}

/** Revokes every open session of a user (but `keep`); returns the ids of those that ended (their keys leave the caches). */
export async function endUserSessions(tx: Executor, userId: string, now: Date, reason: string, keep?: string | null): Promise<string[]> {
  let q = tx.updateTable('sessions').set({ revoked_at: now, revoke_reason: reason }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keep) q = q.where('id', '!=', keep);
  return (await q.returning('id').execute()).map((r) => r.id);
}

/** Points an open session of the user at another tenant with a new refresh id; false when none. */
export async function moveSession(tx: Executor, v: { sessionId: string; userId: string; tenantId: string; jti: string; now: Date }): Promise<boolean> {
  const r = await tx
    .updateTable('sessions')
    .set({ tenant_id: v.tenantId, refresh_jti: v.jti, last_seen_at: v.now })
    .where('id', '=', v.sessionId)
    .where('user_id', '=', v.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

// Personal access tokens.

export const PAT_COLUMNS = ['id', 'name', 'prefix', 'last4', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

export async function patPrincipal(db: Executor, tokenHash: Buffer) {
  return db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 't.user_id').onRef('m.tenant_id', '=', 't.tenant_id'))
    .select(['t.id', 't.user_id', 't.tenant_id', 't.expires_at', 't.revoked_at', 't.last_used_at', 'u.platform_admin', 'm.role'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touchPat(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function insertPat(
  db: Executor,
  v: { userId: string; tenantId: string; name: string; tokenHash: Buffer; prefix: string; last4: string; now: Date; expiresAt: Date | null },
) {
  return db
    .insertInto('personal_access_tokens')
    .values({
      user_id: v.userId,
      tenant_id: v.tenantId,
      name: v.name,
      token_hash: v.tokenHash,
      prefix: v.prefix,
      last4: v.last4,
      created_at: v.now,
      expires_at: v.expiresAt,
    })
    .returning(PAT_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function listPatRows(db: Executor, userId: string, tenantId: string) {
  return db
    .selectFrom('personal_access_tokens')
    .select(PAT_COLUMNS)
    .where('user_id', '=', userId)
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .execute();
}

/** Revokes an open token of the user in the tenant; false when there is none. */
export async function revokePatRow(db: Executor, v: { id: string; userId: string; tenantId: string; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable('personal_access_tokens')
    .set({ revoked_at: v.now })
    .where('id', '=', v.id)
    .where('user_id', '=', v.userId)
    .where('tenant_id', '=', v.tenantId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

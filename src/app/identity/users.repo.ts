// The identity domain's statements on users, tenants and memberships (docs/layout.md: SQL in
// *.repo.ts; auth.ts, credentials.ts, users.ts, tenants.ts and platform-admin.ts keep the rules).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { Role } from '../../core/identity.ts';

/** Sign-up's rows, in this order: the tenant, the user, the owner membership, the wallet. */
export async function insertTenantWithOwner(tx: Executor, v: { tenantName: string; email: string; passwordHash: string; name: string }) {
  const tenant = await tx.insertInto('tenants').values({ name: v.tenantName }).returning('id').executeTakeFirstOrThrow();
  const user = await tx
    .insertInto('users')
    .values({ email: v.email, password_hash: v.passwordHash, name: v.name })
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
  await tx.insertInto('memberships').values({ tenant_id: tenant.id, user_id: user.id, role: 'owner' }).execute();
  await tx.insertInto('wallets').values({ tenant_id: tenant.id }).execute();
  return { tenant, user };
}

export async function insertVerifiedUser(tx: Executor, v: { email: string; passwordHash: string; name: string; now: Date }) {
  return tx
    .insertInto('users')
    .values({ email: v.email, password_hash: v.passwordHash, name: v.name, email_verified_at: v.now })
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
}

/** The tenant a user joined first (where a login lands). */
export async function firstTenantOf(db: Executor, userId: string) {
  return db.selectFrom('memberships').select('tenant_id').where('user_id', '=', userId).orderBy('created_at', 'asc').limit(1).executeTakeFirst();
}

export async function userIdByEmail(db: Executor, email: string) {
  return db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export async function userNameByEmail(db: Executor, email: string) {
  return db.selectFrom('users').select(['id', 'email', 'name']).where(sql`lower(email)`, '=', email.toLowerCase()).executeTakeFirst();
}

export async function userView(db: Executor, userId: string) {
  return db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', userId).executeTakeFirstOrThrow();
}

export async function emailOf(db: Executor, userId: string): Promise<string> {
  const u = await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  return u.email;
}

/** Another user with this address (case-insensitive) than `userId`. */
export async function otherUserWithEmail(db: Executor, email: string, userId: string) {
  return db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email.toLowerCase()).where('id', '!=', userId).executeTakeFirst();
}

// Credential checks and lockout.

export async function userForLogin(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'password_hash', 'locked_until'])
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function clearFailedLogins(db: Executor, userId: string): Promise<void> {
  await db.updateTable('users').set({ failed_logins: 0, locked_until: null }).where('id', '=', userId).execute();
}

/**
 * Counts one attempt atomically (parallel attempts each count); the attempt that reaches
 * `threshold` sets the lock and restarts the count. True when this attempt set the lock.
 */
export async function countLoginAttempt(db: Executor, userId: string, threshold: number, lockUntil: Date): Promise<boolean> {
  const r = await db
    .updateTable('users')
    .set({
      failed_logins: sql`case when failed_logins + 1 >= ${threshold} then 0 else failed_logins + 1 end`,
      locked_until: sql`case when failed_logins + 1 >= ${threshold} then ${lockUntil}::timestamptz else locked_until end`,
    })
    .where('id', '=', userId)
    .returning('locked_until')
    .executeTakeFirstOrThrow();
  return r.locked_until !== null && r.locked_until.getTime() === lockUntil.getTime();
}

/** A new password after a reset link: it also lifts a lockout. */
export async function setPasswordAfterReset(tx: Executor, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx.updateTable('users').set({ password_hash: passwordHash, failed_logins: 0, locked_until: null, updated_at: now }).where('id', '=', userId).execute();
}

export async function setPassword(tx: Executor, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx.updateTable('users').set({ password_hash: passwordHash, updated_at: now }).where('id', '=', userId).execute();
}

// Profiles.

export const PROFILE_COLUMNS = ['id', 'email', 'name', 'timezone', 'bio', 'avatar_url', 'email_verified_at', 'pending_email', 'idle_timeout', 'platform_admin'] as const;

export async function profileRow(db: Executor, userId: string) {
  return db.selectFrom('users').select(PROFILE_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

export async function updateProfileRow(db: Executor, userId: string, set: Record<string, unknown>) {
  return db.updateTable('users').set(set).where('id', '=', userId).returning(PROFILE_COLUMNS).executeTakeFirstOrThrow();
}

/** Swaps a proven address in (current or pending); undefined when the address matches neither. */
export async function confirmEmail(db: Executor, userId: string, address: string, now: Date) {
  return db
    .updateTable('users')
    .set({ email: address, pending_email: sql<string | null>`case when pending_email = ${address} then null else pending_email end`, email_verified_at: now, updated_at: now })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('email', '=', address), eb('pending_email', '=', address)]))
    .returning(PROFILE_COLUMNS)
    .executeTakeFirst();
}

// Platform admins.

export async function adminFlagByEmail(db: Executor, email: string) {
  const u = await sql<{ id: string; platform_admin: boolean }>`select id, platform_admin from users where lower(email) = lower(${email})`.execute(db);
  return u.rows[0];
}

export async function setPlatformAdmin(db: Executor, userId: string): Promise<void> {
  await sql`update users set platform_admin = true where id = ${userId}`.execute(db);
}

export async function userIdByLowerEmail(db: Executor, lowerEmail: string) {
  const r = await sql<{ id: string }>`select id from users where lower(email) = ${lowerEmail}`.execute(db);
  return r.rows[0];
}

// Tenants and memberships.

export async function tenantRow(db: Executor, tenantId: string) {
  return db.selectFrom('tenants').select(['id', 'name', 'created_at']).where('id', '=', tenantId).executeTakeFirst();
}

export async function renameTenantRow(db: Executor, tenantId: string, name: string) {
  return db.updateTable('tenants').set({ name }).where('id', '=', tenantId).returning(['id', 'name', 'created_at']).executeTakeFirst();
}

export async function tenantsOfUser(db: Executor, userId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .select(['t.id', 't.name', 'm.role', 'm.created_at'])
    .where('m.user_id', '=', userId)
    .orderBy('m.created_at', 'asc')
    .execute();
}

export async function membershipRole(db: Executor, tenantId: string, userId: string): Promise<Role | undefined> {
  const m = await db.selectFrom('memberships').select('role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
  return m?.role;
}

export async function membershipRoleOrThrow(db: Executor, tenantId: string, userId: string): Promise<Role> {
  const m = await db.selectFrom('memberships').select('role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirstOrThrow();
  return m.role;
}

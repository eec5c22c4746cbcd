// The identity domain's statements on invitations and memberships (docs/layout.md: SQL in
// *.repo.ts; invites.ts and members.ts keep the rules, including the tenant lock of members.ts).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { Role } from '../../core/identity.ts';

export async function memberWithEmail(db: Executor, tenantId: string, email: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.tenant_id', '=', tenantId)
    .where(sql`lower(u.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

/** Revokes the tenant's open invitation of this address, if any. */
export async function revokeOpenInvitesFor(tx: Executor, tenantId: string, email: string, now: Date): Promise<void> {
  await tx
    .updateTable('invites')
    .set({ revoked_at: now })
    .where('tenant_id', '=', tenantId)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function insertInvite(
  tx: Executor,
  v: { tenantId: string; email: string; role: Role; tokenHash: Buffer; invitedBy: string; now: Date; expiresAt: Date },
) {
  return tx
    .insertInto('invites')
    .values({ tenant_id: v.tenantId, email: v.email, role: v.role, token_hash: v.tokenHash, invited_by: v.invitedBy, created_at: v.now, expires_at: v.expiresAt })
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

export async function inviterAndTenant(db: Executor, userId: string, tenantId: string) {
  return db
    .selectFrom('users')
    .innerJoin('tenants', (j) => j.on('tenants.id', '=', tenantId))
    .select(['users.name as inviter', 'tenants.name as tenant'])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
}

export async function markInviteRevoked(db: Executor, id: string, now: Date): Promise<void> {
  await db.updateTable('invites').set({ revoked_at: now }).where('id', '=', id).execute();
}

export async function listOpenInvites(db: Executor, tenantId: string) {
  return db
    .selectFrom('invites as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'u.name as inviter', 'i.created_at', 'i.expires_at'])
    .where('i.tenant_id', '=', tenantId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .orderBy('i.created_at', 'desc')
    .execute();
}

/** Revokes an open invitation of the tenant; false when there is none. */
export async function revokeOpenInvite(db: Executor, tenantId: string, id: string, now: Date): Promise<boolean> {
  const r = await db
    .updateTable('invites')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function openInviteByHash(db: Executor, tokenHash: Buffer) {
  return db
    .selectFrom('invites as i')
    .innerJoin('tenants as t', 't.id', 'i.tenant_id')
    .select(['i.id', 'i.tenant_id', 'i.email', 'i.role', 'i.expires_at', 't.name as tenant_name'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .executeTakeFirst();
}

/** Takes the invitation, once; false when it was used, revoked or expired meanwhile. */
export async function takeInvite(tx: Executor, id: string, now: Date): Promise<boolean> {
  const taken = await tx
    .updateTable('invites')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

export async function setInviteAcceptedBy(tx: Executor, id: string, userId: string): Promise<void> {
  await tx.updateTable('invites').set({ accepted_by: userId }).where('id', '=', id).execute();
}

/** Adds the membership unless the user is already a member (whose role then stays). */
export async function addMembership(tx: Executor, tenantId: string, userId: string, role: Role): Promise<void> {
  await tx.insertInto('memberships').values({ tenant_id: tenantId, user_id: userId, role }).onConflict((oc) => oc.doNothing()).execute();
}

// Members.

export async function memberRows(db: Executor, tenantId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'u.bio', 'u.avatar_url', 'm.role', 'm.created_at'])
    .where('m.tenant_id', '=', tenantId)
    .orderBy('m.created_at', 'asc')
    .execute();
}

/** Locks the tenant's row: membership changes of one tenant run one after the other. */
export async function lockTenant(tx: Executor, tenantId: string): Promise<void> {
  await tx.selectFrom('tenants').select('id').where('id', '=', tenantId).forUpdate().executeTakeFirst();
}

export async function countOtherOwners(tx: Executor, tenantId: string, userId: string): Promise<number> {
  const r = await tx
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'owner')
    .where('user_id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function setMemberRole(tx: Executor, tenantId: string, userId: string, role: Role): Promise<void> {
  await tx.updateTable('memberships').set({ role }).where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
}

/** Removes the membership and ends the member's sessions and tokens in this tenant, in this order; returns the ended sessions' ids. */
export async function deleteMembership(tx: Executor, tenantId: string, userId: string): Promise<string[]> {
  await tx.deleteFrom('memberships').where('tenant_id', '=', tenantId).where('user_id', '=', userId).execute();
  const ended = await tx
    .updateTable('sessions')
    .set({ revoked_at: new Date(), revoke_reason: 'membership_removed' })
    .where('tenant_id', '=', tenantId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  await tx.updateTable('personal_access_tokens').set({ revoked_at: new Date() }).where('tenant_id', '=', tenantId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  return ended.map((r) => r.id);
}

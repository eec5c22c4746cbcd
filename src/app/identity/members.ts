// Tenant membership (D2 roles). People join through invitations (identity/invites.ts): nobody is
// added without consent. Owners and admins change roles and remove members; only an owner grants
// or takes away the owner role; a tenant always keeps at least one owner.
//
// The last-owner rule is a check and a write that must be one step: two owners demoting each other
// at the same moment would each see the other still an owner and both succeed, leaving none
// (issue 22 item 2). Every role change and removal therefore locks the tenant's row first, so such
// changes to one tenant run one after the other and each sees the previous one's result.
import type { Db, Executor } from '../../store/db.ts';
import * as repo from './invites.repo.ts';
import { membershipRole } from './users.repo.ts';
import { appError } from '../../core/errors.ts';
import type { Role } from '../../core/identity.ts';
import type { AuthContext } from './auth.ts';
import { assertMayAssign } from './invites.ts';
import { evictSessionKeys, type KeyCache } from './keys.ts';

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
  bio: string | null;
  avatarUrl: string | null;
  createdAt: string;
}

export async function listMembers(db: Db, tenantId: string): Promise<MemberView[]> {
  const rows = await repo.memberRows(db, tenantId);
  return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role, bio: r.bio, avatarUrl: r.avatar_url, createdAt: r.created_at.toISOString() }));
}

/** Serialises membership changes of one tenant (see the header) and returns the target's role. */
async function lockAndRead(tx: Executor, tenantId: string, userId: string): Promise<Role> {
  await repo.lockTenant(tx, tenantId);
  const role = await membershipRole(tx, tenantId, userId);
  if (!role) throw appError('not_found', 'Member not found');
  return role;
}

const otherOwners = repo.countOtherOwners;

/** The caller's own role, read under the lock: a demoted owner cannot act on what it just lost. */
async function callerRole(tx: Executor, ctx: AuthContext): Promise<AuthContext> {
  const role = await membershipRole(tx, ctx.tenantId, ctx.userId);
  if (!role) throw appError('forbidden', 'You are no longer a member of this tenant');
  return { ...ctx, role };
}

export async function changeRole(db: Db, ctx: AuthContext, userId: string, role: Role): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const was = await lockAndRead(tx, ctx.tenantId, userId);
    const me = await callerRole(tx, ctx);
    assertMayAssign(me, role);
    if (was === 'owner') {
      if (me.role !== 'owner') throw appError('forbidden', 'Only an owner can change an owner');
      if (role !== 'owner' && (await otherOwners(tx, ctx.tenantId, userId)) === 0) throw appError('conflict', 'A tenant keeps at least one owner: make another member owner first');
    }
    await repo.setMemberRole(tx, ctx.tenantId, userId, role);
  });
}

export async function removeMember(db: Db, keyCache: KeyCache, ctx: AuthContext, userId: string): Promise<void> {
  const ended = await db.transaction().execute(async (tx) => {
    const was = await lockAndRead(tx, ctx.tenantId, userId);
    const me = await callerRole(tx, ctx);
    assertMayAssign(me, was);
    if (was === 'owner' && (await otherOwners(tx, ctx.tenantId, userId)) === 0) throw appError('conflict', 'A tenant keeps at least one owner: make another member owner first');
    // Their sessions and tokens in this tenant end with the membership.
    return repo.deleteMembership(tx, ctx.tenantId, userId);
  });
  // The trigger revoked those sessions' keys in the transaction; once it committed, every replica's cache drops them.
  await evictSessionKeys(db, keyCache, ended);
}

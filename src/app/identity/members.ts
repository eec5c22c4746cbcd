// Tenant membership (D2 roles). The spec names a Membership group without listing it; our
// decision (docs/decisions.md): owners and admins add an existing user by e-mail with a role,
// change roles and remove members; nobody can remove or demote the last owner.
import { sql } from 'kysely';
import type { Db } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import { ROLE_RANK, type AuthContext, type Role } from './auth.ts';

export interface MemberView {
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

export async function listMembers(db: Db, tenantId: string): Promise<MemberView[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role', 'm.created_at'])
    .where('m.tenant_id', '=', tenantId)
    .orderBy('m.created_at', 'asc')
    .execute();
  return rows.map((r) => ({ userId: r.id, email: r.email, name: r.name, role: r.role, createdAt: r.created_at.toISOString() }));
}

/** Only an owner may grant or take away the owner role; admins manage the roles below. */
function assertMayAssign(ctx: AuthContext, role: Role) {
  if (role === 'owner' && ctx.role !== 'owner') throw appError('forbidden', 'Only an owner can grant the owner role');
  if (ROLE_RANK[ctx.role] < ROLE_RANK.admin) throw appError('forbidden', 'This action needs the admin role or higher');
}

export async function addMember(db: Db, ctx: AuthContext, input: { email: string; role: Role }): Promise<MemberView> {
  assertMayAssign(ctx, input.role);
  const user = await db.selectFrom('users').select(['id', 'email', 'name']).where(sql`lower(email)`, '=', input.email.toLowerCase()).executeTakeFirst();
  if (!user) throw appError('not_found', 'No user with that e-mail; they must sign up first');
  const r = await db
    .insertInto('memberships')
    .values({ tenant_id: ctx.tenantId, user_id: user.id, role: input.role })
    .onConflict((oc) => oc.doNothing())
    .returning(['created_at'])
    .executeTakeFirst();
  if (!r) throw appError('conflict', 'That user is already a member');
  return { userId: user.id, email: user.email, name: user.name, role: input.role, createdAt: r.created_at.toISOString() };
}

async function ownersLeftWithout(db: Db, tenantId: string, userId: string): Promise<number> {
  const r = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<bigint>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'owner')
    .where('user_id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

async function currentRole(db: Db, tenantId: string, userId: string): Promise<Role> {
  const m = await db.selectFrom('memberships').select('role').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
  if (!m) throw appError('not_found', 'Member not found');
  return m.role;
}

export async function changeRole(db: Db, ctx: AuthContext, userId: string, role: Role): Promise<void> {
  assertMayAssign(ctx, role);
  const was = await currentRole(db, ctx.tenantId, userId);
  if (was === 'owner') {
    if (ctx.role !== 'owner') throw appError('forbidden', 'Only an owner can change an owner');
    if (role !== 'owner' && (await ownersLeftWithout(db, ctx.tenantId, userId)) === 0) throw appError('conflict', 'A tenant keeps at least one owner');
  }
  await db.updateTable('memberships').set({ role }).where('tenant_id', '=', ctx.tenantId).where('user_id', '=', userId).execute();
}

export async function removeMember(db: Db, ctx: AuthContext, userId: string): Promise<void> {
  const was = await currentRole(db, ctx.tenantId, userId);
  assertMayAssign(ctx, was);
  if (was === 'owner' && (await ownersLeftWithout(db, ctx.tenantId, userId)) === 0) throw appError('conflict', 'A tenant keeps at least one owner');
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('memberships').where('tenant_id', '=', ctx.tenantId).where('user_id', '=', userId).execute();
    // Their sessions in this tenant end with the membership.
    await tx.updateTable('sessions').set({ revoked_at: new Date(), revoke_reason: 'membership_removed' }).where('tenant_id', '=', ctx.tenantId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
    await tx.updateTable('personal_access_tokens').set({ revoked_at: new Date() }).where('tenant_id', '=', ctx.tenantId).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  });
}

// Invitations (D13; issue 22 item 7): the only way a person joins a tenant after sign-up. Owners
// and admins invite an e-mail address with a role (only an owner may invite an owner); the
// address receives a single-use link, valid 7 days, to <PUBLIC_URL>/invite?token=...
// Nobody is added without their consent, and inviting answers the same whether the address has
// an account or not. The link's holder accepts:
// - signed in as the invited address (no new tokens: the web app switches tenant if it wants);
// - with the invited account's password (a login into the inviting tenant, lockout rules apply);
// - as a new user, with a name and a password (the address counts as verified: the link proves it).
import { sql } from 'kysely';
import type { Services } from '../shared/services.ts';
import { appError } from '../../core/errors.ts';
import { INVITE_TTL_MS, ROLE_RANK, type Role } from '../../core/identity.ts';
import { audit } from './audit.ts';
import { startSession, type AuthContext } from './auth.ts';
import { hashPassword, verifyCredentials, type RequestMeta, type UserView } from './credentials.ts';
import { linkHash, newLinkToken } from './links.ts';
import { escapeHtml } from '../shared/html.ts';

export interface InviteView {
  id: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
  status: 'pending' | 'expired';
}

type InviteRow = { id: string; email: string; role: Role; inviter: string | null; created_at: Date; expires_at: Date };
const toView = (r: InviteRow, now: Date): InviteView => ({
  id: r.id,
  email: r.email,
  role: r.role,
  invitedBy: r.inviter,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  status: r.expires_at > now ? 'pending' : 'expired',
});

/** Only an owner may grant the owner role; admins invite and manage the roles below. */
export function assertMayAssign(ctx: AuthContext, role: Role) {
  if (ROLE_RANK[ctx.role] < ROLE_RANK.admin) throw appError('forbidden', 'This action needs the admin role or higher');
  if (role === 'owner' && ctx.role !== 'owner') throw appError('forbidden', 'Only an owner can grant the owner role');
}

export async function createInvite(s: Services, ctx: AuthContext, input: { email: string; role: Role }): Promise<InviteView> {
  assertMayAssign(ctx, input.role);
  const email = input.email.trim();
  const member = await s.db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select('u.id')
    .where('m.tenant_id', '=', ctx.tenantId)
    .where(sql`lower(u.email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  if (member) throw appError('conflict', 'That address already belongs to a member of this tenant');
  const now = s.clock.now();
  const { token, hash } = newLinkToken();
  const row = await s.db.transaction().execute(async (tx) => {
    // Inviting again replaces the open invitation: its link stops working.
    await tx
      .updateTable('invites')
      .set({ revoked_at: now })
      .where('tenant_id', '=', ctx.tenantId)
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    return tx
      .insertInto('invites')
      .values({ tenant_id: ctx.tenantId, email, role: input.role, token_hash: hash, invited_by: ctx.userId, created_at: now, expires_at: new Date(now.getTime() + INVITE_TTL_MS) })
      .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
  });
  const who = await s.db
    .selectFrom('users')
    .innerJoin('tenants', (j) => j.on('tenants.id', '=', ctx.tenantId))
    .select(['users.name as inviter', 'tenants.name as tenant'])
    .where('users.id', '=', ctx.userId)
    .executeTakeFirstOrThrow();
  const link = `${s.publicUrl}/invite?token=${encodeURIComponent(token)}`;
  try {
    await s.mailer.send({
      to: email,
      subject: `${who.inviter} invited you to ${who.tenant} on Switchboard`,
      text: `Hello,\n\n${who.inviter} invited you to join ${who.tenant} on Switchboard as ${input.role}.\nAccept by opening:\n${link}\n\nThe link works once, for 7 days. If you were not expecting it, ignore this e-mail.`,
      html: `<p>Hello,</p><p>${escapeHtml(who.inviter)} invited you to join <b>${escapeHtml(who.tenant)}</b> on Switchboard as ${input.role}.</p><p><a href="${link}">Accept the invitation</a></p><p>The link works once, for 7 days. If you were not expecting it, ignore this e-mail.</p>`,
    });
  } catch (err) {
    s.log.error({ err }, 'invitation e-mail failed');
    await s.db.updateTable('invites').set({ revoked_at: now }).where('id', '=', row.id).execute();
    throw appError('mail_failed', 'The invitation e-mail could not be sent; nothing was created, try again in a moment');
  }
  return toView({ ...row, inviter: who.inviter }, now);
}

export async function listInvites(s: Services, ctx: AuthContext): Promise<InviteView[]> {
  const rows = await s.db
    .selectFrom('invites as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'u.name as inviter', 'i.created_at', 'i.expires_at'])
    .where('i.tenant_id', '=', ctx.tenantId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .orderBy('i.created_at', 'desc')
    .execute();
  const now = s.clock.now();
  return rows.map((r) => toView(r, now));
}

export async function revokeInvite(s: Services, ctx: AuthContext, id: string): Promise<void> {
  const r = await s.db
    .updateTable('invites')
    .set({ revoked_at: s.clock.now() })
    .where('id', '=', id)
    .where('tenant_id', '=', ctx.tenantId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (r.numUpdatedRows === 0n) throw appError('not_found', 'No open invitation with that id');
}

async function openInvite(s: Services, token: string) {
  const inv = await s.db
    .selectFrom('invites as i')
    .innerJoin('tenants as t', 't.id', 'i.tenant_id')
    .select(['i.id', 'i.tenant_id', 'i.email', 'i.role', 'i.expires_at', 't.name as tenant_name'])
    .where('i.token_hash', '=', linkHash(token))
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!inv || inv.expires_at <= s.clock.now()) throw appError('invalid_link', 'The invitation is invalid, expired or already used; ask for a new one');
  return inv;
}

/** What the /invite page shows before accepting; only the link's holder can ask. */
export async function previewInvite(s: Services, token: string) {
  const inv = await openInvite(s, token);
  const user = await s.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', inv.email.toLowerCase()).executeTakeFirst();
  return { tenant: { id: inv.tenant_id, name: inv.tenant_name }, email: inv.email, role: inv.role, expiresAt: inv.expires_at.toISOString(), accountExists: Boolean(user) };
}

export interface AcceptInput {
  token: string;
  name?: string;
  password?: string;
}

export async function acceptInvite(s: Services, ctx: AuthContext | null, input: AcceptInput, meta: RequestMeta) {
  const inv = await openInvite(s, input.token);
  let user: UserView;
  let newUserHash: string | null = null;
  if (ctx) {
    user = await s.db.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', ctx.userId).executeTakeFirstOrThrow();
    if (user.email.toLowerCase() !== inv.email.toLowerCase()) {
      throw appError('forbidden', `This invitation was sent to ${inv.email}; sign in with that address to accept it`);
    }
  } else if (input.name !== undefined && input.password !== undefined) {
    const taken = await s.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', inv.email.toLowerCase()).executeTakeFirst();
    if (taken) throw appError('email_taken', 'An account with this e-mail exists: accept with its password');
    newUserHash = await hashPassword(input.password);
    user = { id: '', email: inv.email, name: input.name };
  } else if (input.password !== undefined) {
    user = await verifyCredentials(s, inv.email, input.password, meta);
  } else {
    throw appError('unauthenticated', 'Sign in, or give the account password, or a name and a password to create the account');
  }
  const now = s.clock.now();
  try {
    return await s.db.transaction().execute(async (tx) => {
      const taken = await tx
        .updateTable('invites')
        .set({ accepted_at: now })
        .where('id', '=', inv.id)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (taken.numUpdatedRows === 0n) throw appError('invalid_link', 'The invitation is invalid, expired or already used; ask for a new one');
      if (newUserHash) {
        const u = await tx
          .insertInto('users')
          .values({ email: inv.email, password_hash: newUserHash, name: user.name, email_verified_at: now })
          .returning(['id', 'email', 'name'])
          .executeTakeFirstOrThrow();
        user = u;
      }
      await tx.updateTable('invites').set({ accepted_by: user.id }).where('id', '=', inv.id).execute();
      // Already a member (e.g. invited twice by two admins): the membership and its role stay.
      await tx.insertInto('memberships').values({ tenant_id: inv.tenant_id, user_id: user.id, role: inv.role }).onConflict((oc) => oc.doNothing()).execute();
      const m = await tx.selectFrom('memberships').select('role').where('tenant_id', '=', inv.tenant_id).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      const tokens = ctx ? null : (await startSession(s, tx, user.id, inv.tenant_id, meta)).tokens;
      await audit(tx, s.secrets.ledger, { userId: user.id, tenantId: inv.tenant_id, event: newUserHash ? 'signup' : 'invite_accepted', at: now, detail: { inviteId: inv.id }, ...meta });
      return { tenant: { id: inv.tenant_id, name: inv.tenant_name }, role: m.role, user, tokens };
    });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw appError('email_taken', 'An account with this e-mail exists: accept with its password');
    throw e;
  }
}

// Invitations (D13; issue 22 item 7): the only way a person joins a tenant after sign-up. Owners
// and admins invite an e-mail address with a role (only an owner may invite an owner); the
// address receives a single-use link, valid 7 days, to <PUBLIC_URL>/invite?token=...
// Nobody is added without their consent, and inviting answers the same whether the address has
// an account or not. The link's holder accepts:
// - signed in as the invited address (no new tokens: the web app switches tenant if it wants);
// - with the invited account's password (a login into the inviting tenant, lockout rules apply);
// - as a new user, with a name and a password (the address counts as verified: the link proves it).
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { INVITE_TTL_MS, ROLE_RANK, type Role } from '../../core/identity.ts';
import { audit } from './audit.ts';
import { startSession, type AuthContext } from './auth.ts';
import { hashPassword, verifyCredentials, type RequestMeta, type UserView } from './credentials.ts';
import { linkHash, newLinkToken } from './links.ts';
import { escapeHtml } from '../shared/index.ts';
import * as repo from './invites.repo.ts';
import { insertVerifiedUser, membershipRoleOrThrow, userIdByEmail, userView } from './users.repo.ts';

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
  const member = await repo.memberWithEmail(s.db, ctx.tenantId, email);
  if (member) throw appError('conflict', 'That address already belongs to a member of this tenant');
  const now = s.clock.now();
  const { token, hash } = newLinkToken();
  const row = await s.db.transaction().execute(async (tx) => {
    // Inviting again replaces the open invitation: its link stops working.
    await repo.revokeOpenInvitesFor(tx, ctx.tenantId, email, now);
    return repo.insertInvite(tx, { tenantId: ctx.tenantId, email, role: input.role, tokenHash: hash, invitedBy: ctx.userId, now, expiresAt: new Date(now.getTime() + INVITE_TTL_MS) });
  });
  const who = await repo.inviterAndTenant(s.db, ctx.userId, ctx.tenantId);
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
    await repo.markInviteRevoked(s.db, row.id, now);
    throw appError('mail_failed', 'The invitation e-mail could not be sent; nothing was created, try again in a moment');
  }
  return toView({ ...row, inviter: who.inviter }, now);
}

export async function listInvites(s: Services, ctx: AuthContext): Promise<InviteView[]> {
  const rows = await repo.listOpenInvites(s.db, ctx.tenantId);
  const now = s.clock.now();
  return rows.map((r) => toView(r, now));
}

export async function revokeInvite(s: Services, ctx: AuthContext, id: string): Promise<void> {
  if (!(await repo.revokeOpenInvite(s.db, ctx.tenantId, id, s.clock.now()))) throw appError('not_found', 'No open invitation with that id');
}

async function openInvite(s: Services, token: string) {
  const inv = await repo.openInviteByHash(s.db, linkHash(token));
  if (!inv || inv.expires_at <= s.clock.now()) throw appError('invalid_link', 'The invitation is invalid, expired or already used; ask for a new one');
  return inv;
}

/** What the /invite page shows before accepting; only the link's holder can ask. */
export async function previewInvite(s: Services, token: string) {
  const inv = await openInvite(s, token);
  const user = await userIdByEmail(s.db, inv.email);
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
    user = await userView(s.db, ctx.userId);
    if (user.email.toLowerCase() !== inv.email.toLowerCase()) {
      throw appError('forbidden', `This invitation was sent to ${inv.email}; sign in with that address to accept it`);
    }
  } else if (input.name !== undefined && input.password !== undefined) {
    const taken = await userIdByEmail(s.db, inv.email);
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
      if (!(await repo.takeInvite(tx, inv.id, now))) throw appError('invalid_link', 'The invitation is invalid, expired or already used; ask for a new one');
      if (newUserHash) {
        user = await insertVerifiedUser(tx, { email: inv.email, passwordHash: newUserHash, name: user.name, now });
      }
      await repo.setInviteAcceptedBy(tx, inv.id, user.id);
      // Already a member (e.g. invited twice by two admins): the membership and its role stay.
      await repo.addMembership(tx, inv.tenant_id, user.id, inv.role);
      const role = await membershipRoleOrThrow(tx, inv.tenant_id, user.id);
      const tokens = ctx ? null : (await startSession(s, tx, user.id, inv.tenant_id, meta)).tokens;
      await audit(tx, s.secrets.ledger, { userId: user.id, tenantId: inv.tenant_id, event: newUserHash ? 'signup' : 'invite_accepted', at: now, detail: { inviteId: inv.id }, ...meta });
      return { tenant: { id: inv.tenant_id, name: inv.tenant_name }, role, user, tokens };
    });
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw appError('email_taken', 'An account with this e-mail exists: accept with its password');
    throw e;
  }
}

// The signed-in user's profile (spec §2 User) and e-mail verification. The profile PATCH schema is
// exported from http/api/users/schemas.ts so the web app validates with the very same rules.
import { SignJWT, jwtVerify } from 'jose';
import type { Services } from '../shared/index.ts';
import { escapeHtml } from '../shared/index.ts';
// Moved to app/shared/html.ts; re-exported so branches that still import it from here build.
export { escapeHtml };
import { appError } from '../../core/errors.ts';
import { audit } from './audit.ts';
import { confirmEmail, otherUserWithEmail, profileRow, updateProfileRow } from './users.repo.ts';

export interface UserProfile {
  id: string;
  email: string;
  name: string;
  timezone: string;
  bio: string | null;
  avatarUrl: string | null;
  emailVerifiedAt: string | null;
  /** A new address waiting for its verification link; `email` changes only when it is followed. */
  pendingEmail: string | null;
  idleTimeout: string;
  platformAdmin: boolean;
}

type Row = {
  id: string;
  email: string;
  name: string;
  timezone: string;
  bio: string | null;
  avatar_url: string | null;
  email_verified_at: Date | null;
  pending_email: string | null;
  idle_timeout: string;
  platform_admin: boolean;
};

const toProfile = (r: Row): UserProfile => ({
  id: r.id,
  email: r.email,
  name: r.name,
  timezone: r.timezone,
  bio: r.bio,
  avatarUrl: r.avatar_url,
  emailVerifiedAt: r.email_verified_at?.toISOString() ?? null,
  pendingEmail: r.pending_email,
  idleTimeout: r.idle_timeout,
  platformAdmin: r.platform_admin,
});

export async function getProfile(s: Services, userId: string): Promise<UserProfile> {
  const r = await profileRow(s.db, userId);
  if (!r) throw appError('not_found', 'User not found');
  return toProfile(r);
}

export interface ProfilePatch {
  name?: string;
  email?: string;
  timezone?: string;
  bio?: string | null;
  avatarUrl?: string | null;
  idleTimeout?: string;
}

/**
 * A changed e-mail does not take effect at once (issue 16 item 1): it is kept as `pendingEmail` and
 * a link goes to the new address; following it swaps the address in and sets `emailVerifiedAt`.
 * Until then the account signs in, resets its password and gets mail at the old, proven address,
 * which is also told of the request (so a hijacked session cannot move the account unnoticed).
 * Asking for the current address again cancels a pending change.
 */
export async function updateProfile(s: Services, userId: string, p: ProfilePatch): Promise<UserProfile> {
  const set: Record<string, unknown> = { updated_at: s.clock.now() };
  if (p.name !== undefined) set.name = p.name;
  if (p.timezone !== undefined) set.timezone = p.timezone;
  if (p.bio !== undefined) set.bio = p.bio;
  if (p.avatarUrl !== undefined) set.avatar_url = p.avatarUrl;
  if (p.idleTimeout !== undefined) set.idle_timeout = p.idleTimeout;
  let newEmail: string | null = null;
  let oldEmail = '';
  if (p.email !== undefined) {
    const current = await getProfile(s, userId);
    oldEmail = current.email;
    if (p.email.toLowerCase() === current.email.toLowerCase()) {
      set.pending_email = null;
    } else {
      const taken = await otherUserWithEmail(s.db, p.email, userId);
      if (taken) throw appError('email_taken', 'Another account uses this e-mail address: choose a different one');
      set.pending_email = p.email;
      newEmail = current.pendingEmail === p.email ? null : p.email;
    }
  }
  const r = await updateProfileRow(s.db, userId, set);
  if (newEmail) {
    await sendVerificationEmail(s, userId);
    await s.mailer.send({
      to: oldEmail,
      subject: 'Your Switchboard e-mail address is being changed',
      text: `Hello ${r.name},\n\nSomeone signed in to your Switchboard account asked to change its e-mail address to ${newEmail}. The change takes effect only when the link sent to that address is opened.\n\nIf this was not you, change your password and revoke your sessions on the Security page.`,
      html: `<p>Hello ${escapeHtml(r.name)},</p><p>Someone signed in to your Switchboard account asked to change its e-mail address to ${escapeHtml(newEmail)}. The change takes effect only when the link sent to that address is opened.</p><p>If this was not you, change your password and revoke your sessions on the Security page.</p>`,
    });
  }
  return toProfile(r);
}

const VERIFY_TTL_S = 24 * 3600;

/** E-mail a one-day link whose token is bound to the address it was sent to. */
export async function sendVerificationEmail(s: Services, userId: string): Promise<void> {
  const u = await getProfile(s, userId);
  // A pending change is what needs proving; otherwise the current address.
  const to = u.pendingEmail ?? u.email;
  const now = Math.floor(s.clock.now().getTime() / 1000);
  const token = await new SignJWT({ typ: 'verify-email', email: to })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(u.id)
    .setIssuedAt(now)
    .setExpirationTime(now + VERIFY_TTL_S)
    .sign(s.secrets.jwt);
  // The link opens the web app's page, which confirms through the API (D13).
  const link = `${s.publicUrl}/verify-email?token=${encodeURIComponent(token)}`;
  await s.mailer.send({
    to,
    subject: 'Verify your e-mail address for Switchboard',
    text: `Hello ${u.name},\n\nConfirm this address for your Switchboard account by opening:\n${link}\n\nThe link works for 24 hours.`,
    html: `<p>Hello ${escapeHtml(u.name)},</p><p>Confirm this address for your Switchboard account:</p><p><a href="${link}">Verify e-mail</a></p><p>The link works for 24 hours.</p>`,
  });
}

export async function verifyEmail(s: Services, token: string): Promise<UserProfile> {
  let claims: { sub?: string; email?: unknown; typ?: unknown };
  try {
    ({ payload: claims } = await jwtVerify(token, s.secrets.jwt, { algorithms: ['HS256'], currentDate: s.clock.now() }));
  } catch {
    throw appError('invalid_token', 'The verification link is invalid or expired');
  }
  if (claims.typ !== 'verify-email' || typeof claims.sub !== 'string' || typeof claims.email !== 'string') {
    throw appError('invalid_token', 'The verification link is invalid or expired');
  }
  const now = s.clock.now();
  const address = claims.email;
  let r: Row | undefined;
  try {
    // The link proves either the current address or the pending one, which then becomes current.
    r = await confirmEmail(s.db, claims.sub, address, now);
  } catch (e) {
    if ((e as { code?: string }).code === '23505') throw appError('email_taken', 'Another account took this e-mail address meanwhile: choose a different one on the Account page');
    throw e;
  }
  if (!r) throw appError('invalid_token', 'The verification link no longer matches the account e-mail');
  await audit(s.db, s.secrets.ledger, { userId: r.id, tenantId: null, event: 'email_verified', at: now });
  return toProfile(r);
}

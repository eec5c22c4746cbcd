// Passwords after sign-up (D13): the forgotten-password link, the reset it leads to, and a change
// by a signed-in user.
// - forgot always answers the same (no account enumeration, D2); the lookup and the e-mail happen
//   after the answer, so its timing says nothing either. Only the newest link of a user works.
// - reset is single-use, valid 30 minutes, and ends every session of the user (whoever knew the
//   old password is signed out); it also lifts a lockout, since the link proves the mailbox.
// - change needs the current password (counted toward the lockout like a login) and ends every
//   other session of the user, keeping the one that made the change.
import type { Services } from '../shared/index.ts';
import { AppError, appError } from '../../core/errors.ts';
import { RESET_LINK_TTL_MS } from '../../core/identity.ts';
import { audit } from './audit.ts';
import { hashPassword, verifyCredentials, type RequestMeta } from './credentials.ts';
import { linkHash, newLinkToken } from './links.ts';
import { escapeHtml } from '../shared/index.ts';
import { insertReset, spendOpenResets, takeReset } from './password.repo.ts';
import { endUserSessions as endSessions } from './sessions.repo.ts';
import { evictSessionKeys } from './keys.ts';
import { emailOf, setPassword, setPasswordAfterReset, userNameByEmail } from './users.repo.ts';

/** Starts the forgotten-password flow in the background and returns at once. */
export function requestPasswordReset(s: Services, email: string, meta: RequestMeta): void {
  sendResetLink(s, email, meta).catch((err) => s.log.error({ err }, 'password reset e-mail failed'));
}

export async function sendResetLink(s: Services, email: string, meta: RequestMeta): Promise<void> {
  const user = await userNameByEmail(s.db, email);
  if (!user) return;
  const now = s.clock.now();
  const { token, hash } = newLinkToken();
  await s.db.transaction().execute(async (tx) => {
    await spendOpenResets(tx, user.id, now);
    await insertReset(tx, { userId: user.id, tokenHash: hash, now, expiresAt: new Date(now.getTime() + RESET_LINK_TTL_MS) });
    await audit(tx, s.secrets.ledger, { userId: user.id, tenantId: null, event: 'password_reset_requested', at: now, ...meta });
  });
  const link = `${s.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
  await s.mailer.send({
    to: user.email,
    subject: 'Reset your Switchboard password',
    text: `Hello ${user.name},\n\nChoose a new password for your Switchboard account by opening:\n${link}\n\nThe link works once, for 30 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.`,
    html: `<p>Hello ${escapeHtml(user.name)},</p><p>Choose a new password for your Switchboard account:</p><p><a href="${link}">Reset password</a></p><p>The link works once, for 30 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.</p>`,
  });
}

export async function resetPassword(s: Services, token: string, password: string, meta: RequestMeta): Promise<void> {
  const passwordHash = await hashPassword(password);
  const now = s.clock.now();
  const ended = await s.db.transaction().execute(async (tx) => {
    const link = await takeReset(tx, linkHash(token), now);
    if (!link) throw appError('invalid_link', 'The reset link is invalid, expired or already used; ask for a new one at /forgot-password');
    await setPasswordAfterReset(tx, link.user_id, passwordHash, now);
    const ids = await endSessions(tx, link.user_id, now, 'password_reset');
    await audit(tx, s.secrets.ledger, { userId: link.user_id, tenantId: null, event: 'password_reset', at: now, detail: { sessionsEnded: ids.length }, ...meta });
    return ids;
  });
  // The ended sessions' keys were revoked by trigger in that transaction: out of every replica's cache now.
  await evictSessionKeys(s.db, s.keyCache, ended);
}

export async function changePassword(
  s: Services,
  who: { userId: string; tenantId: string; sessionId: string | null },
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
): Promise<void> {
  const email = await emailOf(s.db, who.userId);
  try {
    await verifyCredentials(s, email, input.currentPassword, meta);
  } catch (e) {
    if (e instanceof AppError && e.code === 'invalid_credentials') {
      throw appError('validation', 'currentPassword: is not correct (5 wrong tries lock the account for 15 minutes)', { field: 'currentPassword' });
    }
    throw e;
  }
  const passwordHash = await hashPassword(input.newPassword);
  const now = s.clock.now();
  const ended = await s.db.transaction().execute(async (tx) => {
    await setPassword(tx, who.userId, passwordHash, now);
    const ids = await endSessions(tx, who.userId, now, 'password_changed', who.sessionId);
    await audit(tx, s.secrets.ledger, { userId: who.userId, tenantId: who.tenantId, event: 'password_changed', at: now, detail: { sessionsEnded: ids.length }, ...meta });
    return ids;
  });
  await evictSessionKeys(s.db, s.keyCache, ended);
}

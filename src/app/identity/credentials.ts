// Checking an e-mail and password (D2): argon2id, lockout after 5 failures for 15 minutes, one
// generic answer. Used by login, by accepting an invitation with a password, and by a password
// change (so a stolen access token cannot guess the password without tripping the lockout).
//
// No account enumeration (issue 22 item 7): an unknown e-mail is verified against a dummy hash, so
// both paths cost one lookup and one argon2 verify. The failure bookkeeping only a real account
// needs (counter, lockout, audit append) made its answer measurably slower (about 1.4 ms over 60
// tries), so a refusal does not wait for it: the answer leaves when the verify is done and
// FAILURE_FLOOR_MS has passed since the check began, and the bookkeeping finishes on its own (it
// is normally done well before the floor). Under heavy load a failure may therefore be counted a
// moment after its answer; the per-address sign-in limit still bounds the guesses.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { audit } from './audit.ts';
import { clearFailedLogins, countLoginAttempt, userForLogin } from './users.repo.ts';

export interface RequestMeta {
  ip?: string | null;
  userAgent?: string | null;
}

export interface UserView {
  id: string;
  email: string;
  name: string;
}

export const hashPassword = (pw: string) => argonHash(pw, { algorithm: 2 /* Argon2id */ });

export const LOCKOUT_THRESHOLD = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
/** Every refused credential check answers after at least this long (above an argon2 verify here). */
export const FAILURE_FLOOR_MS = 200;

let dummyHash: Promise<string> | null = null;
const getDummyHash = () => (dummyHash ??= hashPassword(randomBytes(16).toString('hex')));

/** The user behind an e-mail and password, or `invalid_credentials` (401) after the floor. */
export async function verifyCredentials(s: Services, email: string, password: string, meta: RequestMeta): Promise<UserView> {
  const floor = sleep(FAILURE_FLOOR_MS);
  const r = await check(s, email, password, meta);
  if (r.ok) return r.user;
  // Not awaited: the answer must not show how long a real account's audit rows took.
  r.audit().catch((err) => s.log.error({ err }, 'failed sign-in audit'));
  await floor;
  throw appError('invalid_credentials');
}

type Checked = { ok: true; user: UserView } | { ok: false; audit: () => Promise<unknown> };

async function check(s: Services, email: string, password: string, meta: RequestMeta): Promise<Checked> {
  const user = await userForLogin(s.db, email);
  const now = s.clock.now();
  if (!user) {
    await argonVerify(await getDummyHash(), password).catch(() => false);
    return { ok: false, audit: () => Promise.resolve() };
  }
  if (user.locked_until !== null && user.locked_until > now) {
    await argonVerify(user.password_hash, password).catch(() => false);
    return { ok: false, audit: () => audit(s.db, s.secrets.ledger, { userId: user.id, tenantId: null, event: 'login_failed', at: now, detail: { locked: true }, ...meta }) };
  }
  // The attempt is counted while the hash is verified: the count and the lock are written before
  // the answer (so the next attempt always sees them; a lock written after the answer let a sixth
  // guess through under load), and the write hides behind the verify. A right password clears both.
  const [good, lockedNow] = await Promise.all([
    argonVerify(user.password_hash, password).catch(() => false),
    countLoginAttempt(s.db, user.id, LOCKOUT_THRESHOLD, new Date(now.getTime() + LOCKOUT_MS)),
  ]);
  if (!good) {
    return {
      ok: false,
      audit: async () => {
        await audit(s.db, s.secrets.ledger, { userId: user.id, tenantId: null, event: 'login_failed', at: now, ...meta });
        if (lockedNow) await audit(s.db, s.secrets.ledger, { userId: user.id, tenantId: null, event: 'account_locked', at: now, ...meta });
      },
    };
  }
  await clearFailedLogins(s.db, user.id);
  return { ok: true, user: { id: user.id, email: user.email, name: user.name } };
}

// Device authorisation for the desktop bridge (D14, RFC 8628). The device asks for a pair of
// codes, shows the short user code, and polls; a signed-in user confirms the code on /device; the
// next poll exchanges the device code, once, for the token pair of a new session named after the
// device (listed and revocable with the user's other sessions). Codes last 15 minutes.
//
// Only a hash of the device code is stored: until it is exchanged it is a bearer secret. User
// codes are 8 letters from an alphabet without vowels or look-alikes (RFC 8628 §6.1), 20^8 ≈
// 2.6·10^10 of them, and approvals are rate-limited per user, so guessing a live one is hopeless.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Services } from '../shared/index.ts';
import { appError, ERRORS } from '../../core/errors.ts';
import { audit } from './audit.ts';
import { startSession, type AuthContext, type RequestMeta } from './auth.ts';
import * as repo from './device-auth.repo.ts';
import { nameSession } from './sessions.repo.ts';

export const DEVICE_CODE_TTL_S = 15 * 60;
/** The polling interval a device is told to keep (RFC 8628 §3.2); slow_down adds 5 s each time. */
export const DEVICE_POLL_INTERVAL_S = 5;
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

const hashCode = (code: string) => createHash('sha256').update(code).digest();

/** "bcdf-ghjk", "BCDF GHJK" and "BCDFGHJK" are the same code. */
export function normaliseUserCode(input: string): string {
  return input.toUpperCase().replace(/[^A-Z]/g, '');
}
export const displayUserCode = (c: string) => `${c.slice(0, 4)}-${c.slice(4)}`;

function newUserCode(): string {
  let c = '';
  for (let i = 0; i < 8; i++) c += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return c;
}

export async function startDeviceAuthorization(s: Services, input: { deviceName: string }, meta: RequestMeta) {
  const deviceCode = randomBytes(32).toString('base64url');
  const now = s.clock.now();
  for (let attempt = 0; ; attempt++) {
    const userCode = newUserCode();
    try {
      await repo.insertDeviceAuthorization(s.db, {
        device_code_hash: hashCode(deviceCode),
        user_code: userCode,
        device_name: input.deviceName,
        interval_s: DEVICE_POLL_INTERVAL_S,
        ip: meta.ip ?? null,
        user_agent: meta.userAgent?.slice(0, 512) ?? null,
        created_at: now,
        expires_at: new Date(now.getTime() + DEVICE_CODE_TTL_S * 1000),
      });
      const base = s.publicUrl.replace(/\/+$/, '');
      return {
        deviceCode,
        userCode: displayUserCode(userCode),
        verificationUri: `${base}/device`,
        verificationUriComplete: `${base}/device?code=${displayUserCode(userCode)}`,
        expiresIn: DEVICE_CODE_TTL_S,
        interval: DEVICE_POLL_INTERVAL_S,
      };
    } catch (e) {
      // A user code already taken (unique): draw another; anything else is a real failure.
      if ((e as { code?: string }).code !== '23505' || attempt >= 5) throw e;
    }
  }
}

async function pendingByUserCode(s: Services, userCode: string) {
  const code = normaliseUserCode(userCode);
  if (code.length !== 8) throw appError('invalid_user_code');
  const row = await repo.deviceByUserCode(s.db, code);
  if (!row || row.status !== 'pending' || row.expires_at <= s.clock.now()) throw appError('invalid_user_code');
  return row;
}

/** What the /device page shows before the user confirms: which device asks. */
export async function describeUserCode(s: Services, userCode: string) {
  const r = await pendingByUserCode(s, userCode);
  return { userCode: displayUserCode(normaliseUserCode(userCode)), deviceName: r.device_name, requestedAt: r.created_at.toISOString(), expiresAt: r.expires_at.toISOString(), ip: r.ip };
}

/** The signed-in user approves (or denies) the device showing `userCode`. */
export async function decideDeviceAuthorization(s: Services, ctx: AuthContext, input: { userCode: string; approve: boolean }, meta: RequestMeta) {
  if (!ctx.sessionId) throw appError('forbidden', 'Approve devices from a signed-in browser session, not with a personal access token');
  const row = await pendingByUserCode(s, input.userCode);
  const now = s.clock.now();
  if (!(await repo.decideDevice(s.db, row.id, { status: input.approve ? 'approved' : 'denied', userId: ctx.userId, tenantId: ctx.tenantId, now }))) throw appError('invalid_user_code');
  await audit(s.db, s.secrets.ledger, {
    userId: ctx.userId,
    tenantId: ctx.tenantId,
    event: input.approve ? 'device_approved' : 'device_denied',
    at: now,
    detail: { deviceName: row.device_name, authorizationId: row.id },
    ...meta,
  });
  return { deviceName: row.device_name, approved: input.approve };
}

/**
 * The device's poll (RFC 8628 §3.4–3.5). Answers the token pair once approved, and one of
 * authorization_pending, slow_down, expired_token, access_denied or invalid_grant otherwise.
 */
export async function pollDeviceToken(s: Services, deviceCode: string, meta: RequestMeta) {
  const now = s.clock.now();
  const outcome = await s.db.transaction().execute(async (tx) => {
    const row = await repo.lockDeviceByCodeHash(tx, hashCode(deviceCode));
    if (!row || row.status === 'consumed') return { error: 'invalid_grant' as const };
    if (row.expires_at <= now) return { error: 'expired_token' as const };
    if (row.status === 'denied') return { error: 'access_denied' as const };
    // Too soon after the previous poll: slow_down, and the interval grows by 5 s for good.
    if (row.last_polled_at && now.getTime() - row.last_polled_at.getTime() < row.interval_s * 1000) {
      const interval = row.interval_s + 5;
      await repo.notePoll(tx, row.id, now, interval);
      return { error: 'slow_down' as const, interval };
    }
    if (row.status === 'pending') {
      await repo.notePoll(tx, row.id, now);
      return { error: 'authorization_pending' as const, interval: row.interval_s };
    }
    // Approved: mint the session now, and never again for this code.
    const { tokens, sessionId } = await startSession(s, tx, row.user_id!, row.tenant_id!, meta);
    await nameSession(tx, sessionId, row.device_name);
    await repo.consumeDevice(tx, row.id, sessionId, now);
    await audit(tx, s.secrets.ledger, { userId: row.user_id!, tenantId: row.tenant_id!, event: 'login', at: now, detail: { sessionId, device: row.device_name }, ...meta });
    return { tokens, sessionId, deviceName: row.device_name, tenantId: row.tenant_id! };
  });
  if ('error' in outcome && outcome.error) {
    const e = outcome.error;
    const wait = 'interval' in outcome && outcome.interval ? ` Poll every ${outcome.interval} seconds.` : '';
    throw appError(e, wait ? `${ERRORS[e].message}.${wait}` : undefined);
  }
  return outcome as Exclude<typeof outcome, { error: unknown }>;
}

// The profile schema: the PATCH body here is THE schema the web app validates with (spec §2:
// "PATCH validation uses the same schema the UI uses"), so it lives in one exported place.
import { z } from 'zod';
import { IDLE_CHOICES } from '../../../core/identity.ts';
import { ALERT_CHANNELS, DIGEST_CADENCES } from '../../../core/notifications.ts';
import { nonNegativeMicros } from '../common.ts';
import { password, passwordAttempt } from '../auth/schemas.ts';

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const profilePatchSchema = z
  .strictObject({
    name: z.string().trim().min(1, 'must not be empty').max(120),
    email: z.email({ message: 'must be an e-mail address' }).max(254),
    timezone: z.string().max(64).refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris'),
    bio: z.string().max(1000).nullable(),
    avatarUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048).nullable(),
    idleTimeout: z.enum(IDLE_CHOICES),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one field is required');
export type ProfilePatchInput = z.infer<typeof profilePatchSchema>;

export const profile = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  timezone: z.string(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  emailVerifiedAt: z.string().nullable(),
  /** A requested new address, not in effect until its verification link is followed. */
  pendingEmail: z.string().nullable(),
  idleTimeout: z.string(),
  platformAdmin: z.boolean(),
});

/** POST /api/users/me/password. */
export const passwordChangeBody = z.strictObject({ currentPassword: passwordAttempt, newPassword: password });
export type PasswordChangeBody = z.infer<typeof passwordChangeBody>;

/** GET /api/users/me/sessions: one row per open session. */
export const session = z.object({
  id: z.string(),
  /** The device of a desktop-bridge session (D14); null for a browser sign-in. */
  name: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});

/** Personal access tokens (D2). */
export const pat = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  last4: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export const patCreateBody = z.strictObject({ name: z.string().trim().min(1, 'must not be empty').max(120), expiresInDays: z.int().min(1).max(3650).optional() });
export const patCreated = z.object({ token: z.string(), record: pat });

/** The security audit log (D2) and its chain check. */
export const auditEntry = z.object({
  id: z.string(),
  event: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  sealHash: z.string(),
  prevHash: z.string(),
});
export const auditVerdict = z.object({ verified: z.boolean(), firstBroken: z.string().nullable(), checked: z.number() });

/** GET/PATCH /api/users/me/notifications (spec §1 /notifications). */
export const notificationSettings = z.object({
  balanceThresholdMicros: z.string().nullable(),
  runwayThresholdDays: z.number().nullable(),
  escalationAlert: z.boolean(),
  digestCadence: z.enum(DIGEST_CADENCES),
  webhookUrl: z.string().nullable(),
  channel: z.enum(ALERT_CHANNELS),
  /** Only right after webhookUrl was set or changed: the alert webhook's signing secret. */
  webhookSecret: z.string().optional(),
});
export const notificationPatch = z
  .strictObject({
    balanceThresholdMicros: nonNegativeMicros.nullable(),
    runwayThresholdDays: z.int('must be a whole number of days').min(1).max(3650).nullable(),
    escalationAlert: z.boolean(),
    digestCadence: z.enum(DIGEST_CADENCES),
    webhookUrl: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048).nullable(),
    channel: z.enum(ALERT_CHANNELS),
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one field is required');

/** POST /api/users/me/notifications/test. */
export const testAlertResult = z.object({ channel: z.enum(ALERT_CHANNELS), to: z.string(), deliveryId: z.string().nullable() });
const attemptView = z.object({
  attempt: z.number(),
  trigger: z.enum(['scheduled', 'replay']),
  startedAt: z.string(),
  durationMs: z.number(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
  responseExcerpt: z.string().nullable(),
  succeeded: z.boolean(),
});
/** GET /api/users/me/notifications/deliveries: the user's alert-webhook deliveries with their attempts. */
export const alertDelivery = z.object({
  id: z.string(),
  eventType: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number(),
  nextAttemptAt: z.string().nullable(),
  lastStatusCode: z.number().nullable(),
  lastError: z.string().nullable(),
  signature: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  attemptLog: z.array(attemptView),
});

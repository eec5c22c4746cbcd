// The profile schema: the PATCH body here is THE schema the web app validates with (spec §2:
// "PATCH validation uses the same schema the UI uses"), so it lives in one exported place.
import { z } from 'zod';
import { IDLE_CHOICES } from '../../../core/identity.ts';
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
  idleTimeout: z.string(),
  platformAdmin: z.boolean(),
});

/** POST /api/users/me/password. */
export const passwordChangeBody = z.strictObject({ currentPassword: passwordAttempt, newPassword: password });
export type PasswordChangeBody = z.infer<typeof passwordChangeBody>;

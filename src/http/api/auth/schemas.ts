// Request and response schemas of /api/auth/**: THE schemas the web app validates its forms with
// (D13: "forms validate with the very zod schemas the API uses"). They import only zod and the
// pure rules of core/identity.ts, so the web bundle can import this file as it is.
import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from '../../../core/identity.ts';

export const email = z.email({ message: 'must be an e-mail address' }).max(254);
/** A new password (sign-up, reset, change, invitation): the policy of D2. */
export const password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`);
/** A password being checked, not chosen: any non-empty string is a valid attempt. */
export const passwordAttempt = z.string().min(1, 'is required').max(MAX_PASSWORD_LENGTH);
export const personName = z.string().trim().min(1, 'must not be empty').max(120);
/** A link token from an e-mail (reset, invitation, verification). */
export const linkToken = z.string().min(1, 'is required').max(4096);

export const loginBody = z.strictObject({ email: z.string().min(1, 'is required').max(254), password: passwordAttempt });
export const signupBody = z.strictObject({ email, password, name: personName, tenantName: z.string().trim().min(1, 'must not be empty').max(120) });
/** The refresh token may come from the body or, for the web app, from its httpOnly cookie. */
export const refreshBody = z.strictObject({ refreshToken: z.string().min(1).max(4096).optional() }).nullish();
export const switchBody = z.strictObject({ tenantId: z.uuid({ message: 'must be a UUID' }) });
export const forgotPasswordBody = z.strictObject({ email });
export const resetPasswordBody = z.strictObject({ token: linkToken, password });
export const verifyEmailBody = z.strictObject({ token: linkToken });

export const tokens = z.object({ accessToken: z.string(), refreshToken: z.string() });
export const loginResult = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  tokens,
});
export const roleSchema = z.enum(['owner', 'admin', 'member', 'viewer']);
export const membershipItem = z.object({ tenantId: z.string(), name: z.string(), role: roleSchema, current: z.boolean(), joinedAt: z.string() });
export const tenantsList = z.object({ items: z.array(membershipItem), nextCursor: z.string().nullable() });
export const switchResult = z.object({ tenantId: z.string(), role: roleSchema, tokens });

export type LoginBody = z.infer<typeof loginBody>;
export type SignupBody = z.infer<typeof signupBody>;
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;
export type ForgotPasswordBody = z.infer<typeof forgotPasswordBody>;

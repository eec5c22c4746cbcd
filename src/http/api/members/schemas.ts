// Request and response schemas of /api/members/** (members and invitations), shared with the web
// app's forms like every schemas.ts under http/api (only zod and core imports).
import { z } from 'zod';
import { email, linkToken, loginResult, password, personName, roleSchema, tokens } from '../auth/schemas.ts';

export const role = roleSchema;
export const member = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role,
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  createdAt: z.string(),
});
export const memberRolePatch = z.strictObject({ role });

export const inviteBody = z.strictObject({ email, role });
export const invite = z.object({
  id: z.string(),
  email: z.string(),
  role,
  invitedBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'expired']),
});

/**
 * Accepting: signed in (token only), with the invited account's password, or as a new user with
 * a name and a password that meets the policy.
 */
export const acceptInviteBody = z
  .strictObject({ token: linkToken, name: personName.optional(), password: z.string().min(1, 'is required').max(256).optional() })
  .superRefine((v, ctx) => {
    if (v.name === undefined) return;
    const p = password.safeParse(v.password ?? '');
    if (!p.success) ctx.addIssue({ code: 'custom', path: ['password'], message: p.error.issues[0]?.message ?? 'is not valid' });
  });
export const invitePreviewQuery = z.strictObject({ token: linkToken });
export const invitePreview = z.object({
  tenant: z.object({ id: z.string(), name: z.string() }),
  email: z.string(),
  role,
  expiresAt: z.string(),
  /** Whether the invited address already has an account: the page asks for its password, or for a name and a new password. */
  accountExists: z.boolean(),
});
export const acceptResult = z.object({
  tenant: z.object({ id: z.string(), name: z.string() }),
  role,
  user: loginResult.shape.user,
  /** A new session in the inviting tenant; null when the invitation was accepted by an already signed-in user. */
  tokens: tokens.nullable(),
});

export type InviteBody = z.infer<typeof inviteBody>;
export type AcceptInviteBody = z.infer<typeof acceptInviteBody>;

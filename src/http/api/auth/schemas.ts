import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '../../../app/identity/auth.ts';

export const email = z.email({ message: 'must be an e-mail address' }).max(254);
export const password = z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(256);
export const tokens = z.object({ accessToken: z.string(), refreshToken: z.string() });
export const loginResult = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  tokens,
});

// Tokens of the single-use links e-mailed to users (password reset, invitation): 256 random bits,
// base64url; only their SHA-256 is stored, so a database reader cannot use a pending link.
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../core/tokens.ts';

export function newLinkToken(): { token: string; hash: Buffer } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashSecret(token) };
}

export const linkHash = (token: string): Buffer => hashSecret(token);

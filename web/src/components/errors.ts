// API errors as a person needs them: what happened and what to do next.
import { ApiError } from '../api/client.ts';

export function describeError(e: unknown): string {
  if (!(e instanceof ApiError)) return 'Switchboard could not be reached. Check your connection and try again.';
  if (e.status === 429) {
    const wait = e.retryAfterS ? ` Try again in ${e.retryAfterS < 90 ? `${e.retryAfterS} seconds` : `${Math.ceil(e.retryAfterS / 60)} minutes`}.` : ' Wait a minute and try again.';
    return `Too many attempts.${wait}`;
  }
  if (e.code === 'invalid_credentials') {
    // The API answers a locked account with the same words (D2: no account enumeration), so the
    // page says both what may have happened and the two ways out.
    return 'The e-mail or password is not right. After 5 failed attempts an account is locked for 15 minutes: wait, or reset your password to get back in now.';
  }
  if (e.status >= 500) return 'Something went wrong on our side. Try again in a moment.';
  return e.message.replace(/\.?$/, '.');
}

// Caps on open event streams (issue 22 item 3): each stream holds a socket, a bus subscription and
// a heartbeat timer for as long as the client likes, so one token could open hundreds. A replica
// admits at most SSE_MAX_STREAMS_PER_USER streams per user and SSE_MAX_STREAMS_PER_TENANT per
// tenant (defaults 20 and 200); the next one is answered 429 with Retry-After. The count is per
// replica because what it protects (sockets, memory, timers) is per process.
import { mapPerServices, type Services } from '../../../app/shared/index.ts';
import type { AuthContext } from '../../../app/identity/index.ts';
import { appError } from '../../../core/errors.ts';

/** Seconds a refused client should wait: streams free up as soon as another one closes. */
export const STREAM_RETRY_AFTER_S = 10;

const counts = mapPerServices<number>();

/** Takes a stream slot for the caller, or throws 429; the returned function gives it back (once). */
export function takeStreamSlot(s: Services, auth: AuthContext): () => void {
  const m = counts(s);
  const userKey = `u:${auth.userId}`;
  const tenantKey = `t:${auth.tenantId}`;
  const headers = { 'retry-after': String(STREAM_RETRY_AFTER_S) };
  if ((m.get(userKey) ?? 0) >= s.config.SSE_MAX_STREAMS_PER_USER) {
    throw appError('rate_limited', `Too many open event streams for this user (at most ${s.config.SSE_MAX_STREAMS_PER_USER}); close one, or retry later`, { headers });
  }
  if ((m.get(tenantKey) ?? 0) >= s.config.SSE_MAX_STREAMS_PER_TENANT) {
    throw appError('rate_limited', `Too many open event streams for this tenant (at most ${s.config.SSE_MAX_STREAMS_PER_TENANT}); close one, or retry later`, { headers });
  }
  m.set(userKey, (m.get(userKey) ?? 0) + 1);
  m.set(tenantKey, (m.get(tenantKey) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const k of [userKey, tenantKey]) {
      const n = (m.get(k) ?? 1) - 1;
      if (n <= 0) m.delete(k);
      else m.set(k, n);
    }
  };
}

// The browser session (D13): the access token lives only in this module's memory; the refresh
// token is an httpOnly, SameSite=Strict cookie scoped to /api/auth that script never sees. The
// access token is renewed silently a minute before it expires, and once more on a 401. Tabs
// serialise their refreshes with a Web Lock, because refresh tokens rotate and a second tab
// presenting the already-rotated cookie would look like token reuse.

type Status = 'unknown' | 'signed-in' | 'signed-out';

let accessToken: string | null = null;
let status: Status = 'unknown';
let timer: ReturnType<typeof setTimeout> | null = null;
let inflight: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

export const getAccessToken = () => accessToken;
export const getStatus = () => status;
export function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
const emit = () => listeners.forEach((fn) => fn());

/** Seconds-since-epoch expiry of a JWT (read only to schedule the refresh; the server verifies). */
function expiryOf(token: string): number | null {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const exp = JSON.parse(atob(part)).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}

export function signedIn(token: string) {
  accessToken = token;
  status = 'signed-in';
  if (timer) clearTimeout(timer);
  const exp = expiryOf(token);
  if (exp) {
    const ms = Math.max(5_000, exp * 1000 - Date.now() - 60_000);
    timer = setTimeout(() => void refresh(), ms);
  }
  emit();
}

export function signedOut() {
  accessToken = null;
  status = 'signed-out';
  if (timer) clearTimeout(timer);
  timer = null;
  emit();
}

async function exchange(): Promise<boolean> {
  const res = await fetch('/api/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  }).catch(() => null);
  if (!res || !res.ok) {
    // A network failure keeps a live token; only the server's "no" ends the session.
    if (!res && accessToken) return true;
    signedOut();
    return false;
  }
  const body = await res.json();
  signedIn(body.data.accessToken);
  return true;
}

/** Renews the access token from the refresh cookie; false when there is no session. */
export function refresh(): Promise<boolean> {
  if (!inflight) {
    const run = () => exchange();
    const locked: Promise<boolean> = typeof navigator !== 'undefined' && navigator.locks ? (navigator.locks.request('switchboard-refresh', run) as unknown as Promise<boolean>) : run();
    inflight = locked.finally(() => {
      inflight = null;
    });
  }
  return inflight!;
}

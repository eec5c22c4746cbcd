// The bridge's signed-in session (D14): device-authorisation sign-in, an access token kept in
// memory and refreshed before it expires (and once more on a 401), the rotated refresh token saved
// at every refresh, and a clear signed-out state when the session is revoked or ends.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CredentialStore, StoredSignIn } from './credential-store.ts';

export class SignedOut extends Error {}

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  code?: string;
}

async function post<T>(url: string, body: unknown): Promise<{ status: number; env: Envelope<T> }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  return { status: res.status, env: (await res.json().catch(() => ({ success: false, error: `HTTP ${res.status}` }))) as Envelope<T> };
}

/** Seconds until a JWT's exp, read without verifying (the server verifies; this only schedules). */
export function secondsLeft(jwt: string, nowMs = Date.now()): number {
  try {
    const exp = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8')).exp as number;
    return exp - nowMs / 1000;
  } catch {
    return 0;
  }
}

export interface DevicePrompt {
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
}

/** RFC 8628 from the device's side: start, tell the person the code, poll until an answer. */
export async function deviceSignIn(baseUrl: string, deviceName: string, store: CredentialStore, show: (p: DevicePrompt) => void): Promise<StoredSignIn> {
  const start = await post<DevicePrompt & { deviceCode: string; interval: number }>(`${baseUrl}/api/auth/device`, { deviceName });
  if (!start.env.success || !start.env.data) throw new Error(`Switchboard at ${baseUrl} refused the sign-in: ${start.env.error ?? start.status}`);
  const d = start.env.data;
  show(d);
  let interval = d.interval;
  const deadline = Date.now() + d.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const r = await post<{ refreshToken: string; sessionId: string; deviceName: string; tenantId: string }>(`${baseUrl}/api/auth/device/token`, { deviceCode: d.deviceCode });
    if (r.env.success && r.env.data) {
      const signIn = { baseUrl, refreshToken: r.env.data.refreshToken, sessionId: r.env.data.sessionId, deviceName: r.env.data.deviceName, tenantId: r.env.data.tenantId };
      await store.save(signIn);
      return signIn;
    }
    if (r.env.code === 'authorization_pending') continue;
    if (r.env.code === 'slow_down') {
      interval += 5;
      continue;
    }
    throw new Error(r.env.error ?? `sign-in failed (${r.status})`);
  }
  throw new Error('The code expired before it was approved: run the sign-in again');
}

export class BridgeSession {
  private access: string | null = null;
  private refreshing: Promise<string> | null = null;

  constructor(
    private signIn: StoredSignIn,
    private readonly store: CredentialStore,
    private readonly onSignedOut: (reason: string) => void,
  ) {}

  get baseUrl() {
    return this.signIn.baseUrl;
  }
  get deviceName() {
    return this.signIn.deviceName;
  }

  /** A valid access token, refreshed when less than a minute (or a fifth of it) is left. */
  async accessToken(): Promise<string> {
    if (this.access && secondsLeft(this.access) > 60) return this.access;
    return this.refresh();
  }

  /** Exchange the refresh token (rotated and saved); a refused one means signed out. */
  refresh(): Promise<string> {
    this.refreshing ??= (async () => {
      try {
        // Another bridge process (`switchboard bridge mcp`) may have rotated the token since this
        // one read it: start from what is saved, so a stale token is never presented (a reuse
        // would end the session).
        const latest = await this.store.load();
        if (latest && latest.sessionId === this.signIn.sessionId) this.signIn = latest;
        const r = await post<{ accessToken: string; refreshToken: string }>(`${this.baseUrl}/api/auth/refresh`, { refreshToken: this.signIn.refreshToken });
        if (r.status === 401) {
          await this.store.clear();
          this.access = null;
          this.onSignedOut(r.env.error ?? 'the session has ended');
          throw new SignedOut(r.env.error ?? 'signed out');
        }
        if (!r.env.success || !r.env.data) throw new Error(`refresh failed: ${r.env.error ?? r.status}`);
        this.signIn = { ...this.signIn, refreshToken: r.env.data.refreshToken };
        await this.store.save(this.signIn);
        this.access = r.env.data.accessToken;
        return this.access;
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  get signInState(): StoredSignIn {
    return this.signIn;
  }

  /** Remember (or forget) the service key of the bridge's MCP server with the sign-in. */
  async saveServiceKey(key: { key: string; id: string } | null): Promise<void> {
    const latest = await this.store.load();
    const base = latest && latest.sessionId === this.signIn.sessionId ? latest : this.signIn;
    this.signIn = { ...base, serviceKey: key?.key, serviceKeyId: key?.id };
    await this.store.save(this.signIn);
  }

  /** GET an /api resource as the signed-in user; one refresh and retry on a 401. */
  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  /** Call an /api resource as the signed-in user; one refresh and retry on a 401. */
  async send<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    for (let i = 0; ; i++) {
      const token = i === 0 ? await this.accessToken() : await this.refresh();
      const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(this.baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
      if (res.status === 401 && i === 0) continue;
      const env = (await res.json().catch(() => null)) as Envelope<T> | null;
      if (!res.ok || !env?.success) throw new Error(`${path}: ${env?.error ?? res.status}`);
      return env.data as T;
    }
  }
}

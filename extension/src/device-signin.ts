// Sign-in by device authorisation (D14, RFC 8628, the desktop bridge's flow) as an alternative to
// pasting a key: the options page asks for a code, the person approves it at <url>/device while
// signed in to the web app, and the access token of that short session creates a service key for
// the project and environment they choose (POST /api/keys; needs the admin role). The session is
// then signed out: the extension keeps only the key, like a pasted one.

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
  code?: string;
}

async function call<T>(baseUrl: string, method: 'GET' | 'POST', path: string, opts: { token?: string; body?: unknown } = {}): Promise<{ status: number; env: Envelope<T> }> {
  let res: Response;
  try {
    res = await fetch(baseUrl + path, {
      method,
      headers: { accept: 'application/json', ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined,
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(20_000),
    });
  } catch (e) {
    throw new Error(`Switchboard at ${baseUrl} could not be reached (${e instanceof Error ? e.message : String(e)}): check the URL`);
  }
  const env = ((await res.json().catch(() => null)) as Envelope<T> | null) ?? { success: false, error: `Switchboard answered HTTP ${res.status}: is this the Switchboard URL?` };
  return { status: res.status, env };
}

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

export async function startSignIn(baseUrl: string): Promise<DeviceCode> {
  const r = await call<DeviceCode>(baseUrl, 'POST', '/api/auth/device', { body: { deviceName: 'Browser extension' } });
  if (!r.env.success || !r.env.data) throw new Error(`Switchboard refused the sign-in: ${r.env.error ?? r.status}`);
  return r.env.data;
}

/** Poll until the code is approved (the access token), refused or expired (an error), or `signal` aborts. */
export async function waitForApproval(baseUrl: string, d: DeviceCode, signal: AbortSignal): Promise<string> {
  let interval = d.interval;
  const deadline = Date.now() + d.expiresIn * 1000;
  while (Date.now() < deadline) {
    await new Promise<void>((res, rej) => {
      const t = setTimeout(res, interval * 1000);
      signal.addEventListener('abort', () => (clearTimeout(t), rej(new Error('Sign-in cancelled'))), { once: true });
    });
    const r = await call<{ accessToken: string }>(baseUrl, 'POST', '/api/auth/device/token', { body: { deviceCode: d.deviceCode } });
    if (r.env.success && r.env.data) return r.env.data.accessToken;
    if (r.env.code === 'authorization_pending') continue;
    if (r.env.code === 'slow_down') {
      interval += 5;
      continue;
    }
    throw new Error(r.env.error ?? `The sign-in failed (HTTP ${r.status}): start it again`);
  }
  throw new Error('The code expired before it was approved: start the sign-in again');
}

export interface ProjectChoice {
  id: string;
  name: string;
  isDefault: boolean;
}

export async function listProjects(baseUrl: string, token: string): Promise<ProjectChoice[]> {
  const r = await call<{ items: ProjectChoice[] }>(baseUrl, 'GET', '/api/projects?limit=100', { token });
  if (!r.env.success || !r.env.data) throw new Error(`Could not list your projects: ${r.env.error ?? r.status}`);
  return r.env.data.items;
}

/** A service key for this browser in the chosen project and environment. */
export async function createKey(baseUrl: string, token: string, projectId: string, environment: string): Promise<string> {
  const r = await call<{ key: string }>(baseUrl, 'POST', '/api/keys', { token, body: { name: 'Browser extension', environment, projectId } });
  if (r.status === 403) throw new Error('Your role cannot create service keys: ask an admin of the account for one and paste it above');
  if (!r.env.success || !r.env.data) throw new Error(`Could not create a key: ${r.env.error ?? r.status}`);
  return r.env.data.key;
}

/** End the sign-in's session: from here on the key is the extension's only credential. */
export async function signOut(baseUrl: string, token: string): Promise<void> {
  await call(baseUrl, 'POST', '/api/auth/logout', { token, body: {} }).catch(() => undefined);
}

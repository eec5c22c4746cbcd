// The typed /api client: JSON in, the envelope out (spec §2), errors as ApiError with the API's
// code, field and Retry-After, so a screen can say what to do next.
import { getAccessToken, refresh } from './session.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
    readonly field: string | null,
    readonly retryAfterS: number | null,
  ) {
    super(message);
  }
}

async function send(method: string, path: string, body: unknown, token: string | null, signal?: AbortSignal) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  return fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin', signal });
}

export async function toApiError(res: Response): Promise<ApiError> {
  let msg = `The server answered ${res.status}`;
  let code: string | null = null;
  let field: string | null = null;
  try {
    const j = await res.json();
    if (typeof j.error === 'string') msg = j.error;
    code = j.code ?? null;
    field = j.field ?? null;
  } catch {
    /* not the envelope: keep the status text */
  }
  const ra = Number(res.headers.get('retry-after'));
  return new ApiError(msg, res.status, code, field, Number.isFinite(ra) && ra > 0 ? ra : null);
}

/** A signed-in call: Bearer from memory, one silent refresh and retry on 401. */
export async function api<T>(method: string, path: string, body?: unknown, opts: { signal?: AbortSignal; anonymous?: boolean } = {}): Promise<T> {
  let res = await send(method, path, body, opts.anonymous ? null : getAccessToken(), opts.signal);
  if (res.status === 401 && !opts.anonymous && (await refresh())) res = await send(method, path, body, getAccessToken(), opts.signal);
  if (!res.ok) throw await toApiError(res);
  const j = await res.json();
  return j.data as T;
}

export const get = <T>(path: string, signal?: AbortSignal) => api<T>('GET', path, undefined, { signal });

/** Query string from defined values only. */
export function qs(params: Record<string, string | number | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}

/** Authenticated download (invoices): fetched with the Bearer header, then saved by the browser. */
export async function download(path: string, filename: string) {
  let res = await send('GET', path, undefined, getAccessToken());
  if (res.status === 401 && (await refresh())) res = await send('GET', path, undefined, getAccessToken());
  if (!res.ok) throw await toApiError(res);
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Upload a file as the raw request body (advisory imports): the browser streams it from disk. */
export async function uploadFile<T>(path: string, file: File, contentType: string): Promise<T> {
  const put = (token: string | null) =>
    fetch(path, { method: 'POST', headers: { accept: 'application/json', 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: file, credentials: 'same-origin' });
  let res = await put(getAccessToken());
  if (res.status === 401 && (await refresh())) res = await put(getAccessToken());
  if (!res.ok) throw await toApiError(res);
  return ((await res.json()) as { data: T }).data;
}

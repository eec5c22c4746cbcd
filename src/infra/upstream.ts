// The upstream HTTP client: one undici connection pool per provider origin, kept alive across
// calls (a TLS + TCP handshake per call would dwarf the gateway's own cost). Timeouts come from
// config; the caller's AbortSignal (client disconnect) cancels the upstream request.
import { Agent, errors as undiciErrors, type Dispatcher } from 'undici';
import type { AbortLike } from './abort.ts';

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

export type UpstreamFailure = 'timeout' | 'connection' | 'aborted';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
  ) {
    super(message);
  }
}

export class UpstreamClient {
  private agent: Agent;

  constructor(opts: { connectTimeoutMs: number; timeoutMs: number; connections?: number }) {
    this.agent = new Agent({
      connect: { timeout: opts.connectTimeoutMs },
      headersTimeout: opts.timeoutMs,
      bodyTimeout: opts.timeoutMs,
      keepAliveTimeout: 30_000,
      connections: opts.connections ?? 256,
      pipelining: 1,
    });
  }

  /** Origin of each upstream URL seen (a handful per provider): parsing a URL costs µs per call. */
  private origins = new Map<string, string>();

  private originOf(url: string): string {
    let origin = this.origins.get(url);
    if (origin === undefined) {
      origin = new URL(url).origin; // throws on a malformed URL, which is then not remembered
      if (this.origins.size >= 1024) this.origins.clear();
      this.origins.set(url, origin);
    }
    return origin;
  }

  async post(url: string, headers: Record<string, string>, body: string, signal?: AbortLike): Promise<UpstreamResponse> {
    try {
      const origin = this.originOf(url);
      const res = await this.agent.request({
        origin,
        path: url.slice(origin.length),
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        // undici reads `aborted`, `reason` and abort listeners only (api-request.js, util.addAbortListener).
        signal: signal as AbortSignal | undefined,
      });
      return { status: res.statusCode, headers: res.headers, body: res.body };
    } catch (e) {
      throw classify(e);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

export function classify(e: unknown): UpstreamError {
  if (e instanceof UpstreamError) return e;
  const err = e as { name?: string; code?: string; message?: string };
  if (err?.name === 'AbortError' || err?.code === 'UND_ERR_ABORTED') return new UpstreamError('aborted', 'request aborted');
  if (
    e instanceof undiciErrors.HeadersTimeoutError ||
    e instanceof undiciErrors.BodyTimeoutError ||
    e instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new UpstreamError('timeout', err.message ?? 'upstream timeout');
  }
  return new UpstreamError('connection', err?.message ?? 'upstream connection failed');
}

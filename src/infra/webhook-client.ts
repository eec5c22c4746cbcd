// Outbound webhook HTTP (D10): undici with SSRF protection at connect time. Unless
// ALLOW_PRIVATE_WEBHOOK_TARGETS is set, a target must be https and every address it reaches must
// be public: names are resolved by our own lookup, which refuses the connection when any resolved
// address is loopback, private, link-local, CGNAT, unique-local, metadata, multicast or an
// IPv4-mapped form of one (so a name that re-resolves to 127.0.0.1 after registration - DNS
// rebinding - is refused at delivery), and the socket's remote address is checked again once
// connected (IP literals never go through a lookup). Redirects are not followed.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, buildConnector, request } from 'undici';
import { forbiddenAddressReason, ipLiteral } from '../core/net/ip.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;
export const WEBHOOK_MAX_BODY_BYTES = 256 * 1024;
const EXCERPT_BYTES = 1024;

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

export interface SendResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string | null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that refuses names resolving to any forbidden address. */
export function guardedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.length === 0) return callback(new TargetRefused(`${hostname} does not resolve`), []);
    for (const a of addresses) {
      const reason = forbiddenAddressReason(a.address);
      if (reason) return callback(new TargetRefused(`${hostname} resolves to ${a.address}, not a public address (${reason})`), []);
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
}

/**
 * Registration-time check of a webhook URL: null when acceptable, else the reason. The same rules
 * are applied again at every delivery on the address actually connected to.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username || url.password) return 'must not carry credentials';
  if (allowPrivate) return url.protocol === 'https:' || url.protocol === 'http:' ? null : 'must be an http(s) URL';
  const privateReason = await nonPublicReason(url.hostname);
  // A target on the operator's own network is a setting away; say which (issue 14).
  const hint = '; to deliver to targets on your own network, the operator can set ALLOW_PRIVATE_WEBHOOK_TARGETS=true';
  if (url.protocol !== 'https:') return `must be an https URL${privateReason ? hint : ''}`;
  if (privateReason === null) return null;
  if (privateReason.startsWith('host ')) return privateReason;
  return `must not target ${privateReason}${hint}`;
}

/** Why a host is not a public target (an address or a name resolving to one), or null. */
async function nonPublicReason(hostname: string): Promise<string | null> {
  const literal = ipLiteral(hostname);
  if (literal) {
    const reason = forbiddenAddressReason(literal);
    return reason ? `${literal}, not a public address (${reason})` : null;
  }
  return new Promise((resolve) =>
    guardedLookup(hostname, { all: true }, (err) => {
      if (!err) return resolve(null);
      resolve(err instanceof TargetRefused ? `a non-public address: ${err.message}` : `host ${hostname} does not resolve`);
    }),
  );
}

export interface WebhookClient {
  send(url: string, headers: Record<string, string>, body: string): Promise<SendResult>;
  close(): Promise<void>;
}

export function createWebhookClient(opts: { allowPrivate: boolean; timeoutMs?: number }): WebhookClient {
  const timeoutMs = opts.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const base = buildConnector({ timeout: timeoutMs, ...(opts.allowPrivate ? {} : { lookup: guardedLookup }) });
  const agent = new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    keepAliveTimeout: 4_000,
    connect: opts.allowPrivate
      ? base
      : (o, cb) =>
          base(o, (err, socket) => {
            if (err || !socket) return cb(err ?? new Error('no socket'), null);
            const reason = forbiddenAddressReason(socket.remoteAddress ?? '');
            if (reason) {
              socket.destroy();
              return cb(new TargetRefused(`connected address ${socket.remoteAddress} is not a public address (${reason})`), null);
            }
            cb(null, socket);
          }),
  });

  return {
    async send(rawUrl, headers, body) {
      const started = performance.now();
      const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
      let url: URL;
      try {
        url = new URL(rawUrl);
      } catch {
        return done({ ok: false, statusCode: null, error: 'refused: the URL is not valid', excerpt: null });
      }
      if (!opts.allowPrivate) {
        if (url.protocol !== 'https:') return done({ ok: false, statusCode: null, error: 'refused: the URL must be https', excerpt: null });
        const literal = ipLiteral(url.hostname);
        const reason = literal ? forbiddenAddressReason(literal) : null;
        if (reason) return done({ ok: false, statusCode: null, error: `refused: ${literal} is not a public address (${reason})`, excerpt: null });
      }
      if (Buffer.byteLength(body) > WEBHOOK_MAX_BODY_BYTES) {
        return done({ ok: false, statusCode: null, error: `refused: the body exceeds ${WEBHOOK_MAX_BODY_BYTES} bytes`, excerpt: null });
      }
      try {
        const res = await request(url, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        let excerpt = '';
        for await (const chunk of res.body) {
          excerpt += Buffer.from(chunk as Buffer).toString('utf8');
          if (excerpt.length >= EXCERPT_BYTES) break;
        }
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        return done({ ok, statusCode: res.statusCode, error: ok ? null : `HTTP ${res.statusCode}`, excerpt: excerpt.slice(0, EXCERPT_BYTES) || null });
      } catch (e) {
        return done({ ok: false, statusCode: null, error: describe(e, timeoutMs), excerpt: null });
      }
    },
    close: () => agent.close(),
  };
}

function describe(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: unknown };
  if (err?.name === 'TargetRefused') return `refused: ${err.message}`;
  if (err?.cause && (err.cause as { name?: string }).name === 'TargetRefused') return `refused: ${(err.cause as Error).message}`;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.code === 'UND_ERR_HEADERS_TIMEOUT' || err?.code === 'UND_ERR_BODY_TIMEOUT' || err?.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `timeout: no complete answer within ${timeoutMs / 1000} s`;
  }
  return `connection error: ${err?.code ?? err?.message ?? String(e)}`;
}

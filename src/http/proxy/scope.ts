// The proxy surface (Tier 1, D6): everything under /v1 answers in the client's own vendor shape,
// errors included, so each official SDK raises its own typed errors. Shared here: key extraction
// per shape, the per-tenant rate limit per surface (spec §8), the streaming sink over the raw
// socket, and the error handler that renders the vendor's error body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../app/shared/index.ts';
import type { ClientShape } from '../../core/canonical/types.ts';
import { appError, AppError } from '../../core/errors.ts';
import { WIRES, type WireFormat } from '../../wire/index.ts';
import { runCall, type CallRequest, type Surface } from '../../app/calls/index.ts';
import type { StreamSink } from '../../app/calls/index.ts';
import type { KeyPrincipal } from '../../app/identity/index.ts';
import { toAppError } from '../errors.ts';
import { rateLimitHeaders } from '../plugins/rate-limit.ts';
import type { App } from '../api/common.ts';
import { CHANNELS } from '../../app/events/index.ts';
import { callLoad } from './load.ts';
import { CallAbort } from '../../infra/abort.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The vendor shape a route speaks: its errors are rendered in that shape. */
    shape?: ClientShape;
  }
}

export function renderProxyError(reply: FastifyReply, shape: ClientShape, e: AppError) {
  if (e.headers) reply.headers(e.headers);
  return reply.status(e.status).send(WIRES[shape].renderError(e.status, e.code, e.message, e.field));
}

/** The shape to answer in for a /v1 URL no route matched. */
export function shapeForUrl(url: string): ClientShape {
  if (url.startsWith('/v1/messages')) return 'anthropic';
  if (url.startsWith('/v1/generate')) return 'gemini';
  return 'openai';
}

function headerValue(req: FastifyRequest, name: string): string | null {
  const v = req.headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s && s.trim() ? s.trim() : null;
}

/** Spec §5: x-api-key or Bearer on every shape; x-goog-api-key too on the generate shape. */
export function presentedKey(req: FastifyRequest, shape: ClientShape): string | null {
  const auth = headerValue(req, 'authorization');
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '').trim();
  return headerValue(req, 'x-api-key') ?? (shape === 'gemini' ? headerValue(req, 'x-goog-api-key') : null);
}

export async function authenticateKey(s: Services, req: FastifyRequest, shape: ClientShape): Promise<KeyPrincipal> {
  const key = presentedKey(req, shape);
  if (!key) throw appError('invalid_api_key', 'No API key was provided');
  const p = await s.keyCache.authenticate(key);
  if (!p) throw appError('invalid_api_key');
  return p;
}

export const SURFACE_LIMIT_KEY: Record<Surface, 'RATE_LIMIT_CHAT_PER_MIN' | 'RATE_LIMIT_MESSAGES_PER_MIN' | 'RATE_LIMIT_GENERATE_PER_MIN'> = {
  chat: 'RATE_LIMIT_CHAT_PER_MIN',
  messages: 'RATE_LIMIT_MESSAGES_PER_MIN',
  generate: 'RATE_LIMIT_GENERATE_PER_MIN',
};

export async function rateLimit(s: Services, reply: FastifyReply, surface: Surface, tenantId: string): Promise<void> {
  const limit = s.config[SURFACE_LIMIT_KEY[surface]];
  const d = await s.limiter.take(`proxy:${surface}:${tenantId}`, limit, 60_000);
  const headers = rateLimitHeaders(d, 60);
  reply.headers(headers);
  if (!d.allowed) throw appError('rate_limited', `Rate limit of ${limit} requests per minute exceeded`, { headers });
}

function socketSink(reply: FastifyReply): StreamSink {
  const raw = reply.raw;
  let closed = false;
  let wrote = false;
  raw.on('close', () => {
    closed = true;
  });
  return {
    open(headers) {
      reply.hijack();
      // Assigned onto getHeaders()'s fresh copy rather than spread into a new literal: on Node 20
      // a spread followed by more properties takes a slow path (µs per object). Same keys, same
      // order, same precedence.
      const all = reply.getHeaders() as Record<string, string | number | string[]>;
      all['content-type'] = 'text/event-stream; charset=utf-8';
      all['cache-control'] = 'no-cache';
      all.connection = 'keep-alive';
      all['x-accel-buffering'] = 'no';
      for (const k in headers) all[k] = headers[k];
      raw.writeHead(200, all);
      // The status line and headers leave with the first frame when one is ready in this turn of
      // the event loop (one write, not two); otherwise on the next turn, so a client whose upstream
      // is slow to its first token still sees the response begin at once.
      // (headersSent is already true once writeHead has run, so the sink tracks its own writes.)
      setImmediate(() => {
        if (!wrote && !raw.destroyed && !raw.writableEnded) raw.flushHeaders();
      });
    },
    write: (text) => {
      wrote = true;
      return raw.write(text);
    },
    drained: () => new Promise((res) => raw.once('drain', res)),
    end: () => raw.end(),
    get closed() {
      return closed || raw.destroyed;
    },
  };
}

export interface ProxyCall {
  shape: ClientShape;
  surface: Surface;
  vendorLocked: boolean;
  parseCtx?: CallRequest['parseCtx'];
  /** The client's wire when not the shape's default (the Responses API). */
  wire?: WireFormat;
  /** Runs after authentication, before the call: may add parse context or an after-delivery step. */
  prepare?: (principal: KeyPrincipal, call: CallRequest) => Promise<void>;
}

/** Vendor beta headers a vendor-prefixed proxy forwards untouched (D19). */
const FORWARDED_HEADERS = ['anthropic-beta', 'openai-beta'];

function forwarded(req: FastifyRequest): { query: string; headers: Record<string, string> } {
  const q = req.url.indexOf('?');
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const v = headerValue(req, name);
    if (v) headers[name] = v;
  }
  return { query: q >= 0 ? req.url.slice(q + 1) : '', headers };
}

/**
 * D14: a connector names itself with `x-service-channel` (attribution only, never authority: the
 * key alone decides tenant, project and limits). No header means the plain proxy (tier 1); an
 * unknown value is refused in the vendor's shape rather than silently booked as `proxy`, so a
 * misspelt connector shows up at once instead of as missing traffic on its tile.
 */
export function presentedChannel(req: FastifyRequest): (typeof CHANNELS)[number] {
  const v = headerValue(req, 'x-service-channel');
  if (v === null) return 'proxy';
  const c = v.toLowerCase();
  if ((CHANNELS as readonly string[]).includes(c)) return c as (typeof CHANNELS)[number];
  throw appError('validation', `Unknown x-service-channel '${v.slice(0, 40)}': use one of ${CHANNELS.join(', ')}, or leave the header out`, { field: 'x-service-channel' });
}

/** Authenticate, rate-limit and run one call; answers JSON or streams over the raw socket. */
export async function handleCall(s: Services, req: FastifyRequest, reply: FastifyReply, c: ProxyCall) {
  callLoad(s).enter(reply.raw); // D17: shed past the in-flight limit, refuse while draining
  const principal = await authenticateKey(s, req, c.shape);
  const channel = presentedChannel(req);
  await rateLimit(s, reply, c.surface, principal.tenantId);
  const abort = new CallAbort();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const conv = headerValue(req, 'x-service-conversation-id');
  try {
    // Spelled out rather than `{ ...c, body, … }` (Node 20's slow path for a spread plus properties).
    const call: CallRequest = {
      shape: c.shape,
      surface: c.surface,
      vendorLocked: c.vendorLocked,
      body: req.body,
      principal,
      // The call log keeps the surface too (`mcp:chat`); llm.call carries the tier alone.
      channel: `${channel}:${c.surface}`,
      conversationId: conv ? conv.slice(0, 200) : undefined,
      signal: abort,
    };
    if (c.parseCtx !== undefined) call.parseCtx = c.parseCtx;
    if (c.wire !== undefined) call.clientWire = c.wire;
    if (c.vendorLocked) call.forward = forwarded(req);
    if (c.prepare) await c.prepare(principal, call);
    const out = await runCall(s, s.calls, call, () => socketSink(reply));
    if (out.kind === 'json') return reply.status(out.status).headers(out.headers).send(out.body);
    return reply;
  } catch (e) {
    if (!reply.sent && !reply.raw.headersSent) throw e;
    // Headers are gone: the only way left to tell the client is an error event in its stream.
    const err = toAppError(e, s.log);
    if (!reply.raw.destroyed) {
      reply.raw.end((c.wire ?? WIRES[c.shape]).createStreamEncoder({ shape: c.shape, model: '', messages: [], stream: true }).encode({ type: 'error', message: err.message, status: err.status }));
    }
    return reply;
  }
}

/** Register the proxy routes with the vendor-shaped error handler. */
export function proxyScope(routes: Array<(app: App, s: Services) => void>) {
  return (app: App, s: Services) => {
    app.setErrorHandler((err, req, reply) => {
      const shape = req.routeOptions.config.shape ?? shapeForUrl(req.url);
      return renderProxyError(reply, shape, toAppError(err, s.log));
    });
    for (const r of routes) r(app, s);
  };
}

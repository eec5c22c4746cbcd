// The simulated upstream: one node:http server speaking the three vendor wires, so the gateway,
// its tests and its benchmarks run without any real provider (D11). Each provider gets its own
// base URL through a path prefix (`/mistral/v1/chat/completions`); unprefixed routes count as the
// wire's own vendor. Requests are parsed and answers rendered with the same wire functions the
// gateway uses, and the official SDKs are pointed at it in sim.test.ts, which keeps both honest.
// It is labelled simulated on every response (`x-switchboard-simulated: true`, and
// `system_fingerprint: 'switchboard-sim'` where the wire has the field). Hot path: no sleeps unless
// a fault asks for them, streamed frames written in one go when nothing needs pacing.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CanonicalRequest } from '../core/canonical/types.ts';
import { WIRES } from '../wire/index.ts';
import { createResponsesWire } from '../wire/openai/responses/index.ts';
import type { WireFormat } from '../wire/types.ts';
import { answerEvents, foreignSignature, promptText, simulateAnswer, toResponse } from './answer.ts';
import { addReasoningContent, deepseekThinks, withReasoningFrames, withVisibleThinking } from './deepseek.ts';
import {
  createFaultController,
  readFaultRule,
  SIM_PROVIDERS,
  type ActiveFault,
  type FaultController,
  type FaultRule,
  type SimProvider,
  type SimWire,
} from './faults.ts';

export const SIM_FINGERPRINT = 'switchboard-sim';
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface SimCall {
  provider: SimProvider;
  wire: SimWire;
  /** Route template, e.g. `POST /v1/chat/completions`. */
  route: string;
  /** Path as received, prefix included. */
  path: string;
  /** The query string as received (`?beta=true`), or ''. */
  search: string;
  model: string;
  stream: boolean;
  headers: Record<string, string>;
  body: unknown;
  at: number;
}

export interface SimStats {
  readonly total: number;
  readonly byRoute: Readonly<Record<string, number>>;
  readonly byProvider: Readonly<Record<string, number>>;
  readonly byModel: Readonly<Record<string, number>>;
  /** The last model call received, whatever its outcome. */
  readonly last: SimCall | undefined;
  readonly lastByProvider: Readonly<Partial<Record<SimProvider, SimCall>>>;
  /** Responses whose client (the gateway) went away before the answer was complete. */
  readonly abandoned: number;
  reset(): void;
}

export interface SimOptions {
  port?: number;
  host?: string;
  /** Models listed by GET /v1/models, per provider. Any model name is accepted on calls. */
  models?: Partial<Record<SimProvider, string[]>>;
}

export interface SimHandle {
  url: string;
  close(): Promise<void>;
  faults: FaultController;
  stats: SimStats;
}

const DEFAULT_MODELS: Record<SimProvider, string[]> = {
  openai: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1', 'o4-mini'],
  mistral: ['mistral-small-latest', 'mistral-medium-latest', 'mistral-large-latest'],
  deepseek: ['deepseek-chat', 'deepseek-reasoner'],
  anthropic: ['claude-haiku-4-5', 'claude-sonnet-4-5', 'claude-opus-4-1'],
  google: ['gemini-2.5-flash-lite', 'gemini-2.5-flash', 'gemini-2.5-pro'],
};

const PROVIDER_WIRE: Record<SimProvider, SimWire> = {
  openai: 'openai',
  mistral: 'openai',
  deepseek: 'openai',
  anthropic: 'anthropic',
  google: 'gemini',
};

function createStats(): SimStats & { record(call: SimCall): void; abandon(): void } {
  let total = 0;
  let abandoned = 0;
  let byRoute: Record<string, number> = {};
  let byProvider: Record<string, number> = {};
  let byModel: Record<string, number> = {};
  let last: SimCall | undefined;
  let lastByProvider: Partial<Record<SimProvider, SimCall>> = {};
  return {
    get total() {
      return total;
    },
    get byRoute() {
      return byRoute;
    },
    get byProvider() {
      return byProvider;
    },
    get byModel() {
      return byModel;
    },
    get last() {
      return last;
    },
    get lastByProvider() {
      return lastByProvider;
    },
    get abandoned() {
      return abandoned;
    },
    abandon() {
      abandoned++;
    },
    reset() {
      abandoned = 0;
      total = 0;
      byRoute = {};
      byProvider = {};
      byModel = {};
      last = undefined;
      lastByProvider = {};
    },
    record(call) {
      total++;
      byRoute[call.route] = (byRoute[call.route] ?? 0) + 1;
      byProvider[call.provider] = (byProvider[call.provider] ?? 0) + 1;
      byModel[call.model] = (byModel[call.model] ?? 0) + 1;
      last = call;
      lastByProvider[call.provider] = call;
    },
  };
}

/** Responses the simulator itself broke on purpose (fault injection), as opposed to abandoned ones. */
const broken = new WeakSet<ServerResponse>();

let idSeq = 0;
const idBase = Math.random().toString(36).slice(2, 8);
const nextId = (): string => `sim${idBase}${(++idSeq).toString(36).padStart(6, '0')}`;

const PREFIX = new RegExp(`^/(${SIM_PROVIDERS.join('|')})(?=/)`);
const GEMINI_CALL = /^\/(?:v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

interface Route {
  provider: SimProvider;
  path: string;
}

function splitPrefix(pathname: string): { prefix?: SimProvider; path: string } {
  const m = PREFIX.exec(pathname);
  if (!m) return { path: pathname };
  return { prefix: m[1] as SimProvider, path: pathname.slice(m[0].length) };
}

function baseHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return { 'x-switchboard-simulated': 'true', ...extra };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, baseHeaders({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers }));
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        resolve('too_large');
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function headerMap(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

function hasKey(wire: SimWire, req: IncomingMessage, url: URL): boolean {
  const bearer = /^Bearer\s+\S+/i.test(req.headers.authorization ?? '');
  if (wire === 'openai') return bearer;
  if (wire === 'anthropic') return bearer || (req.headers['x-api-key'] ?? '') !== '';
  return (req.headers['x-goog-api-key'] ?? '') !== '' || (url.searchParams.get('key') ?? '') !== '';
}

const defaultErrorCode = (status: number): string =>
  status === 401
    ? 'invalid_api_key'
    : status === 402
      ? 'insufficient_balance'
      : status === 429
        ? 'rate_limit_exceeded'
        : status === 529 || status === 503
          ? 'overloaded'
          : status >= 500
            ? 'server_error'
            : 'invalid_request';

/** The Responses wire for one request: its answer shows what the request's `include` and `reasoning` ask for. */
function responsesFor(body: unknown): WireFormat {
  const b = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  return createResponsesWire({
    store: b.store !== false,
    include: Array.isArray(b.include) ? b.include.filter((x): x is string => typeof x === 'string') : [],
    reasoning: isObj(b.reasoning) ? b.reasoning : null,
    metadata: isObj(b.metadata) ? b.metadata : null,
  });
}

export async function startSim(opts: SimOptions = {}): Promise<SimHandle> {
  const faults = createFaultController();
  const stats = createStats();
  const models = { ...DEFAULT_MODELS, ...opts.models };
  const sockets = new Set<Socket>();

  async function handleModelCall(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    r: Route,
    wire: SimWire,
    routeName: string,
    ctx: { model?: string; stream?: boolean },
    format: WireFormat | ((body: unknown) => WireFormat) = WIRES[wire],
  ): Promise<void> {
    let w = typeof format === 'function' ? format(null) : format;
    const raw = await readBody(req);
    if (raw === 'too_large') return sendJson(res, 413, w.renderError(413, 'request_too_large', 'Request body is too large.'));
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return sendJson(res, 400, w.renderError(400, 'invalid_json', 'Request body is not valid JSON.'));
    }
    if (typeof format === 'function') w = format(body);
    const parsed = w.parseRequest(body, ctx);
    const named = (body as { model?: unknown } | null)?.model;
    const model = parsed.ok ? parsed.value.model : typeof named === 'string' ? named : (ctx.model ?? '');
    stats.record({
      provider: r.provider,
      wire,
      route: routeName,
      path: url.pathname,
      search: url.search,
      model,
      stream: parsed.ok ? parsed.value.stream : false,
      headers: headerMap(req),
      body,
      at: Date.now(),
    });
    if (!hasKey(wire, req, url)) {
      return sendJson(res, 401, w.renderError(401, 'invalid_api_key', 'No API key provided (simulated upstream).'));
    }
    if (wire === 'anthropic' && !req.headers['anthropic-version']) {
      return sendJson(res, 400, w.renderError(400, 'invalid_request', 'anthropic-version: header is required'));
    }
    if (!parsed.ok) return sendJson(res, 400, w.renderError(400, parsed.code, parsed.message, parsed.field));
    const creq = parsed.value;
    const foreign = foreignSignature(creq);
    if (foreign) return sendJson(res, 400, w.renderError(400, 'invalid_request', foreign, 'messages'));
    const fault = faults.take({ provider: r.provider, wire, model: creq.model, stream: creq.stream, prompt: promptText(creq) });
    await answer(res, w, creq, fault, deepseekThinks(r.provider, creq));
  }

  async function answer(res: ServerResponse, w: WireFormat, creq: CanonicalRequest, fault: ActiveFault | undefined, reasoningContent = false): Promise<void> {
    const alive = (): boolean => !res.destroyed && !res.writableEnded;
    res.on('close', () => {
      if (!res.writableFinished && !broken.has(res)) stats.abandon();
    });
    if (fault?.delayMs) await sleep(fault.delayMs);
    if (fault?.hang) return; // the response is left open on purpose
    if (!alive()) return;
    if (fault?.status !== undefined) {
      const headers: Record<string, string> = {};
      if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
      const message = fault.errorMessage ?? `Simulated upstream error ${fault.status}.`;
      return sendJson(res, fault.status, w.renderError(fault.status, fault.errorCode ?? defaultErrorCode(fault.status), message), headers);
    }
    const id = nextId();
    const ans = simulateAnswer(reasoningContent ? withVisibleThinking(creq) : creq, id, fault?.answer);
    const thought = reasoningContent ? ans.reasoning?.text : undefined;
    const requestId = `req_${id}`;

    if (!creq.stream) {
      const rendered = w.renderResponse(toResponse(ans, id, creq.model), creq);
      if ('system_fingerprint' in rendered) rendered.system_fingerprint = SIM_FINGERPRINT;
      if (thought) addReasoningContent(rendered, thought);
      const text = JSON.stringify(rendered);
      const headers = baseHeaders({
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(text)),
        'x-request-id': requestId,
        'request-id': requestId,
      });
      if (!fault?.firstByteDelayMs && fault?.breakStreamAfter === undefined) {
        res.writeHead(200, headers);
        res.end(text);
        return;
      }
      res.writeHead(200, headers);
      res.flushHeaders();
      if (fault.firstByteDelayMs) await sleep(fault.firstByteDelayMs);
      if (!alive()) return;
      if (fault.breakStreamAfter !== undefined) {
        await new Promise<void>((resolve) => res.write(text.slice(0, Math.floor(text.length / 2)), () => resolve()));
        broken.add(res);
        res.destroy();
        return;
      }
      res.end(text);
      return;
    }

    res.writeHead(
      200,
      baseHeaders({
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-request-id': requestId,
        'request-id': requestId,
      }),
    );
    const enc = w.createStreamEncoder(creq);
    let frames: string[] = [];
    for (const ev of answerEvents(ans, id, creq.model)) {
      const f = enc.encode(ev);
      if (f !== '') frames.push(f);
    }
    if (thought) frames = withReasoningFrames(frames, thought, id, creq.model);
    const paced = fault?.firstByteDelayMs || fault?.chunkDelayMs || fault?.breakStreamAfter !== undefined;
    if (!paced) {
      res.end(frames.join(''));
      return;
    }
    res.flushHeaders();
    if (fault.firstByteDelayMs) await sleep(fault.firstByteDelayMs);
    for (let i = 0; i < frames.length; i++) {
      if (!alive()) return;
      if (fault.breakStreamAfter !== undefined && i >= fault.breakStreamAfter) {
        broken.add(res);
        res.destroy();
        return;
      }
      if (i > 0 && fault.chunkDelayMs) await sleep(fault.chunkDelayMs);
      if (!alive()) return;
      // Wait for the frame to reach the socket: destroying it discards unflushed writes.
      await new Promise<void>((resolve) => res.write(frames[i], () => resolve()));
    }
    res.end();
  }

  function listModels(res: ServerResponse, provider: SimProvider, wire: SimWire): void {
    const ids = models[provider] ?? [];
    const created = 1735689600;
    if (wire === 'anthropic') {
      return sendJson(res, 200, {
        data: ids.map((id) => ({ type: 'model', id, display_name: `${id} (simulated)`, created_at: new Date(created * 1000).toISOString() })),
        has_more: false,
        first_id: ids[0] ?? null,
        last_id: ids[ids.length - 1] ?? null,
      });
    }
    if (wire === 'gemini') {
      return sendJson(res, 200, {
        models: ids.map((id) => ({
          name: `models/${id}`,
          displayName: `${id} (simulated)`,
          supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
        })),
      });
    }
    return sendJson(res, 200, { object: 'list', data: ids.map((id) => ({ id, object: 'model', created, owned_by: SIM_FINGERPRINT })) });
  }

  async function control(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    if (path === '/__sim/stats') {
      if (req.method === 'DELETE') {
        stats.reset();
        return sendJson(res, 200, { ok: true });
      }
      const { total, byRoute, byProvider, byModel, last, lastByProvider } = stats;
      return sendJson(res, 200, { total, byRoute, byProvider, byModel, last, lastByProvider });
    }
    if (path === '/__sim/faults') {
      if (req.method === 'GET') return sendJson(res, 200, { faults: faults.list() });
      if (req.method === 'DELETE') {
        faults.clear();
        return sendJson(res, 200, { ok: true });
      }
      if (req.method === 'POST') {
        const raw = await readBody(req);
        let body: unknown;
        try {
          body = raw === 'too_large' ? undefined : JSON.parse(raw.toString('utf8'));
        } catch {
          return sendJson(res, 400, { error: 'body is not valid JSON' });
        }
        const list = Array.isArray(body) ? body : body && typeof body === 'object' && 'rules' in body ? (body as { rules: unknown }).rules : [body];
        if (!Array.isArray(list)) return sendJson(res, 400, { error: 'rules must be an array' });
        const rules: FaultRule[] = [];
        for (let i = 0; i < list.length; i++) {
          const r = readFaultRule(list[i], `rules[${i}]`);
          if (typeof r === 'string') return sendJson(res, 400, { error: r });
          rules.push(r);
        }
        return sendJson(res, 201, { ids: faults.add(...rules) });
      }
    }
    const one = /^\/__sim\/faults\/([\w-]+)$/.exec(path);
    if (one && req.method === 'DELETE') return sendJson(res, faults.remove(one[1]) ? 200 : 404, { ok: true });
    return sendJson(res, 404, { error: 'unknown control route' });
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim.local');
    if (url.pathname.startsWith('/__sim/')) return control(req, res, url.pathname);
    const { prefix, path } = splitPrefix(url.pathname);
    const method = req.method ?? 'GET';

    if (path === '/health' && method === 'GET') return sendJson(res, 200, { status: 'ok', simulated: true });

    if (method === 'POST' && path === '/v1/chat/completions') {
      return handleModelCall(req, res, url, { provider: prefix ?? 'openai', path }, 'openai', 'POST /v1/chat/completions', {});
    }
    if (method === 'POST' && path === '/v1/responses') {
      return handleModelCall(req, res, url, { provider: prefix ?? 'openai', path }, 'openai', 'POST /v1/responses', {}, responsesFor);
    }
    if (method === 'POST' && path === '/v1/messages') {
      return handleModelCall(req, res, url, { provider: prefix ?? 'anthropic', path }, 'anthropic', 'POST /v1/messages', {});
    }
    const g = GEMINI_CALL.exec(path);
    if (method === 'POST' && g) {
      const stream = g[2] === 'streamGenerateContent';
      return handleModelCall(req, res, url, { provider: prefix ?? 'google', path }, 'gemini', `POST /v1beta/models/:model:${g[2]}`, {
        model: decodeURIComponent(g[1]),
        stream,
      });
    }
    if (method === 'GET' && (path === '/v1/models' || path === '/v1beta/models')) {
      const provider = prefix ?? (path === '/v1beta/models' ? 'google' : 'openai');
      return listModels(res, provider, path === '/v1beta/models' ? 'gemini' : PROVIDER_WIRE[provider]);
    }
    const wire: SimWire = prefix ? PROVIDER_WIRE[prefix] : path.startsWith('/v1beta') ? 'gemini' : 'openai';
    return sendJson(res, 404, WIRES[wire].renderError(404, 'not_found', `No simulated route for ${method} ${url.pathname}.`));
  }

  const server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000, requestTimeout: 0 }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `simulated upstream failed: ${String(err)}` } });
      else {
        broken.add(res);
        res.destroy();
      }
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    faults,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      }),
  };
}

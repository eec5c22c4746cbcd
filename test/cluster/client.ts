// What the cluster tests do as clients: tenants made through the API (sign-up, a sandbox top-up
// paid through its checkout page, a service key), calls in the three shapes through the official
// SDKs, plain or streamed, and the money invariants read straight from PostgreSQL.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export type Shape = 'openai' | 'anthropic' | 'gemini';
export const SHAPES: Shape[] = ['openai', 'anthropic', 'gemini'];

export interface Tenant {
  tenantId: string;
  email: string;
  accessToken: string;
  projectId: string;
  key: string;
}

async function json(method: string, url: string, body?: unknown, token?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep the text */
  }
  return { status: r.status, body: parsed, headers: r.headers };
}

/** A tenant made as a customer makes one, through HAProxy: sign up, pay a top-up, create a key. */
export async function newTenant(url: string, db: pg.Pool, label: string, dollars = 20): Promise<Tenant> {
  const email = `${label}-${randomBytes(4).toString('hex')}@cluster.test`;
  const su = await json('POST', `${url}/api/auth/signup`, { email, password: 'correct horse battery staple', name: label, tenantName: `Cluster ${label}` });
  if (su.status !== 201) throw new Error(`signup: ${su.status} ${JSON.stringify(su.body)}`);
  const token = su.body.data.tokens.accessToken as string;
  const top = await json('POST', `${url}/api/tenant/wallet/topup`, { amountMicros: String(dollars * 1_000_000) }, token);
  if (top.status !== 201) throw new Error(`topup: ${top.status} ${JSON.stringify(top.body)}`);
  const paid = await fetch(`${top.body.data.checkoutUrl}/confirm`, { method: 'POST' });
  if (!paid.ok) throw new Error(`checkout confirm: ${paid.status}`);
  const key = await json('POST', `${url}/api/keys`, { name: 'cluster', environment: 'dev' }, token);
  if (key.status !== 201) throw new Error(`key: ${key.status} ${JSON.stringify(key.body)}`);
  const projects = await json('GET', `${url}/api/projects`, undefined, token);
  const t = await db.query(`select m.tenant_id from memberships m join users u on u.id = m.user_id where u.email = $1`, [email]);
  return { tenantId: t.rows[0].tenant_id, email, accessToken: token, projectId: projects.body.data.items[0].id, key: key.body.data.key };
}

export interface Outcome {
  shape: Shape;
  stream: boolean;
  ok: boolean;
  /** Streams: the terminal event (finish reason / message_stop) arrived. JSON: a whole body parsed. */
  complete: boolean;
  text: string;
  status?: number;
  /** The error as the SDK raised it. */
  error?: unknown;
  callId?: string | null;
  ms: number;
}

const MODEL: Record<Shape, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-3-5-haiku-latest', gemini: 'gemini-2.0-flash' };

/** One call through an official SDK; never throws: the outcome says what the client saw. */
export async function call(url: string, key: string, shape: Shape, stream: boolean, prompt: string): Promise<Outcome> {
  const t0 = performance.now();
  const out: Outcome = { shape, stream, ok: false, complete: false, text: '', ms: 0 };
  try {
    if (shape === 'openai') {
      const c = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0, timeout: 60_000 });
      if (stream) {
        const { data, response } = await c.chat.completions.create({ model: MODEL.openai, messages: [{ role: 'user', content: prompt }], stream: true }).withResponse();
        out.callId = response.headers.get('x-service-call-id');
        for await (const chunk of data) {
          out.text += chunk.choices[0]?.delta?.content ?? '';
          if (chunk.choices[0]?.finish_reason) out.complete = true;
        }
      } else {
        const { data, response } = await c.chat.completions.create({ model: MODEL.openai, messages: [{ role: 'user', content: prompt }] }).withResponse();
        out.callId = response.headers.get('x-service-call-id');
        out.text = data.choices[0]?.message?.content ?? '';
        out.complete = data.choices[0]?.finish_reason != null;
      }
    } else if (shape === 'anthropic') {
      const c = new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0, timeout: 60_000 });
      const body = { model: MODEL.anthropic, max_tokens: 512, messages: [{ role: 'user' as const, content: prompt }] };
      if (stream) {
        const { data, response } = await c.messages.create({ ...body, stream: true }).withResponse();
        out.callId = response.headers.get('x-service-call-id');
        for await (const ev of data) {
          if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') out.text += ev.delta.text;
          if (ev.type === 'message_stop') out.complete = true;
        }
      } else {
        const { data, response } = await c.messages.create(body).withResponse();
        out.callId = response.headers.get('x-service-call-id');
        out.text = data.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
        out.complete = data.stop_reason != null;
      }
    } else {
      const g = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: `${url}/v1/generate`, timeout: 60_000 } });
      if (stream) {
        for await (const chunk of await g.models.generateContentStream({ model: MODEL.gemini, contents: prompt })) {
          out.text += chunk.text ?? '';
          if (chunk.candidates?.[0]?.finishReason) out.complete = true;
        }
      } else {
        const r = await g.models.generateContent({ model: MODEL.gemini, contents: prompt });
        out.text = r.text ?? '';
        out.complete = r.candidates?.[0]?.finishReason != null;
      }
    }
    out.ok = true;
  } catch (e) {
    out.error = e;
    const status = (e as { status?: unknown }).status ?? (e as { code?: unknown }).code;
    out.status = typeof status === 'number' ? status : undefined;
  }
  out.ms = performance.now() - t0;
  return out;
}

/** Is this failure in the vendor's own error shape, with the given status? */
export function nativeError(o: Outcome, status: number): boolean {
  const e = o.error as any;
  if (o.ok || o.status !== status) return false;
  if (o.shape === 'openai') return e instanceof OpenAI.APIError && typeof e.error?.message === 'string' && typeof e.error?.type === 'string';
  if (o.shape === 'anthropic') return e instanceof Anthropic.APIError && e.error?.type === 'error' && typeof e.error?.error?.type === 'string';
  // @google/genai raises ApiError whose message is the JSON body: {error:{code,message,status}}.
  try {
    const body = JSON.parse(String(e?.message ?? '').replace(/^[^{]*/, ''));
    return body.error?.code === status && typeof body.error?.status === 'string';
  } catch {
    return false;
  }
}

/** A stream cut by an error event in the vendor's own stream shape, raised by its SDK as its error. */
export function streamErrorEvent(o: Outcome): boolean {
  if (o.ok || !o.stream) return false;
  const e = o.error as any;
  if (o.shape === 'openai') return o.status === undefined && e instanceof OpenAI.APIError && typeof e.error?.message === 'string';
  if (o.shape === 'anthropic') return o.status === undefined && e instanceof Anthropic.APIError && typeof e.error?.error?.type === 'string';
  // Gemini's stream carries the error as a last chunk {error:{code,message,status}}; the SDK raises it.
  try {
    const body = JSON.parse(String(e?.message ?? '').replace(/^[^{]*/, ''));
    return typeof body.error?.code === 'number' && typeof body.error?.status === 'string';
  } catch {
    return false;
  }
}

/** The chain of causes of a connection-level error ("fetch failed" ← "other side closed" …), with their codes. */
function causes(e: unknown): string {
  const out: string[] = [];
  for (let c = (e as { cause?: unknown })?.cause, n = 0; c && n < 4; c = (c as { cause?: unknown }).cause, n++) {
    const x = c as { code?: unknown; message?: unknown; name?: unknown };
    out.push(`${x.name ?? 'Error'}${x.code ? ` ${x.code}` : ''}: ${String(x.message ?? c).slice(0, 120)}`);
  }
  return out.length ? ` (cause: ${out.join(' <- ')})` : '';
}

export const describeOutcome = (o: Outcome) =>
  `${o.shape}${o.stream ? '/stream' : ''} ${o.ok ? (o.complete ? 'whole' : 'PARTIAL') : `error ${o.status ?? ''} ${String((o.error as Error)?.message ?? o.error).slice(0, 160)}${causes(o.error)}`} (${Math.round(o.ms)} ms)`;

/** Run `n` calls with at most `concurrency` at once, cycling through shapes and plain/streamed. */
export async function mixed(url: string, tenants: Tenant[], n: number, concurrency: number, prompt: (i: number) => string): Promise<Outcome[]> {
  const out: Outcome[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= n) return;
        const t = tenants[i % tenants.length]!;
        out[i] = await call(url, t.key, SHAPES[i % 3]!, Math.floor(i / 3) % 2 === 1, prompt(i));
      }
    }),
  );
  return out;
}

export interface MoneyState {
  /** Tenants whose wallet balance differs from the sum of their ledger. */
  unbalanced: string[];
  /** Reservations still held, and the wallets' reserved total. */
  reservedRows: number;
  reservedMicros: bigint;
  /** Call ids with more than one AI_USAGE entry. */
  chargedTwice: string[];
  /** AI_USAGE entries per tenant. */
  usage: Map<string, number>;
}

export async function moneyState(db: pg.Pool, tenantIds: string[]): Promise<MoneyState> {
  const bal = await db.query(
    `select w.tenant_id, w.balance_micros::text as balance, coalesce((select sum(amount_micros) from ledger_entries l where l.tenant_id = w.tenant_id), 0)::text as ledger
       from wallets w where w.tenant_id = any($1::uuid[])`,
    [tenantIds],
  );
  const held = await db.query(`select count(*)::int as n from reservations where status = 'reserved' and tenant_id = any($1::uuid[])`, [tenantIds]);
  const reserved = await db.query(`select coalesce(sum(reserved_micros), 0)::text as r from wallets where tenant_id = any($1::uuid[])`, [tenantIds]);
  const twice = await db.query(
    `select call_id from ledger_entries where event_type = 'AI_USAGE' and call_id is not null and tenant_id = any($1::uuid[]) group by call_id having count(*) > 1`,
    [tenantIds],
  );
  const usage = await db.query(`select tenant_id, count(*)::int as n from ledger_entries where event_type = 'AI_USAGE' and tenant_id = any($1::uuid[]) group by tenant_id`, [tenantIds]);
  return {
    unbalanced: bal.rows.filter((r) => r.balance !== r.ledger).map((r) => `${r.tenant_id}: balance ${r.balance} ≠ ledger ${r.ledger}`),
    reservedRows: held.rows[0].n,
    reservedMicros: BigInt(reserved.rows[0].r),
    chargedTwice: twice.rows.map((r) => r.call_id),
    usage: new Map(usage.rows.map((r) => [r.tenant_id, r.n])),
  };
}

/** GET /api/tenant/ledger/verify as the tenant's owner (D8). */
export async function verifyLedger(url: string, t: Tenant): Promise<{ verified: boolean; firstBroken: unknown; checked: number }> {
  const r = await json('GET', `${url}/api/tenant/ledger/verify`, undefined, t.accessToken);
  if (r.status !== 200) throw new Error(`ledger verify: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(200);
  }
}

export { json as apiCall };

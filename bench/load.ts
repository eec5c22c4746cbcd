// The benchmark's load generator: a closed loop of N connections (each sends its next request as
// soon as the previous response has fully arrived), timed with process.hrtime.bigint so latencies
// keep sub-millisecond resolution. autocannon was the first candidate, but its latency histogram
// records whole milliseconds, which hides exactly the fractions of a millisecond this benchmark is
// about, and it cannot see the first SSE data line of a stream.
import { Pool } from 'undici';

/** The call every target is driven with: a generic chat completion, as JSON and as a stream. */
const BODY = {
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a concise assistant for a logistics team.' },
    { role: 'user', content: 'Summarise in two sentences why a keep-alive connection pool lowers the latency of HTTP calls between services.' },
  ],
  max_tokens: 200,
};
export const JSON_BODY = JSON.stringify(BODY);
export const STREAM_BODY = JSON.stringify({ ...BODY, stream: true, stream_options: { include_usage: true } });

export interface LoadTarget {
  /** `http://127.0.0.1:port` */
  origin: string;
  path: string;
  /** One header set, or several used in turn (one service key per tenant, say). */
  headers: Record<string, string> | Array<Record<string, string>>;
}

export interface LoadSpec {
  target: LoadTarget;
  body: string;
  stream: boolean;
  connections: number;
  /** Requests issued before the measured window (connection set-up, JIT) are not recorded. */
  warmupMs: number;
  durationMs: number;
  /** Hard ceiling on requests per run, whatever the duration (bounded loops). */
  maxRequests: number;
  /** Called when the measured window opens and closes (CPU counters are read there). */
  onWindow?: (edge: 'open' | 'close') => void;
}

export interface LoadResult {
  /** Responses completed inside the measured window. */
  requests: number;
  /** Non-2xx answers, transport errors and truncated streams, warm-up included. */
  errors: number;
  firstError: string | null;
  /** Successful responses, warm-up included (compared with the ledger afterwards). */
  okTotal: number;
  windowS: number;
  rps: number;
  /** Sorted latencies of the measured window, microseconds. */
  latencyUs: Float64Array;
  /** Sorted time to the first `data:` line, microseconds (streams only). */
  ttfbUs: Float64Array;
}

const DATA = Buffer.from('data:');
const DONE = Buffer.from('[DONE]');

class Samples {
  private buf = new Float64Array(16_384);
  private n = 0;
  push(v: number): void {
    if (this.n === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = v;
  }
  sorted(): Float64Array {
    return this.buf.slice(0, this.n).sort();
  }
}

/** Nearest-rank percentile of sorted samples. */
export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/** One keep-alive pool per target and connection count, reused across rounds. */
const pools = new Map<string, Pool>();
function poolFor(origin: string, connections: number): Pool {
  const k = `${origin}#${connections}`;
  let p = pools.get(k);
  if (!p) {
    p = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 60_000 });
    pools.set(k, p);
  }
  return p;
}

export async function closePools(): Promise<void> {
  await Promise.all([...pools.values()].map((p) => p.close()));
  pools.clear();
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const pool = poolFor(spec.target.origin, spec.connections);
  const sets = (Array.isArray(spec.target.headers) ? spec.target.headers : [spec.target.headers]).map((h) => ({ 'content-type': 'application/json', ...h }));
  const lat = new Samples();
  const ttfb = new Samples();
  const t0 = process.hrtime.bigint();
  const openAt = t0 + BigInt(spec.warmupMs) * 1_000_000n;
  const closeAt = openAt + BigInt(spec.durationMs) * 1_000_000n;
  let opened = false;
  let issued = 0;
  let errors = 0;
  let okTotal = 0;
  let requests = 0;
  let lastDone = openAt;
  let firstError: string | null = null;
  const fail = (why: string) => {
    errors++;
    firstError ??= why;
  };

  const worker = async () => {
    for (;;) {
      const start = process.hrtime.bigint();
      if (start >= closeAt || issued >= spec.maxRequests) return;
      if (!opened && start >= openAt) {
        opened = true;
        spec.onWindow?.('open');
      }
      const headers = sets[issued % sets.length];
      issued++;
      let first = 0n;
      let ok = false;
      try {
        const res = await pool.request({ path: spec.target.path, method: 'POST', headers, body: spec.body });
        let tail: Buffer = Buffer.alloc(0);
        for await (const chunk of res.body as AsyncIterable<Buffer>) {
          if (first === 0n && spec.stream && chunk.includes(DATA)) first = process.hrtime.bigint();
          if (spec.stream) tail = chunk.length >= 16 ? chunk : Buffer.concat([tail, chunk]);
        }
        if (res.statusCode !== 200) fail(`HTTP ${res.statusCode}`);
        else if (spec.stream && (first === 0n || !tail.includes(DONE))) fail('stream ended without [DONE]');
        else ok = true;
      } catch (e) {
        fail((e as Error).message);
      }
      const end = process.hrtime.bigint();
      if (!ok) continue;
      okTotal++;
      if (start < openAt) continue;
      requests++;
      lat.push(Number(end - start) / 1000);
      if (spec.stream) ttfb.push(Number(first - start) / 1000);
      if (end > lastDone) lastDone = end;
    }
  };
  await Promise.all(Array.from({ length: spec.connections }, worker));
  if (opened) spec.onWindow?.('close');
  const windowS = Number(lastDone - openAt) / 1e9;
  return {
    requests,
    errors,
    firstError,
    okTotal,
    windowS,
    rps: windowS > 0 ? requests / windowS : 0,
    latencyUs: lat.sorted(),
    ttfbUs: ttfb.sorted(),
  };
}

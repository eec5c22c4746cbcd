// A webhook receiver on 127.0.0.1 for tests: records every request with its raw body and answers
// with whatever the test sets (status, delay). Signature checks are written here independently of
// the service's signing code, as a receiver would write them (constant-time comparisons).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  /** Answer for later requests. */
  respond(status: number, delayMs?: number): void;
  /** Answer per path (overrides respond). */
  respondOn(path: string, status: number, delayMs?: number): void;
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let status = 200;
  let delay = 0;
  const perPath = new Map<string, { status: number; delay: number }>();
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks) });
      for (const w of waiters.splice(0)) w();
      const rule = perPath.get(req.url ?? '/') ?? { status, delay };
      const t = setTimeout(() => {
        res.statusCode = rule.status;
        res.end(rule.status >= 400 ? 'receiver says no' : 'ok');
      }, rule.delay);
      res.on('close', () => clearTimeout(t));
    });
  });
  server.keepAliveTimeout = 500;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    respond(s, d = 0) {
      status = s;
      delay = d;
    },
    respondOn(path, s, d = 0) {
      perPath.set(path, { status: s, delay: d });
    },
    waitFor(n, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`receiver got ${received.length}/${n} requests`)), timeoutMs);
        const check = () => {
          if (received.length >= n) {
            clearTimeout(t);
            resolve(received);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** X-Service-Signature: sha256=hex(HMAC-SHA256(secret, raw body)). */
export function verifyServiceSignature(secret: string, r: Received): boolean {
  const want = 'sha256=' + createHmac('sha256', secret).update(r.body).digest('hex');
  return safeEqual(want, String(r.headers['x-service-signature'] ?? ''));
}

/** Standard Webhooks: v1,base64(HMAC-SHA256(base64decode(secret without whsec_), id.timestamp.body)). */
export function verifyStandardSignature(secret: string, r: Received, nowSeconds: number, toleranceSeconds = 300): boolean {
  const id = String(r.headers['webhook-id'] ?? '');
  const ts = String(r.headers['webhook-timestamp'] ?? '');
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > toleranceSeconds) return false;
  const key = Buffer.from(secret.split('_')[1], 'base64');
  const want = createHmac('sha256', key).update(`${id}.${ts}.`).update(r.body).digest('base64');
  return String(r.headers['webhook-signature'] ?? '')
    .split(' ')
    .some((sig) => sig.startsWith('v1,') && safeEqual(sig.slice(3), want));
}

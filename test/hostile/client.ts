// A raw HTTP client for hostile input: node:http sends paths and header values byte for byte
// (Latin-1 bytes included, which are invalid UTF-8 on the wire) and bodies as given, where fetch
// would validate or re-encode them. Event streams of /api are cut after their headers (they never
// end by themselves); proxy streams are read to the end.
import http from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query exactly as sent. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** The exchange failed below HTTP (reset, timeout): a message, else null. */
  transport: string | null;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
const MAX_BODY = 2 * 1024 * 1024;

export function send(base: URL, r: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  return new Promise((resolve) => {
    const done = (res: RawResponse) => {
      clearTimeout(timer);
      resolve(res);
    };
    const fail = (what: string) => done({ status: 0, headers: {}, text: '', json: undefined, transport: what });
    let req: http.ClientRequest;
    try {
      // A body always goes with its length: node would send a GET's body unframed, which the server
      // reads as a second, malformed request (that case has its own test in route-guard.test.ts).
      const headers = r.body ? { ...r.headers, 'content-length': String(r.body.length) } : r.headers;
      req = http.request({ host: base.hostname, port: base.port, method: r.method, path: r.path, headers, agent });
    } catch (e) {
      // node refused to send it (an invalid header name, say): not the server's fault, no case.
      return resolve({ status: -1, headers: {}, text: '', json: undefined, transport: `not sendable: ${(e as Error).message}` });
    }
    const timer = setTimeout(() => {
      req.destroy();
      fail(`no answer within ${timeoutMs} ms`);
    }, timeoutMs);
    req.on('error', (e) => fail(`transport: ${e.message}`));
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const ct = String(res.headers['content-type'] ?? '');
      if (ct.startsWith('text/event-stream') && r.path.startsWith('/api/')) {
        res.destroy();
        req.destroy();
        return done({ status, headers: res.headers, text: '', json: undefined, transport: null });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      res.on('error', (e) => fail(`response: ${e.message}`));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        done({ status, headers: res.headers, text, json, transport: null });
      });
    });
    if (r.body) req.end(r.body);
    else req.end();
  });
}

export function closeClient() {
  agent.destroy();
}

// A real HTTP client for the event stream: fetch, read the body as it arrives, parse it with the
// project's one SSE parser (src/wire/sse.ts), and keep the raw text too (heartbeats are comments,
// which parsers drop by design).
import { SseParser, type SseRecord } from '../src/wire/sse.ts';

export interface StreamClient {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  records: SseRecord[];
  /** Everything received so far, as text. */
  raw(): string;
  /** The next record (after those already taken by next) matching `pred`. */
  next(pred?: string | ((r: SseRecord) => boolean), timeoutMs?: number): Promise<SseRecord>;
  /** Resolves when `pred(raw)` holds. */
  until(pred: (raw: string) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(
  url: string,
  opts: { token?: string; cookie?: string; lastEventId?: string; accept?: string } = {},
): Promise<StreamClient> {
  const ac = new AbortController();
  const headers: Record<string, string> = { accept: opts.accept ?? 'text/event-stream' };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
  const res = await fetch(url, { headers, signal: ac.signal });
  const records: SseRecord[] = [];
  let text = '';
  let taken = 0;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of [...listeners]) l();
  };
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!res.body) return;
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        records.push(...parser.push(value));
        notify();
      }
    } catch {
      // aborted by close()
    }
    records.push(...parser.end());
    notify();
  })();
  let finished = false;
  void ended.then(() => {
    finished = true;
    notify();
  });

  const wait = <T>(check: () => T | undefined, timeoutMs: number, what: string) =>
    new Promise<T>((resolve, reject) => {
      const attempt = () => {
        const v = check();
        if (v !== undefined) {
          cleanup();
          resolve(v);
        } else if (finished) {
          cleanup();
          reject(new Error(`stream ended (HTTP ${res.status}) while waiting for ${what}; got ${JSON.stringify(records.map((r) => r.event))} ${text.slice(0, 200)}`));
        }
      };
      const t = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out waiting for ${what}; got ${JSON.stringify(records.map((r) => r.event))}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(t);
        listeners.delete(attempt);
      };
      listeners.add(attempt);
      attempt();
    });

  return {
    status: res.status,
    headers: res.headers,
    records,
    raw: () => text,
    next(pred, timeoutMs = 5_000) {
      const match = typeof pred === 'string' ? (r: SseRecord) => r.event === pred : (pred ?? (() => true));
      return wait(
        () => {
          for (let i = taken; i < records.length; i++) {
            if (match(records[i])) {
              taken = i + 1;
              return records[i];
            }
          }
          return undefined;
        },
        timeoutMs,
        typeof pred === 'string' ? `event ${pred}` : 'a matching event',
      );
    },
    until(pred, timeoutMs = 5_000) {
      return wait(() => (pred(text) ? true : undefined), timeoutMs, 'stream text').then(() => {});
    },
    ended,
    close: () => ac.abort(),
  };
}

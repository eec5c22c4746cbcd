// The event bus on Redis Streams (REDIS_URL): one stream per project, so every replica's SSE
// clients see every event and `Last-Event-ID` (a stream id) resumes on any replica (D10).
// - publish: XADD with MINID trimming to the 24-hour window, and a key expiry so idle projects'
//   streams disappear entirely.
// - live: ONE dedicated connection per process runs XREAD BLOCK over every project that has a
//   local subscriber, from a concrete id per stream (never `$`, which would lose frames between
//   reads). When the set of projects changes, the blocked read is interrupted with
//   CLIENT UNBLOCK from the command connection, so a new subscription is served at once.
// - resume: XRANGE from the client's id (exclusive), never older than the retention window.
// - presence: a sorted set per project, viewer → expiry time.
import type { Redis } from 'ioredis';
import {
  formatId,
  makeUnsubscribe,
  parseEventId,
  RETENTION_MS,
  Subscriber,
  type BusMessage,
  type BusOptions,
  type EventBus,
  type EventFrame,
  type Unsubscribe,
} from './bus.ts';

type Entry = [id: string, fields: string[]];

interface Watched {
  /** Last id read for this stream; null until the first subscriber has fetched it. */
  cursor: string | null;
  subs: Set<Subscriber>;
  init: Promise<void>;
}

export interface RedisBusOptions extends BusOptions {
  /** Key prefix, e.g. `sb:`; streams are `<prefix>ev:<projectId>`. */
  prefix?: string;
  /** Longest single XREAD block; CLIENT UNBLOCK normally ends it sooner. */
  blockMs?: number;
  onError?: (e: unknown) => void;
}

const PAGE = 500;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const idGreater = (a: string, b: string) => {
  const pa = parseEventId(a);
  const pb = parseEventId(b);
  return !!pa && !!pb && (pa.ms - pb.ms || pa.seq - pb.seq) > 0;
};

export class RedisEventBus implements EventBus {
  private readonly reader: Redis;
  private readonly prefix: string;
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly blockMs: number;
  private readonly onError: (e: unknown) => void;
  private readonly watched = new Map<string, Watched>();
  private closed = false;
  private version = 0;
  private readingVersion = -1;
  private reading = false;
  private readerId: number | null = null;
  private wakeIdle: (() => void) | null = null;
  private readonly loopDone: Promise<void>;

  /** `redis` is the shared command connection (not owned); a blocking reader is duplicated from it. */
  constructor(
    private readonly redis: Redis,
    opts: RedisBusOptions = {},
  ) {
    this.prefix = opts.prefix ?? 'sb:';
    this.retentionMs = opts.retentionMs ?? RETENTION_MS;
    this.now = opts.now ?? Date.now;
    this.blockMs = opts.blockMs ?? 5_000;
    this.onError = opts.onError ?? (() => {});
    // Blocking reads wait for a reconnect rather than failing after a few retries.
    this.reader = redis.duplicate({ maxRetriesPerRequest: null });
    this.reader.on('error', () => {});
    this.reader.on('ready', () => {
      this.readerId = null;
    });
    this.loopDone = this.loop();
  }

  private streamKey = (projectId: string) => `${this.prefix}ev:${projectId}`;
  private presenceKey = (projectId: string) => `${this.prefix}presence:${projectId}`;

  async publish(frame: EventFrame): Promise<string> {
    const key = this.streamKey(frame.projectId);
    const minId = `${Math.max(0, this.now() - this.retentionMs)}-0`;
    const res = await this.redis
      .multi()
      .xadd(key, 'MINID', '~', minId, '*', 'f', JSON.stringify(frame))
      .pexpire(key, this.retentionMs + 3_600_000)
      .exec();
    const [err, id] = res?.[0] ?? [new Error('XADD returned nothing'), null];
    if (err) throw err;
    return id as string;
  }

  subscribe(projectId: string, fromId: string | null, onMessage: (m: BusMessage) => void): Unsubscribe {
    const sub = new Subscriber(projectId, onMessage, this.onError);
    const key = this.streamKey(projectId);
    let w = this.watched.get(projectId);
    if (!w) {
      const fresh: Watched = { cursor: null, subs: new Set(), init: Promise.resolve() };
      fresh.init = this.topId(key).then((top) => {
        fresh.cursor = top;
        this.wake();
      });
      this.watched.set(projectId, fresh);
      w = fresh;
    }
    const watched = w;
    watched.subs.add(sub);
    const from = parseEventId(fromId);
    const ready = (async () => {
      await watched.init;
      if (from) {
        sub.startAfter(from);
        const oldest = this.now() - this.retentionMs;
        let start = from.ms < oldest ? `${oldest}-0` : `(${formatId(from)}`;
        for (;;) {
          const page = (await this.redis.xrange(key, start, '+', 'COUNT', PAGE)) as Entry[];
          for (const e of page) {
            const m = toMessage(e);
            if (m) sub.deliver(m);
          }
          if (page.length < PAGE || sub.closed) break;
          start = `(${page[page.length - 1][0]}`;
        }
      } else {
        const top = parseEventId(await this.topId(key));
        if (top) sub.startAfter(top);
      }
      sub.goLive();
    })();
    ready.catch((e) => this.onError(e));
    return makeUnsubscribe(() => {
      sub.closed = true;
      watched.subs.delete(sub);
      // The reader drops the stream on its next round; no need to interrupt it for that.
      if (watched.subs.size === 0 && this.watched.get(projectId) === watched) this.watched.delete(projectId);
    }, ready);
  }

  async touchPresence(projectId: string, viewerId: string, ttlMs: number): Promise<number> {
    const key = this.presenceKey(projectId);
    const now = this.now();
    const res = await this.redis
      .multi()
      .zadd(key, now + ttlMs, viewerId)
      .zremrangebyscore(key, '-inf', now)
      .zcard(key)
      // The set lives as long as its longest-lived viewer (NX for a new key, GT to extend).
      .pexpire(key, ttlMs * 2, 'NX')
      .pexpire(key, ttlMs * 2, 'GT')
      .exec();
    return Number(res?.[2]?.[1] ?? 0);
  }

  async leavePresence(projectId: string, viewerId: string): Promise<number> {
    const key = this.presenceKey(projectId);
    const res = await this.redis.multi().zrem(key, viewerId).zremrangebyscore(key, '-inf', this.now()).zcard(key).exec();
    return Number(res?.[2]?.[1] ?? 0);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.watched.values()) for (const s of w.subs) s.closed = true;
    this.watched.clear();
    this.wakeIdle?.();
    this.reader.disconnect();
    await this.loopDone;
  }

  private async topId(key: string): Promise<string> {
    const last = (await this.redis.xrevrange(key, '+', '-', 'COUNT', 1)) as Entry[];
    return last[0]?.[0] ?? '0-0';
  }

  /** The set of watched streams changed: make the reader start a new XREAD with it. */
  private wake(): void {
    this.version++;
    if (this.wakeIdle) {
      this.wakeIdle();
      this.wakeIdle = null;
      return;
    }
    void (async () => {
      // UNBLOCK answers 0 when the XREAD has not reached the server yet: try again shortly.
      for (let i = 0; i < 100 && !this.closed && this.reading && this.readingVersion < this.version; i++) {
        try {
          if (this.readerId !== null && (await this.redis.client('UNBLOCK', this.readerId)) === 1) return;
        } catch (e) {
          this.onError(e);
          return;
        }
        await sleep(2);
      }
    })();
  }

  private async loop(): Promise<void> {
    while (!this.closed) {
      const streams = [...this.watched.entries()].filter(([, w]) => w.cursor !== null);
      if (streams.length === 0) {
        await new Promise<void>((r) => {
          this.wakeIdle = r;
        });
        continue;
      }
      try {
        if (this.readerId === null) this.readerId = Number(await this.reader.client('ID'));
        this.readingVersion = this.version;
        this.reading = true;
        const keys = streams.map(([pid]) => this.streamKey(pid));
        const ids = streams.map(([, w]) => w.cursor as string);
        const res = (await this.reader.xread('COUNT', PAGE, 'BLOCK', this.blockMs, 'STREAMS', ...keys, ...ids)) as
          | [key: string, entries: Entry[]][]
          | null;
        this.reading = false;
        for (const [key, entries] of res ?? []) {
          const w = this.watched.get(key.slice(this.prefix.length + 3));
          if (!w) continue;
          for (const e of entries) {
            if (w.cursor === null || idGreater(e[0], w.cursor)) w.cursor = e[0];
            const m = toMessage(e);
            if (m) for (const s of w.subs) s.offer(m);
          }
        }
      } catch (e) {
        this.reading = false;
        if (this.closed) break;
        this.onError(e);
        this.readerId = null;
        await sleep(250);
      }
    }
  }
}

function toMessage([id, fields]: Entry): BusMessage | null {
  const i = fields.indexOf('f');
  if (i === -1 || i + 1 >= fields.length) return null;
  try {
    return { id, frame: JSON.parse(fields[i + 1]) as EventFrame };
  } catch {
    return null;
  }
}

// The in-process event bus: the default, exact for a single replica (D11). Each project keeps
// its frames of the last 24 hours for resume, bounded in count so a flood cannot exhaust memory;
// idle streams and stale presence are swept once a minute.
import {
  compareIds,
  formatId,
  makeUnsubscribe,
  parseEventId,
  RETENTION_MS,
  Subscriber,
  type BusMessage,
  type BusOptions,
  type EventBus,
  type EventFrame,
  type ParsedId,
  type Unsubscribe,
} from './bus.ts';

interface Stream {
  msgs: BusMessage[];
  ids: ParsedId[];
  /** Frames before this index are trimmed: out of the window, not yet cut from the arrays. */
  head: number;
  last: ParsedId;
}

/** Trimmed frames are cut from a stream's arrays this many at a time (see trim). */
const COMPACT_EVERY = 1024;

export interface MemoryBusOptions extends BusOptions {
  /** Frames kept per project at most (the oldest go first). */
  maxPerProject?: number;
  onError?: (e: unknown) => void;
}

export class MemoryEventBus implements EventBus {
  private readonly streams = new Map<string, Stream>();
  private readonly subs = new Map<string, Set<Subscriber>>();
  private readonly viewers = new Map<string, Map<string, number>>();
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly max: number;
  private readonly onError: (e: unknown) => void;
  private readonly sweeper: NodeJS.Timeout;

  constructor(opts: MemoryBusOptions = {}) {
    this.retentionMs = opts.retentionMs ?? RETENTION_MS;
    this.now = opts.now ?? Date.now;
    this.max = opts.maxPerProject ?? 10_000;
    this.onError = opts.onError ?? (() => {});
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  async publish(frame: EventFrame): Promise<string> {
    const now = this.now();
    let st = this.streams.get(frame.projectId);
    if (!st) {
      st = { msgs: [], ids: [], head: 0, last: { ms: 0, seq: 0 } };
      this.streams.set(frame.projectId, st);
    }
    // Like Redis: the id's time part never goes backwards, the sequence breaks ties.
    const next: ParsedId = now > st.last.ms ? { ms: now, seq: 0 } : { ms: st.last.ms, seq: st.last.seq + 1 };
    st.last = next;
    const m: BusMessage = { id: formatId(next), frame };
    st.msgs.push(m);
    st.ids.push(next);
    this.trim(st, now);
    for (const s of this.subs.get(frame.projectId) ?? []) s.offer(m);
    return m.id;
  }

  subscribe(projectId: string, fromId: string | null, onMessage: (m: BusMessage) => void): Unsubscribe {
    const sub = new Subscriber(projectId, onMessage, this.onError);
    let set = this.subs.get(projectId);
    if (!set) {
      set = new Set();
      this.subs.set(projectId, set);
    }
    set.add(sub);
    const from = parseEventId(fromId);
    // Live-only: everything already published when subscribe() is called is history.
    if (from) sub.startAfter(from);
    else if (this.streams.has(projectId)) sub.startAfter(this.streams.get(projectId)!.last);
    // Replay on the next tick, so callbacks never run inside subscribe().
    const ready = Promise.resolve().then(() => {
      const st = this.streams.get(projectId);
      if (from && st) {
        const oldest = this.now() - this.retentionMs;
        for (let i = st.head; i < st.msgs.length; i++) {
          if (st.ids[i].ms >= oldest && compareIds(st.ids[i], from) > 0) sub.deliver(st.msgs[i]);
        }
      }
      sub.goLive();
    });
    return makeUnsubscribe(() => {
      sub.closed = true;
      set.delete(sub);
      if (set.size === 0) this.subs.delete(projectId);
    }, ready);
  }

  async touchPresence(projectId: string, viewerId: string, ttlMs: number): Promise<number> {
    let v = this.viewers.get(projectId);
    if (!v) {
      v = new Map();
      this.viewers.set(projectId, v);
    }
    v.set(viewerId, this.now() + ttlMs);
    return this.count(projectId);
  }

  async leavePresence(projectId: string, viewerId: string): Promise<number> {
    this.viewers.get(projectId)?.delete(viewerId);
    return this.count(projectId);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const set of this.subs.values()) for (const s of set) s.closed = true;
    this.subs.clear();
  }

  private count(projectId: string): number {
    const v = this.viewers.get(projectId);
    if (!v) return 0;
    const now = this.now();
    for (const [id, exp] of v) if (exp <= now) v.delete(id);
    if (v.size === 0) this.viewers.delete(projectId);
    return v.size;
  }

  /**
   * Moves the stream's start past frames older than the retention or beyond the count. The
   * arrays are cut only every COMPACT_EVERY frames (or when nothing is left): a busy project sits
   * at the count, and cutting one frame off the front of the arrays on every publish copied the
   * whole window each time.
   */
  private trim(st: Stream, now: number): void {
    const oldest = now - this.retentionMs;
    let head = st.head;
    while (head < st.ids.length && (st.ids[head].ms < oldest || st.ids.length - head > this.max)) head++;
    st.head = head;
    if (head >= COMPACT_EVERY || (head > 0 && head === st.ids.length)) {
      st.msgs.splice(0, head);
      st.ids.splice(0, head);
      st.head = 0;
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const [pid, st] of this.streams) {
      this.trim(st, now);
      // An empty stream still remembers its last id so ids keep increasing; forget it only when
      // it has been idle for longer than the retention (new ids are time based anyway).
      if (st.msgs.length === 0 && !this.subs.has(pid) && now - st.last.ms > this.retentionMs) this.streams.delete(pid);
    }
    for (const pid of [...this.viewers.keys()]) this.count(pid);
  }
}


// The project event bus (spec §6, D10): one ordered stream per project, carrying event frames to
// every SSE client on every replica, with resume. One interface, an in-process implementation
// (the default, single replica) and a Redis Streams one (REDIS_URL, fan-out across replicas);
// both pass contract.ts. Never PostgreSQL LISTEN/NOTIFY: its commit-time global lock would
// serialise ledger writes (D10).
//
// Event ids have the Redis Streams form `<ms>-<seq>` in both implementations: increasing per
// project, comparable, and (being time based) still increasing after a restart, so a
// `Last-Event-ID` from before a restart never hides newer events.

/** The frame of spec §6: what SSE `data:` and webhook bodies carry. */
export interface EventFrame {
  type: string;
  projectId: string;
  tenantId: string;
  actorUserId: string | null;
  at: string;
  payload: Record<string, unknown>;
}

/** A frame as stored on a project stream, with its SSE `id:`. */
export interface BusMessage {
  id: string;
  frame: EventFrame;
}

/**
 * Ends a subscription (idempotent). `ready` resolves once the subscription is live: missed
 * frames after `fromId` have been delivered and every frame published afterwards will be.
 */
export interface Unsubscribe {
  (): void;
  ready: Promise<void>;
}

export interface EventBus {
  /** Append a frame to its project's stream; resolves with the frame's id. */
  publish(frame: EventFrame): Promise<string>;
  /**
   * Frames of one project: first those after `fromId` still retained (24 h), then live ones,
   * each exactly once and in id order. `fromId` null = live only.
   */
  subscribe(projectId: string, fromId: string | null, onMessage: (m: BusMessage) => void): Unsubscribe;
  /** Mark viewer `viewerId` present on the project for `ttlMs`; resolves with the number of viewers. */
  touchPresence(projectId: string, viewerId: string, ttlMs: number): Promise<number>;
  /** The viewer left; resolves with the number of viewers still present. */
  leavePresence(projectId: string, viewerId: string): Promise<number>;
  close(): Promise<void>;
}

/** How long frames stay available for resume (D10). */
export const RETENTION_MS = 24 * 3600 * 1000;

export interface BusOptions {
  retentionMs?: number;
  /** Wall clock for retention; ids are wall-clock based too. Tests move it. */
  now?: () => number;
}

const ID = /^(\d{1,15})-(\d{1,15})$/;

export interface ParsedId {
  ms: number;
  seq: number;
}

export function parseEventId(id: string | null | undefined): ParsedId | null {
  if (!id) return null;
  const m = ID.exec(id.trim());
  if (!m) return null;
  return { ms: Number(m[1]), seq: Number(m[2]) };
}

export function compareIds(a: ParsedId, b: ParsedId): number {
  return a.ms - b.ms || a.seq - b.seq;
}

export const formatId = (p: ParsedId) => `${p.ms}-${p.seq}`;

/**
 * One subscriber's delivery state, shared by both implementations: frames arriving before the
 * replay is done are held back, then everything is delivered once, in id order, with nothing at
 * or before the last delivered id.
 */
export class Subscriber {
  private held: BusMessage[] | null = [];
  private last: ParsedId;
  closed = false;

  constructor(
    readonly projectId: string,
    private readonly onMessage: (m: BusMessage) => void,
    private readonly onError: (e: unknown) => void,
  ) {
    this.last = { ms: 0, seq: 0 };
  }

  /** Live frames from the reader: held until the replay is done. */
  offer(m: BusMessage): void {
    if (this.closed) return;
    if (this.held) this.held.push(m);
    else this.deliver(m);
  }

  /** The replay starts after `after` (delivered frames and skipped history). */
  startAfter(after: ParsedId): void {
    if (compareIds(after, this.last) > 0) this.last = after;
  }

  deliver(m: BusMessage): void {
    if (this.closed) return;
    const id = parseEventId(m.id);
    if (!id || compareIds(id, this.last) <= 0) return;
    this.last = id;
    try {
      this.onMessage(m);
    } catch (e) {
      this.onError(e);
    }
  }

  /** Replay done: release held live frames and go live. */
  goLive(): void {
    const held = this.held ?? [];
    this.held = null;
    held.sort((a, b) => compareIds(parseEventId(a.id)!, parseEventId(b.id)!));
    for (const m of held) this.deliver(m);
  }
}

export function makeUnsubscribe(fn: () => void, ready: Promise<void>): Unsubscribe {
  let done = false;
  const u = (() => {
    if (done) return;
    done = true;
    fn();
  }) as Unsubscribe;
  u.ready = ready;
  return u;
}

// One SSE connection to a project's event stream (spec §6, D10), written straight to the socket:
//   event: connected        data {projectId, at}                      first, once the subscription is live
//   event: <type> / id: <id> data <frame>                              replayed after Last-Event-ID, then live
//   : heartbeat <epoch-ms>                                              every SSE_HEARTBEAT_MS
// Each heartbeat also re-checks the caller's credentials, so a stream ends within one interval of
// its access token expiring or its session being revoked (the client reconnects with a fresh
// token and its Last-Event-ID). A client that stops reading is cut off once 1 MiB is queued, for
// the same reason: it will resume from its last id. Presence: every connection is a viewer of the
// project for three heartbeats at a time; joining and leaving emit presence.heartbeat.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../../app/shared/index.ts';
import type { AuthContext } from '../../../app/identity/index.ts';
import { authenticate } from '../../../app/identity/index.ts';
import { emitEvent } from '../../../app/events/index.ts';
import type { BusMessage } from '../../../infra/bus/bus.ts';
import { encodeSse, encodeSseComment } from '../../../wire/sse.ts';

const MAX_QUEUED_BYTES = 1024 * 1024;
/** EventSource reconnection delay suggested to clients. */
const RETRY_MS = 3_000;

export interface StreamOptions {
  auth: AuthContext;
  /** The credential that opened the stream, re-checked at every heartbeat. */
  credential: string;
  projectId: string;
  lastEventId: string | null;
  headers: Record<string, string>;
  /** Called once when the stream ends, however it ends. */
  onClose?: () => void;
}

export function serveEventStream(s: Services, req: IncomingMessage, res: ServerResponse, o: StreamOptions): void {
  const viewerId = randomUUID();
  const presenceTtl = s.config.SSE_HEARTBEAT_MS * 3 + 5_000;
  let open = true;
  let live = false;
  let joined = false;
  let held: BusMessage[] = [];

  res.writeHead(200, {
    ...o.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  req.socket.setTimeout(0);

  const write = (chunk: string) => {
    if (!open) return;
    res.write(chunk);
    if (res.writableLength > MAX_QUEUED_BYTES) close();
  };
  const send = (m: BusMessage) => write(encodeSse({ event: m.frame.type, id: m.id, data: JSON.stringify(m.frame) }));

  const unsubscribe = s.bus.subscribe(o.projectId, o.lastEventId, (m) => {
    if (live) send(m);
    else held.push(m);
  });

  const presence = (change: 'joined' | 'left', viewers: number) =>
    emitEvent(s, {
      type: 'presence.heartbeat',
      tenantId: o.auth.tenantId,
      projectId: o.projectId,
      actorUserId: o.auth.userId,
      payload: { viewers, change, userId: o.auth.userId },
    });

  const heartbeat = setInterval(() => {
    write(encodeSseComment(`heartbeat ${s.clock.now().getTime()}`));
    void (async () => {
      try {
        await authenticate(s, o.credential);
      } catch {
        close();
        return;
      }
      if (open) await s.bus.touchPresence(o.projectId, viewerId, presenceTtl);
    })().catch((e) => s.log.warn(e, 'event stream heartbeat failed'));
  }, s.config.SSE_HEARTBEAT_MS);

  function close() {
    if (!open) return;
    open = false;
    o.onClose?.();
    clearInterval(heartbeat);
    unsubscribe();
    res.end();
    if (joined) {
      void s.bus
        .leavePresence(o.projectId, viewerId)
        .then((n) => presence('left', n))
        .catch((e) => s.log.warn(e, 'presence update failed'));
    }
  }
  req.on('close', close);
  res.on('error', close);

  unsubscribe.ready
    .then(async () => {
      if (!open) return;
      write(encodeSse({ event: 'connected', retry: RETRY_MS, data: JSON.stringify({ projectId: o.projectId, at: s.clock.now().toISOString() }) }));
      live = true;
      for (const m of held) send(m);
      held = [];
      const viewers = await s.bus.touchPresence(o.projectId, viewerId, presenceTtl);
      if (!open) {
        // The client left while presence was being recorded: undo it quietly.
        await s.bus.leavePresence(o.projectId, viewerId);
        return;
      }
      joined = true;
      await presence('joined', viewers);
    })
    .catch((e) => {
      s.log.warn(e, 'event stream failed');
      close();
    });
}

// The project event stream (spec §6) read with fetch, so the access token travels in the
// Authorization header (never a URL or a script-readable cookie), parsed by a maintained SSE
// parser. Reconnects with Last-Event-ID after a drop, with a fresh token.
import { useEffect, useRef } from 'react';
import { createParser } from 'eventsource-parser';
import { getAccessToken, refresh } from './session.ts';

export interface EventFrame {
  type: string;
  projectId: string;
  tenantId: string;
  actorUserId: string | null;
  at: string;
  payload: Record<string, unknown>;
}

async function follow(projectId: string, onFrame: (f: EventFrame) => void, onOpen: () => void, signal: AbortSignal) {
  let lastEventId: string | null = null;
  let backoff = 1_000;
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream', authorization: `Bearer ${getAccessToken() ?? ''}` };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      const res = await fetch(`/api/service/projects/${projectId}/events`, { headers, signal, cache: 'no-store' });
      if (res.status === 401) {
        if (!(await refresh())) return;
        continue;
      }
      if (!res.ok || !res.body) throw new Error(`event stream answered ${res.status}`);
      backoff = 1_000;
      const parser = createParser({
        onEvent(ev) {
          if (ev.id) lastEventId = ev.id;
          if (ev.event === 'connected') return onOpen();
          try {
            onFrame(JSON.parse(ev.data) as EventFrame);
          } catch {
            /* a frame that is not JSON is not ours to show */
          }
        },
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch (e) {
      if (signal.aborted) return;
    }
    await new Promise((r) => setTimeout(r, backoff));
    backoff = Math.min(backoff * 2, 30_000);
  }
}

/** Calls `onFrame` for every event of the given projects while the component is mounted. */
export function useProjectEvents(projectIds: string[], onFrame: (f: EventFrame) => void, onOpen?: (projectId: string) => void) {
  const cb = useRef(onFrame);
  cb.current = onFrame;
  const open = useRef(onOpen);
  open.current = onOpen;
  const key = projectIds.join(',');
  useEffect(() => {
    if (!key) return;
    const ctl = new AbortController();
    for (const id of key.split(',')) void follow(id, (f) => cb.current(f), () => open.current?.(id), ctl.signal);
    return () => ctl.abort();
  }, [key]);
}

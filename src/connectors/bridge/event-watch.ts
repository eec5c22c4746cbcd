// The bridge's view of the user's project streams (spec §6, D14): one SSE connection per project,
// resumed with Last-Event-ID after any drop (sleep, network loss, the server ending a stream at
// an expired token), so no event is missed; the last ids are kept on disk for restarts too.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SseParser } from '../../wire/sse.ts';
import { SignedOut, type BridgeSession } from './bridge-session.ts';
import type { Frame } from './alerts.ts';

export class EventWatch {
  private readonly lastIds: Record<string, string>;
  private readonly ac = new AbortController();

  constructor(
    private readonly session: BridgeSession,
    private readonly idsFile: string,
    private readonly onFrame: (f: Frame, projectId: string) => void,
    private readonly log: (line: string) => void,
  ) {
    this.lastIds = existsSync(idsFile) ? (JSON.parse(readFileSync(idsFile, 'utf8')) as Record<string, string>) : {};
  }

  stop() {
    this.ac.abort();
  }

  /** Runs until stopped or signed out (then rejects with SignedOut). */
  async watch(projectId: string): Promise<void> {
    let backoffMs = 500;
    while (!this.ac.signal.aborted) {
      try {
        const token = await this.session.accessToken();
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'text/event-stream' };
        if (this.lastIds[projectId]) headers['last-event-id'] = this.lastIds[projectId];
        const res = await fetch(`${this.session.baseUrl}/api/service/projects/${projectId}/events`, { headers, signal: this.ac.signal });
        if (res.status === 401) {
          await this.session.refresh(); // throws SignedOut when the session is gone
          continue;
        }
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        backoffMs = 500;
        const parser = new SseParser();
        for await (const chunk of res.body) {
          for (const rec of parser.push(chunk as Uint8Array)) {
            if (rec.id) {
              this.lastIds[projectId] = rec.id;
              writeFileSync(this.idsFile, JSON.stringify(this.lastIds), { mode: 0o600 });
            }
            if (!rec.event || rec.event === 'connected') continue;
            try {
              this.onFrame(JSON.parse(rec.data) as Frame, projectId);
            } catch {
              /* not a frame: ignored */
            }
          }
        }
      } catch (e) {
        if (e instanceof SignedOut) throw e;
        if (this.ac.signal.aborted) return;
        this.log(`switchboard bridge: event stream of ${projectId} dropped (${e instanceof Error ? e.message : e}); reconnecting`);
      }
      await sleep(backoffMs, undefined, { signal: this.ac.signal }).catch(() => undefined);
      backoffMs = Math.min(backoffMs * 2, 30_000);
    }
  }
}

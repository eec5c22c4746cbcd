// Messages between the three parts of the extension:
//   page world ──window.postMessage──▶ content script (isolated) ──runtime port──▶ service worker
// The page world sees only its own request and the answer; the key lives in the service worker.

/** Tag on window messages, so the relay and the page script ignore everyone else's. */
export const TAG = '__switchboardExtension';
export const PORT_NAME = 'switchboard-call';

/** Page → relay → service worker: one call. */
export interface CallRequest {
  url: string;
  method: string;
  headers: Array<[string, string]>;
  body: string;
}

/** Service worker → relay → page, in order: head, chunk*, end — or error at any point. */
export type CallEvent =
  | { type: 'head'; status: number; statusText: string; headers: Array<[string, string]> }
  | { type: 'chunk'; text: string }
  | { type: 'end' }
  | { type: 'error'; message: string };

/** Window messages (the `to` side listens; the other ignores its own echoes). */
export type PageMessage = { [TAG]: 'to-relay'; id: string; type: 'call'; call: CallRequest } | { [TAG]: 'to-relay'; id: string; type: 'abort' };
export type RelayMessage = { [TAG]: 'to-page'; id: string; event: CallEvent };

/** The extension's own pages → service worker. */
export type ControlMessage =
  | { type: 'save'; baseUrl: string; key: string; sites: string }
  | { type: 'status'; url: string | null }
  | { type: 'forget' };

// Runs in the page's own world on enabled sites, before the page's scripts (document_start).
// Wraps `fetch`: a call to one of the three vendor endpoints (reroute.ts) is handed to the
// extension and answered with an ordinary Response built from Switchboard's answer, streamed
// as it arrives; every other call goes to the browser's fetch untouched. Nothing secret is
// here: the service key stays in the service worker, and the page's own vendor key is dropped
// there.
import { reroute } from './reroute.ts';
import { TAG, type CallEvent, type PageMessage, type RelayMessage } from './protocol.ts';

declare global {
  interface Window {
    [TAG]?: true;
  }
}

(() => {
  // Registered for allFrames and possibly injected twice into one document: wrap once.
  if (window[TAG]) return;
  Object.defineProperty(window, TAG, { value: true });

  const browserFetch = window.fetch;
  const handlers = new Map<string, (e: CallEvent) => void>();
  const prefix = Math.random().toString(36).slice(2);
  let seq = 0;

  window.addEventListener('message', (ev: MessageEvent) => {
    if (ev.source !== window) return;
    const d = ev.data as RelayMessage | null;
    if (!d || typeof d !== 'object' || d[TAG] !== 'to-page') return;
    handlers.get(d.id)?.(d.event);
  });
  const post = (m: PageMessage) => window.postMessage(m, '*');

  function urlAndMethod(input: RequestInfo | URL, init?: RequestInit): { url: string; method: string } | null {
    try {
      const url = input instanceof Request ? input.url : new URL(input instanceof URL ? input.href : String(input), document.baseURI).href;
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      return { url, method };
    } catch {
      return null;
    }
  }

  async function viaSwitchboard(req: Request): Promise<Response> {
    const signal = req.signal;
    if (signal.aborted) throw signal.reason;
    const body = await req.text();
    if (signal.aborted) throw signal.reason;
    const id = `${prefix}-${++seq}`;
    const enc = new TextEncoder();

    return new Promise<Response>((resolve, reject) => {
      let stream: ReadableStreamDefaultController<Uint8Array> | null = null;
      let done = false;
      const finish = () => {
        done = true;
        handlers.delete(id);
        signal.removeEventListener('abort', onAbort);
      };
      function onAbort() {
        if (done) return;
        post({ [TAG]: 'to-relay', id, type: 'abort' });
        finish();
        // As the browser's fetch: before the head the promise rejects, after it the body errors.
        if (stream) stream.error(signal.reason);
        else reject(signal.reason);
      }
      signal.addEventListener('abort', onAbort);

      handlers.set(id, (e) => {
        if (done) return;
        switch (e.type) {
          case 'head': {
            const nullBody = e.status === 204 || e.status === 205 || e.status === 304 || req.method === 'HEAD';
            const body = nullBody
              ? null
              : new ReadableStream<Uint8Array>({
                  start(c) {
                    stream = c;
                  },
                  cancel() {
                    // The page stopped reading: stop the call too.
                    if (done) return;
                    post({ [TAG]: 'to-relay', id, type: 'abort' });
                    finish();
                  },
                });
            resolve(new Response(body, { status: e.status, statusText: e.statusText, headers: e.headers }));
            if (nullBody) finish();
            return;
          }
          case 'chunk':
            stream?.enqueue(enc.encode(e.text));
            return;
          case 'end':
            finish();
            stream?.close();
            return;
          case 'error': {
            finish();
            const err = new TypeError(e.message);
            if (stream) stream.error(err);
            else reject(err);
            return;
          }
        }
      });
      post({ [TAG]: 'to-relay', id, type: 'call', call: { url: req.url, method: req.method, headers: [...req.headers], body } });
    });
  }

  const wrapped = function fetch(this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const target = urlAndMethod(input, init);
    if (!target || !reroute(target.url, target.method)) return Reflect.apply(browserFetch, this, [input, init]) as Promise<Response>;
    let req: Request;
    try {
      req = new Request(input, init);
    } catch (e) {
      return Promise.reject(e);
    }
    return viaSwitchboard(req);
  };
  window.fetch = wrapped as typeof fetch;
})();

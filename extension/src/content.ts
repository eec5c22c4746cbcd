// The relay, in the extension's isolated world on enabled sites: window messages from the
// page-world script become one runtime port per call to the service worker, and the port's
// events go back to the page. Closing the port is the abort. It holds no secret.
import { PORT_NAME, TAG, type CallEvent, type PageMessage, type RelayMessage } from './protocol.ts';

const ports = new Map<string, chrome.runtime.Port>();
const stopKeepAlive = new Map<string, () => void>();
const toPage = (id: string, event: CallEvent) => window.postMessage({ [TAG]: 'to-page', id, event } satisfies RelayMessage, '*');

window.addEventListener('message', (ev: MessageEvent) => {
  if (ev.source !== window) return;
  const d = ev.data as PageMessage | null;
  if (!d || typeof d !== 'object' || d[TAG] !== 'to-relay' || typeof d.id !== 'string') return;
  if (d.type === 'abort') {
    const p = ports.get(d.id);
    ports.delete(d.id);
    p?.disconnect();
    stopKeepAlive.get(d.id)?.();
    return;
  }
  if (d.type !== 'call' || ports.has(d.id)) return;
  let port: chrome.runtime.Port;
  try {
    port = chrome.runtime.connect({ name: PORT_NAME });
  } catch {
    // The extension was reloaded or removed under this page: its context is gone.
    toPage(d.id, { type: 'error', message: 'The Switchboard extension was reloaded: reload this page' });
    return;
  }
  ports.set(d.id, port);
  // Chromium may stop an idle extension service worker after 30 s, even with a fetch in flight;
  // a message on the port keeps it alive (Chrome 114+), so a slow answer is not cut off.
  const keepAlive = setInterval(() => port.postMessage({ keepAlive: true }), 20_000);
  stopKeepAlive.set(d.id, () => {
    clearInterval(keepAlive);
    stopKeepAlive.delete(d.id);
  });
  port.onMessage.addListener((e: CallEvent) => {
    toPage(d.id, e);
    if (e.type === 'end' || e.type === 'error') {
      stopKeepAlive.get(d.id)?.();
      ports.delete(d.id);
      port.disconnect();
    }
  });
  port.onDisconnect.addListener(() => {
    stopKeepAlive.get(d.id)?.();
    if (!ports.delete(d.id)) return;
    toPage(d.id, { type: 'error', message: 'The Switchboard extension stopped during the call (reloaded or updated): try again' });
  });
  port.postMessage(d.call);
});

// The service worker: the only part that holds the service key and the only one that talks to
// Switchboard. It answers the relay's call ports (re-routing a vendor call to the matching proxy
// with the key and `x-service-channel: extension`, streaming the answer back), and the
// extension's own options page and popup (save and check the settings, today's numbers).
import { CHANNEL, CHANNEL_HEADER, forwardedHeaders, reroute } from './reroute.ts';
import { PORT_NAME, type CallEvent, type CallRequest, type ControlMessage } from './protocol.ts';
import { applyContentScripts, loadSettings, normaliseBaseUrl, siteList, type Settings } from './settings.ts';
import { isEnabled, parseSites } from './sites.ts';

const reachError = (baseUrl: string, e: unknown) =>
  `Switchboard at ${baseUrl} could not be reached (${e instanceof Error ? e.message : String(e)}): check the URL on the extension's options page`;

// ---- calls from enabled sites ----------------------------------------------------------------

async function relayCall(port: chrome.runtime.Port, call: CallRequest, signal: AbortSignal): Promise<void> {
  const send = (e: CallEvent) => {
    if (!signal.aborted) port.postMessage(e);
  };
  const s = await loadSettings();
  // Decided again here: the page world is the page's, and only these three targets get the key.
  const route = reroute(call.url, call.method);
  const from = port.sender?.url ?? port.sender?.origin ?? '';
  if (!route) return send({ type: 'error', message: 'The Switchboard extension only carries calls to the OpenAI, Anthropic and Gemini endpoints' });
  if (!s.baseUrl || !s.key) return send({ type: 'error', message: 'The Switchboard extension is not set up: open its options page and enter the Switchboard URL and a service key' });
  if (!isEnabled(from, siteList(s))) return send({ type: 'error', message: 'This site is not enabled in the Switchboard extension' });

  const headers = forwardedHeaders(call.headers);
  headers.authorization = `Bearer ${s.key}`;
  headers[CHANNEL_HEADER] = CHANNEL;
  let res: Response;
  try {
    res = await fetch(s.baseUrl + route.path, { method: 'POST', headers, body: call.body, signal, credentials: 'omit', cache: 'no-store', redirect: 'error' });
  } catch (e) {
    if (!signal.aborted) send({ type: 'error', message: reachError(s.baseUrl, e) });
    return;
  }
  send({ type: 'head', status: res.status, statusText: res.statusText, headers: [...res.headers] });
  if (!res.body) return send({ type: 'end' });
  // Text, not bytes: every answer of the three shapes is UTF-8 JSON or SSE, and a port carries
  // JSON. The decoder keeps a character split across two reads whole.
  const reader = res.body.getReader();
  const dec = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = dec.decode(value, { stream: true });
      if (text) send({ type: 'chunk', text });
    }
    const tail = dec.decode();
    if (tail) send({ type: 'chunk', text: tail });
    send({ type: 'end' });
  } catch (e) {
    if (!signal.aborted) send({ type: 'error', message: `The answer from Switchboard broke off (${e instanceof Error ? e.message : String(e)})` });
  }
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== PORT_NAME) return;
  const abort = new AbortController();
  port.onDisconnect.addListener(() => abort.abort());
  let started = false;
  port.onMessage.addListener((call: CallRequest) => {
    if (started) return;
    started = true;
    relayCall(port, call, abort.signal).catch((e) => {
      if (!abort.signal.aborted) port.postMessage({ type: 'error', message: `The Switchboard extension failed: ${e instanceof Error ? e.message : String(e)}` } satisfies CallEvent);
    });
  });
});

// ---- the options page and the popup -----------------------------------------------------------

interface Envelope<T> {
  success: boolean;
  data?: T;
  error?: string;
}

async function api<T>(s: Pick<Settings, 'baseUrl' | 'key'>, method: 'GET' | 'POST', path: string): Promise<{ ok: true; data: T } | { ok: false; status: number; error: string }> {
  let res: Response;
  try {
    res = await fetch(s.baseUrl + path, {
      method,
      headers: { authorization: `Bearer ${s.key}`, [CHANNEL_HEADER]: CHANNEL, accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      body: method === 'POST' ? '{}' : undefined,
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(15_000),
    });
  } catch (e) {
    return { ok: false, status: 0, error: reachError(s.baseUrl, e) };
  }
  const env = (await res.json().catch(() => null)) as Envelope<T> | null;
  if (res.ok && env?.success) return { ok: true, data: env.data as T };
  if (res.status === 401) return { ok: false, status: 401, error: 'Switchboard refused the service key: create one on the Keys page of the web app and paste it here' };
  return { ok: false, status: res.status, error: env?.error ?? `Switchboard answered HTTP ${res.status}: is this the Switchboard URL?` };
}

async function save(m: Extract<ControlMessage, { type: 'save' }>) {
  const current = await loadSettings();
  const baseUrl = normaliseBaseUrl(m.baseUrl);
  if (typeof baseUrl !== 'string') return { ok: false, error: baseUrl.error };
  const key = m.key.trim() || current.key;
  if (!key) return { ok: false, error: 'Paste a service key (create one on the Keys page of the web app)' };
  const parsed = parseSites(m.sites);
  if (parsed.errors.length) return { ok: false, error: `Enabled sites: ${parsed.errors.join('; ')}` };
  // The heartbeat checks URL and key in one go, and tells the integrations tile the extension is set up.
  const hb = await api<{ tenantName: string; projectName: string; environment: string }>({ baseUrl, key }, 'POST', '/api/connector/heartbeat');
  if (!hb.ok) return { ok: false, error: hb.error };
  const identity = { tenantName: hb.data.tenantName, projectName: hb.data.projectName, environment: hb.data.environment };
  const next: Settings = { baseUrl, key, sites: parsed.sites.map((x) => x.entry), identity };
  await chrome.storage.local.set({ baseUrl: next.baseUrl, key: next.key, sites: next.sites, identity });
  await applyContentScripts(next);
  return { ok: true, identity, sites: next.sites };
}

interface Today {
  day: string;
  calls: number;
  serviceBurn: string;
  benchmarkProvider: string | null;
  tokensSaved: string | null;
}

async function status(url: string | null) {
  const s = await loadSettings();
  const configured = Boolean(s.baseUrl && s.key);
  const routed = configured && url !== null && isEnabled(url, siteList(s));
  if (!configured) return { ok: true, configured, routed, site: url, identity: null, today: null, error: null };
  const t = await api<Today>(s, 'GET', '/api/connector/today?channel=extension');
  return { ok: true, configured, routed, site: url, identity: s.identity, baseUrl: s.baseUrl, today: t.ok ? t.data : null, error: t.ok ? null : t.error };
}

chrome.runtime.onMessage.addListener((m: ControlMessage, sender, reply) => {
  // Only the extension's own pages (options, popup) may ask; a content script's sender is the web page.
  if (sender.id !== chrome.runtime.id || !sender.url?.startsWith(chrome.runtime.getURL(''))) return;
  const work =
    m.type === 'save'
      ? save(m)
      : m.type === 'status'
        ? status(m.url)
        : m.type === 'forget'
          ? chrome.storage.local.remove(['key', 'identity']).then(async () => {
              await applyContentScripts(await loadSettings());
              return { ok: true };
            })
          : null;
  if (!work) return;
  work.then(reply, (e: unknown) => reply({ ok: false, error: e instanceof Error ? e.message : String(e) }));
  return true;
});

// Registered scripts persist, but an update or a fresh profile starts from the stored settings.
const reapply = () => loadSettings().then(applyContentScripts);
chrome.runtime.onInstalled.addListener(() => void reapply());
chrome.runtime.onStartup.addListener(() => void reapply());

// The popup: is the current site routed, and today's calls and tokens saved through the
// extension (GET /api/connector/today, asked by the service worker with the key).
import type { ControlMessage } from './protocol.ts';

const $ = (id: string) => document.getElementById(id)!;

/** 1 wallet token = 1 USD micro (D1): "1,234,567 tokens". */
const tokens = (micros: string) => `${BigInt(micros).toLocaleString('en-US')} tokens`;

/**
 * The site the user is on: the active tab of the last focused window. When the popup itself is
 * that tab (opened as a page rather than from the toolbar), the web page used last.
 */
async function currentSite(): Promise<string | null> {
  const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (active?.url && /^https?:/.test(active.url)) return active.url;
  const pages = (await chrome.tabs.query({})).filter((t) => t.url && /^https?:/.test(t.url));
  pages.sort((a, b) => (b.lastAccessed ?? 0) - (a.lastAccessed ?? 0));
  return pages[0]?.url ?? null;
}

interface Status {
  configured: boolean;
  routed: boolean;
  site: string | null;
  today: { calls: number; benchmarkProvider: string | null; tokensSaved: string | null } | null;
  error: string | null;
}

async function render() {
  const site = await currentSite();
  const s = await chrome.runtime.sendMessage<Status>({ type: 'status', url: site } satisfies ControlMessage);
  const routed = $('routed');
  routed.innerHTML = '';
  const badge = document.createElement('span');
  badge.className = `badge ${s.routed ? 'on' : 'off'}`;
  badge.textContent = !s.configured ? 'Not set up' : s.routed ? 'Routed through Switchboard' : 'Not routed on this site';
  routed.append(badge);
  $('site').textContent = site ? new URL(site).host : 'No web page is open';
  const note = $('note');
  if (!s.configured) {
    note.textContent = 'Open the options to enter your Switchboard URL, a service key and the sites to route.';
    return;
  }
  if (!s.today) {
    note.textContent = s.error ?? 'Switchboard did not answer.';
    return;
  }
  $('calls').textContent = s.today.calls.toLocaleString('en-US');
  if (s.today.tokensSaved === null) {
    $('saved').textContent = 'Not computed';
    note.textContent = 'Choose a benchmark provider on the Billing page of the web app to see tokens saved.';
  } else {
    $('saved').textContent = tokens(s.today.tokensSaved);
    note.textContent = `Against ${s.today.benchmarkProvider}.`;
  }
}

$('options').addEventListener('click', () => void chrome.runtime.openOptionsPage());
void render();

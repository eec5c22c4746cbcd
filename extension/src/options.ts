// The options page: Switchboard URL, service key and enabled sites. Saving hands them to the
// service worker, which checks URL and key with a heartbeat before keeping them. The saved key is
// never shown again, only whose it is.
import type { ControlMessage } from './protocol.ts';
import { loadSettings } from './settings.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('form');
const baseUrl = $<HTMLInputElement>('baseUrl');
const key = $<HTMLInputElement>('key');
const sites = $<HTMLTextAreaElement>('sites');
const saveBtn = $<HTMLButtonElement>('save');
const statusEl = $<HTMLDivElement>('status');

function show(kind: 'ok' | 'bad', text: string) {
  statusEl.className = `status ${kind}`;
  statusEl.textContent = text;
}

const who = (i: { tenantName: string; projectName: string; environment: string }) => `${i.tenantName} · ${i.projectName} (${i.environment})`;

async function fill() {
  const s = await loadSettings();
  baseUrl.value = s.baseUrl;
  sites.value = s.sites.join('\n');
  key.value = '';
  key.placeholder = s.key ? `A key is saved (${s.key.slice(0, 12)}…): paste another to replace it` : 'svc_…';
  if (s.identity) show('ok', `Connected to ${who(s.identity)}.`);
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  saveBtn.disabled = true;
  show('ok', 'Checking with Switchboard…');
  try {
    const r = await chrome.runtime.sendMessage<{ ok: boolean; error?: string; identity?: { tenantName: string; projectName: string; environment: string }; sites?: string[] }>({
      type: 'save',
      baseUrl: baseUrl.value,
      key: key.value,
      sites: sites.value,
    } satisfies ControlMessage);
    if (!r?.ok) return show('bad', r?.error ?? 'Saving failed: try again');
    await fill();
    const n = r.sites?.length ?? 0;
    show('ok', `Saved. Connected to ${who(r.identity!)}. ${n ? `Routing on ${n} site${n === 1 ? '' : 's'}: reload their tabs.` : 'No site is enabled yet.'}`);
  } finally {
    saveBtn.disabled = false;
  }
});

$<HTMLButtonElement>('forget').addEventListener('click', async () => {
  await chrome.runtime.sendMessage({ type: 'forget' } satisfies ControlMessage);
  await fill();
  show('ok', 'The key is forgotten: no site is routed until you save a new one.');
});

void fill();

// The options page: Switchboard URL, service key and enabled sites. Saving hands them to the
// service worker, which checks URL and key with a heartbeat before keeping them. The saved key is
// never shown again, only whose it is. Or sign in (device authorisation) and let the extension
// create a key for a chosen project.
import type { ControlMessage } from './protocol.ts';
import { loadSettings, normaliseBaseUrl } from './settings.ts';
import { parseSites } from './sites.ts';
import { createKey, listProjects, signOut, startSignIn, waitForApproval } from './device-signin.ts';

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

type SaveAnswer = { ok: boolean; error?: string; identity?: { tenantName: string; projectName: string; environment: string }; sites?: string[] };

/**
 * Hand the settings to the service worker, which checks them with Switchboard before keeping them.
 * `beforeSaved` runs once they are kept and before "Saved." shows (a device sign-in's session is
 * ended there, so a page closed at "Saved." leaves no session behind).
 */
async function save(withKey: string, beforeSaved?: () => Promise<void>): Promise<boolean> {
  show('ok', 'Checking with Switchboard…');
  const r = await chrome.runtime.sendMessage<SaveAnswer>({ type: 'save', baseUrl: baseUrl.value, key: withKey, sites: sites.value } satisfies ControlMessage);
  if (!r?.ok) {
    show('bad', r?.error ?? 'Saving failed: try again');
    return false;
  }
  await beforeSaved?.();
  await fill();
  const n = r.sites?.length ?? 0;
  show('ok', `Saved. Connected to ${who(r.identity!)}. ${n ? `Routing on ${n} site${n === 1 ? '' : 's'}: reload their tabs.` : 'No site is enabled yet.'}`);
  return true;
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  saveBtn.disabled = true;
  try {
    await save(key.value);
  } finally {
    saveBtn.disabled = false;
  }
});

// ---- sign-in by device authorisation -------------------------------------------------------
const signinBtn = $<HTMLButtonElement>('signin');
const device = $<HTMLDivElement>('device');
const choose = $<HTMLDivElement>('choose');
const projectSel = $<HTMLSelectElement>('project');
let signIn: { baseUrl: string; token: string } | null = null;

signinBtn.addEventListener('click', async () => {
  const url = normaliseBaseUrl(baseUrl.value);
  if (typeof url !== 'string') return show('bad', url.error);
  signinBtn.disabled = true;
  choose.hidden = true;
  try {
    const d = await startSignIn(url);
    $<HTMLParagraphElement>('user-code').textContent = d.userCode;
    $<HTMLAnchorElement>('verify-link').href = d.verificationUriComplete;
    device.hidden = false;
    show('ok', `Enter or confirm the code ${d.userCode} on the device page of your Switchboard.`);
    void chrome.tabs.create({ url: d.verificationUriComplete });
    const token = await waitForApproval(url, d, AbortSignal.timeout(d.expiresIn * 1000));
    device.hidden = true;
    const projects = await listProjects(url, token);
    projectSel.replaceChildren(...projects.map((p) => new Option(p.isDefault ? `${p.name} (default)` : p.name, p.id, p.isDefault, p.isDefault)));
    signIn = { baseUrl: url, token };
    choose.hidden = false;
    show('ok', 'Signed in. Choose the project and environment this browser bills to.');
    projectSel.focus();
  } catch (e) {
    device.hidden = true;
    show('bad', e instanceof Error ? e.message : String(e));
  } finally {
    signinBtn.disabled = false;
  }
});

$<HTMLButtonElement>('use').addEventListener('click', async () => {
  if (!signIn) return;
  const { baseUrl: url, token } = signIn;
  // Checked before a key is created, so a typo in the sites does not leave a key behind.
  const bad = parseSites(sites.value).errors;
  if (bad.length) return show('bad', `Enabled sites: ${bad.join('; ')}`);
  try {
    const newKey = await createKey(url, token, projectSel.value, $<HTMLSelectElement>('environment').value);
    baseUrl.value = url;
    if (await save(newKey, () => signOut(url, token))) {
      choose.hidden = true;
      signIn = null;
    }
  } catch (e) {
    show('bad', e instanceof Error ? e.message : String(e));
  }
});

$<HTMLButtonElement>('forget').addEventListener('click', async () => {
  await chrome.runtime.sendMessage({ type: 'forget' } satisfies ControlMessage);
  await fill();
  show('ok', 'The key is forgotten: no site is routed until you save a new one.');
});

void fill();

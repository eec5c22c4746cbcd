// The extension's settings in chrome.storage.local, which only the extension's own pages and its
// service worker can read: a page's JavaScript never sees the service key (D14). Content scripts
// are registered for the enabled sites only while a URL and a key are set, so an unconfigured
// extension touches nothing.
import { matchPattern, parseSites, type Site } from './sites.ts';

export interface Settings {
  /** The Switchboard URL, no trailing slash; '' until set. */
  baseUrl: string;
  /** The service key; '' until set. */
  key: string;
  /** The enabled sites, one entry each (see sites.ts). */
  sites: string[];
  /** Who the key is, as the heartbeat answered when it was saved. */
  identity: { tenantName: string; projectName: string; environment: string } | null;
}

export async function loadSettings(): Promise<Settings> {
  const v = await chrome.storage.local.get(['baseUrl', 'key', 'sites', 'identity']);
  return {
    baseUrl: typeof v.baseUrl === 'string' ? v.baseUrl : '',
    key: typeof v.key === 'string' ? v.key : '',
    sites: Array.isArray(v.sites) ? v.sites.filter((x): x is string => typeof x === 'string') : [],
    identity: (v.identity as Settings['identity']) ?? null,
  };
}

export const siteList = (s: Settings): Site[] => parseSites(s.sites.join('\n')).sites;

/** A Switchboard URL as typed → its origin and path without a trailing slash, or an error to show. */
export function normaliseBaseUrl(input: string): string | { error: string } {
  let u: URL;
  try {
    u = new URL(input.trim());
  } catch {
    return { error: 'Enter the Switchboard URL with its scheme, like https://switchboard.example.com' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return { error: 'The Switchboard URL must start with https:// (or http:// for a local one)' };
  if (u.search || u.hash) return { error: 'The Switchboard URL takes no query or fragment: use the address you open the web app at' };
  return (u.origin + u.pathname).replace(/\/+$/, '');
}

const SCRIPT_IDS = ['switchboard-page', 'switchboard-relay'];

/**
 * Register the two content scripts for the enabled sites (or none): the page-world script that
 * wraps `fetch`, and the isolated relay that talks to the service worker. Both at document_start,
 * so `fetch` is wrapped before the page's own scripts run.
 */
export async function applyContentScripts(s: Settings): Promise<void> {
  const have = await chrome.scripting.getRegisteredContentScripts({ ids: SCRIPT_IDS });
  if (have.length) await chrome.scripting.unregisterContentScripts({ ids: have.map((x) => x.id) });
  const sites = siteList(s);
  if (!s.baseUrl || !s.key || sites.length === 0) return;
  const matches = sites.map(matchPattern);
  await chrome.scripting.registerContentScripts([
    { id: 'switchboard-page', js: ['page.js'], matches, runAt: 'document_start', allFrames: true, world: 'MAIN', persistAcrossSessions: true },
    { id: 'switchboard-relay', js: ['content.js'], matches, runAt: 'document_start', allFrames: true, world: 'ISOLATED', persistAcrossSessions: true },
  ]);
}

// The sites a user enables, as typed on the options page, and the Chromium match patterns the
// content scripts are registered for. One entry a line: a host (`app.example.com`), a host with
// every subdomain (`*.example.com`), or an origin with scheme and port (`http://127.0.0.1:5173`).
// A host without a scheme covers http and https on any port.

export interface Site {
  /** As the user wrote it, tidied (lower case, no path). */
  entry: string;
  scheme: 'http' | 'https' | '*';
  /** `example.com`, or `*.example.com` for it and its subdomains. */
  host: string;
  /** Empty for any port. */
  port: string;
}

const HOST = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+$|^\[[0-9a-f:]+\]$/;

export function parseSite(input: string): Site | string {
  let t = input.trim().toLowerCase();
  if (!t) return 'an empty line';
  let scheme: Site['scheme'] = '*';
  const m = /^([a-z]+):\/\//.exec(t);
  if (m) {
    if (m[1] !== 'http' && m[1] !== 'https') return `'${input.trim()}': only http and https sites can be enabled`;
    scheme = m[1];
    t = t.slice(m[0].length);
  }
  t = t.replace(/\/.*$/, '');
  let port = '';
  const pm = /:(\d{1,5})$/.exec(t);
  if (pm) {
    port = pm[1];
    t = t.slice(0, -pm[0].length);
    if (Number(port) > 65535) return `'${input.trim()}': the port is out of range`;
  }
  if (!HOST.test(t)) return `'${input.trim()}' is not a host name: write it like app.example.com, *.example.com or http://127.0.0.1:5173`;
  const entry = `${scheme === '*' ? '' : scheme + '://'}${t}${port ? ':' + port : ''}`;
  return { entry, scheme, host: t, port };
}

/** Parse every non-empty line; errors name the line so the user can fix it. */
export function parseSites(text: string): { sites: Site[]; errors: string[] } {
  const sites: Site[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const s = parseSite(line);
    if (typeof s === 'string') errors.push(s);
    else if (!seen.has(s.entry)) {
      seen.add(s.entry);
      sites.push(s);
    }
  }
  return { sites, errors };
}

/** The Chromium match pattern of a site (https://developer.chrome.com/docs/extensions/develop/concepts/match-patterns). */
export const matchPattern = (s: Site) => `${s.scheme}://${s.host}${s.port ? ':' + s.port : ''}/*`;

/** Whether a page URL is on one of the sites (the same rule as the match patterns). */
export function isEnabled(url: string, sites: Site[]): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  const scheme = u.protocol.slice(0, -1);
  if (scheme !== 'http' && scheme !== 'https') return false;
  const host = u.hostname.toLowerCase();
  return sites.some(
    (s) =>
      (s.scheme === '*' || s.scheme === scheme) &&
      (s.port === '' || s.port === (u.port || (scheme === 'https' ? '443' : '80'))) &&
      (s.host.startsWith('*.') ? host === s.host.slice(2) || host.endsWith(s.host.slice(1)) : host === s.host),
  );
}

// Which page requests the extension takes over, and where they go (D14 tier 3). Pure: bundled
// into the page-world script (to decide without a round trip) and into the service worker (which
// decides again, so a page cannot steer the key anywhere but these three proxies).
//
//   https://api.openai.com/v1/chat/completions          → <url>/v1/chat-proxy/v1/chat/completions
//   https://api.anthropic.com/v1/messages               → <url>/v1/messages-proxy/v1/messages
//   https://generativelanguage.googleapis.com/v1beta/models/<m>:generateContent
//                                    (:streamGenerateContent) → <url>/v1/generate-proxy/v1beta/models/<m>:…
//
// The vendor-prefixed proxies (spec §5) pass the vendor's fields, query and beta headers through,
// which is what a web app written against the vendor expects. Anything else (other paths, other
// methods, other hosts) is not the extension's business and passes untouched.

export type Vendor = 'openai' | 'anthropic' | 'gemini';

export interface Reroute {
  vendor: Vendor;
  /** Path and query on the Switchboard URL. */
  path: string;
}

const GEMINI_PATH = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

export function reroute(rawUrl: string, method: string): Reroute | null {
  if (method.toUpperCase() !== 'POST') return null;
  let u: URL;
  try {
    u = new URL(rawUrl);
  } catch {
    return null;
  }
  if (u.protocol !== 'https:' || u.port !== '' || u.username || u.password) return null;
  if (u.hostname === 'api.openai.com' && u.pathname === '/v1/chat/completions') return { vendor: 'openai', path: '/v1/chat-proxy/v1/chat/completions' + u.search };
  if (u.hostname === 'api.anthropic.com' && u.pathname === '/v1/messages') return { vendor: 'anthropic', path: '/v1/messages-proxy/v1/messages' + u.search };
  if (u.hostname === 'generativelanguage.googleapis.com') {
    const m = GEMINI_PATH.exec(u.pathname);
    if (!m) return null;
    // The page's own Gemini key may ride in the query (?key=…): it is dropped with the others.
    u.searchParams.delete('key');
    const q = u.searchParams.toString();
    return { vendor: 'gemini', path: `/v1/generate-proxy/v1beta/models/${m[1]}:${m[2]}${q ? '?' + q : ''}` };
  }
  return null;
}

/**
 * The page's headers that travel on: the body's type and the vendor's version and beta headers.
 * Everything else stays behind, the page's vendor key first of all (authorization, x-api-key,
 * x-goog-api-key), and cookies, which a cross-origin vendor call never had anyway.
 */
const KEPT_HEADERS = new Set(['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'openai-beta', 'openai-organization', 'openai-project', 'x-service-conversation-id']);

export function forwardedHeaders(pageHeaders: Array<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of pageHeaders) {
    const name = k.toLowerCase();
    if (KEPT_HEADERS.has(name)) out[name] = v;
  }
  return out;
}

/** The header that names this connector on every call (D14): attribution only. */
export const CHANNEL_HEADER = 'x-service-channel';
export const CHANNEL = 'extension';

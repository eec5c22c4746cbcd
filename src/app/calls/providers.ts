// Which upstream providers can take calls, and how to reach them (D11): each provider's base URL
// and key from <PROVIDER>_BASE_URL / <PROVIDER>_API_KEY. When no provider is configured at all and
// a simulated upstream is running (`npm start`, tests), every provider points at its prefix on the
// simulator. A provider with neither is unconfigured: calls that can only go there get 503.
import type { Config } from '../../config.ts';
import { BRANDS, PROVIDER_KEYS, type ProviderKey } from '../../core/providers.ts';
import type { ClientShape } from '../../core/canonical/types.ts';

export interface ProviderEndpoint {
  key: ProviderKey;
  /** The base URL without a trailing API version: the wire's path (which starts with one) follows. */
  baseUrl: string;
  /** The API version the configured URL ended in (`v1`, `v4`, `v1beta`), replacing the wire's own. */
  apiVersion: string | null;
  apiKey: string;
  wire: ClientShape;
  simulated: boolean;
}

/** Public vendor origins used when only an API key is given. */
const DEFAULT_BASE_URL: Record<ProviderKey, string> = {
  openai: 'https://api.openai.com',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com',
  mistral: 'https://api.mistral.ai',
  deepseek: 'https://api.deepseek.com',
};

export function configuredProviders(cfg: Config, simUrl?: string | null): Map<ProviderKey, ProviderEndpoint> {
  const out = new Map<ProviderKey, ProviderEndpoint>();
  for (const key of PROVIDER_KEYS) {
    const p = cfg.providers[key];
    if (!p.apiKey && !p.baseUrl) continue;
    out.set(key, {
      key,
      ...splitBaseUrl(p.baseUrl ?? DEFAULT_BASE_URL[key]),
      // A local OpenAI-compatible server often needs no key; send a placeholder so the header exists.
      apiKey: p.apiKey ?? 'no-key',
      wire: BRANDS[key].wire,
      simulated: false,
    });
  }
  if (out.size === 0 && simUrl) {
    for (const key of PROVIDER_KEYS) {
      out.set(key, { key, baseUrl: `${simUrl.replace(/\/+$/, '')}/${key}`, apiVersion: null, apiKey: 'simulated', wire: BRANDS[key].wire, simulated: true });
    }
  }
  return out;
}

/**
 * <PROVIDER>_BASE_URL in the form each vendor's SDK documents, or a bare origin (issue 14):
 * OpenAI-compatible servers are given with their version (`http://host:8000/v1`, as
 * OPENAI_BASE_URL is for the `openai` SDK; some use another, like `/api/paas/v4`), Anthropic's
 * SDK takes the origin (some write `/v1`), Gemini's the origin (or `…/v1beta`). A trailing version
 * segment is split off and used in place of the wire path's own, so no spelling ends up at
 * `/v1/v1/chat/completions`.
 */
export function splitBaseUrl(raw: string): { baseUrl: string; apiVersion: string | null } {
  const u = new URL(raw);
  u.search = '';
  u.hash = '';
  const path = u.pathname.replace(/\/+$/, '');
  const m = /^(.*)\/(v\d+(?:(?:alpha|beta)\d*)?)$/.exec(path);
  u.pathname = m ? m[1]! : path;
  return { baseUrl: u.toString().replace(/\/+$/, ''), apiVersion: m ? m[2]! : null };
}

/** The wire's path (`/v1/chat/completions`, `/v1beta/models/…`) under this provider's base URL. */
export function upstreamUrl(p: Pick<ProviderEndpoint, 'baseUrl' | 'apiVersion'>, wirePath: string): string {
  if (!p.apiVersion) return p.baseUrl + wirePath;
  return `${p.baseUrl}/${p.apiVersion}${wirePath.replace(/^\/v\d+(?:(?:alpha|beta)\d*)?(?=\/)/, '')}`;
}

// Which upstream providers can take calls, and how to reach them (D11): each provider's base URL
// and key from <PROVIDER>_BASE_URL / <PROVIDER>_API_KEY. When no provider is configured at all and
// a simulated upstream is running (`npm start`, tests), every provider points at its prefix on the
// simulator. A provider with neither is unconfigured: calls that can only go there get 503.
import type { Config } from '../../config.ts';
import { BRANDS, PROVIDER_KEYS, type ProviderKey } from '../../core/providers.ts';
import type { ClientShape } from '../../core/canonical/types.ts';

export interface ProviderEndpoint {
  key: ProviderKey;
  baseUrl: string;
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
      baseUrl: (p.baseUrl ?? DEFAULT_BASE_URL[key]).replace(/\/+$/, ''),
      // A local OpenAI-compatible server often needs no key; send a placeholder so the header exists.
      apiKey: p.apiKey ?? 'no-key',
      wire: BRANDS[key].wire,
      simulated: false,
    });
  }
  if (out.size === 0 && simUrl) {
    for (const key of PROVIDER_KEYS) {
      out.set(key, { key, baseUrl: `${simUrl.replace(/\/+$/, '')}/${key}`, apiKey: 'simulated', wire: BRANDS[key].wire, simulated: true });
    }
  }
  return out;
}

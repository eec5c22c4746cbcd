// The five upstream providers, which are also the five benchmark provider keys (D1).
// This is the brand registry; the price book (core/pricing) must list exactly the same keys.
import type { ClientShape } from './canonical/types.ts';

export const PROVIDER_KEYS = ['openai', 'anthropic', 'google', 'mistral', 'deepseek'] as const;
export type ProviderKey = (typeof PROVIDER_KEYS)[number];

export interface Brand {
  key: ProviderKey;
  /** Customer-facing brand name (locked vocabulary: the benchmark is always a brand). */
  name: string;
  /** The wire format the provider's API speaks. */
  wire: ClientShape;
}

export const BRANDS: Record<ProviderKey, Brand> = {
  openai: { key: 'openai', name: 'OpenAI', wire: 'openai' },
  anthropic: { key: 'anthropic', name: 'Anthropic', wire: 'anthropic' },
  google: { key: 'google', name: 'Google', wire: 'gemini' },
  mistral: { key: 'mistral', name: 'Mistral', wire: 'openai' },
  deepseek: { key: 'deepseek', name: 'DeepSeek', wire: 'openai' },
};

export const isProviderKey = (v: unknown): v is ProviderKey =>
  typeof v === 'string' && (PROVIDER_KEYS as readonly string[]).includes(v);

// The versioned price book (D7, D12): per provider, the routable models with their model class,
// input and output price per million tokens in integer USD micros, context window, capability
// tags and serving regions, plus one reference model per class used for benchmark pricing.
//
// Why a TypeScript module and not JSON: prices are bigint (D1: money is never a float), and a
// JSON file would need a parse step that could silently go through Number. A new price book is a
// new module with a new version string; ledger rows record the version they were priced with
// (spec §9), so an old version must stay importable for as long as its rows are audited.
// Prices are list prices as published by each vendor for the effective date, rounded to the micro.
import type { ProviderKey } from '../providers.ts';
import type { ModelClass } from '../model-class.ts';

export const CAPABILITIES = ['tools', 'json', 'vision', 'streaming'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** Region names start with a residency prefix ('us', 'eu', 'asia') so residency is a prefix test. */
export type Region = string;

export interface PricedModel {
  /** The upstream model id, unique across the whole book. */
  id: string;
  provider: ProviderKey;
  modelClass: ModelClass;
  /** USD micros per 1,000,000 input tokens. */
  inputMicrosPerMTok: bigint;
  /** USD micros per 1,000,000 output tokens. */
  outputMicrosPerMTok: bigint;
  contextWindow: number;
  /** The most output tokens one call can produce; caps worst-case reservations (D8). */
  maxOutputTokens: number;
  capabilities: readonly Capability[];
  regions: readonly Region[];
}

export interface ProviderPriceList {
  provider: ProviderKey;
  models: readonly PricedModel[];
  /** The model each class is benchmarked against (D7: same class at the benchmark's prices). */
  reference: Readonly<Record<ModelClass, string>>;
}

export interface PriceBook {
  version: string;
  /** ISO date from which these prices apply. */
  effectiveFrom: string;
  providers: Readonly<Record<string, ProviderPriceList>>;
}

const ALL: readonly Capability[] = ['tools', 'json', 'vision', 'streaming'];
const TEXT_ONLY: readonly Capability[] = ['tools', 'json', 'streaming'];

const OPENAI_REGIONS = ['us-east', 'us-west', 'eu-west'] as const;
const ANTHROPIC_REGIONS = ['us-east', 'us-west', 'eu-central'] as const;
const GOOGLE_REGIONS = ['us-central', 'eu-west', 'asia-southeast'] as const;
const MISTRAL_REGIONS = ['eu-west', 'eu-central', 'us-east'] as const;
const DEEPSEEK_REGIONS = ['asia-east'] as const;

function m(
  provider: ProviderKey,
  id: string,
  modelClass: ModelClass,
  inputMicrosPerMTok: bigint,
  outputMicrosPerMTok: bigint,
  contextWindow: number,
  maxOutputTokens: number,
  capabilities: readonly Capability[],
  regions: readonly Region[],
): PricedModel {
  return {
    id,
    provider,
    modelClass,
    inputMicrosPerMTok,
    outputMicrosPerMTok,
    contextWindow,
    maxOutputTokens,
    capabilities,
    regions,
  };
}

export const PRICE_BOOK_VERSION = 'pb-2026-11-01';

export const PRICE_BOOK: PriceBook = {
  version: PRICE_BOOK_VERSION,
  effectiveFrom: '2026-11-01',
  providers: {
    openai: {
      provider: 'openai',
      models: [
        m('openai', 'gpt-4.1-nano', 'economy', 100_000n, 400_000n, 1_047_576, 32_768, ALL, OPENAI_REGIONS),
        m('openai', 'gpt-4o-mini', 'economy', 150_000n, 600_000n, 128_000, 16_384, ALL, OPENAI_REGIONS),
        m('openai', 'gpt-4.1-mini', 'standard', 400_000n, 1_600_000n, 1_047_576, 32_768, ALL, OPENAI_REGIONS),
        m('openai', 'o4-mini', 'standard', 1_100_000n, 4_400_000n, 200_000, 100_000, ALL, OPENAI_REGIONS),
        m('openai', 'gpt-4.1', 'premium', 2_000_000n, 8_000_000n, 1_047_576, 32_768, ALL, OPENAI_REGIONS),
        m('openai', 'gpt-4o', 'premium', 2_500_000n, 10_000_000n, 128_000, 16_384, ALL, OPENAI_REGIONS),
        m('openai', 'o3', 'frontier', 10_000_000n, 40_000_000n, 200_000, 100_000, ALL, OPENAI_REGIONS),
      ],
      reference: { economy: 'gpt-4o-mini', standard: 'gpt-4.1-mini', premium: 'gpt-4.1', frontier: 'o3' },
    },
    anthropic: {
      provider: 'anthropic',
      models: [
        m('anthropic', 'claude-3-5-haiku', 'economy', 800_000n, 4_000_000n, 200_000, 8_192, ALL, ANTHROPIC_REGIONS),
        m('anthropic', 'claude-haiku-4-5', 'standard', 1_000_000n, 5_000_000n, 200_000, 64_000, ALL, ANTHROPIC_REGIONS),
        m('anthropic', 'claude-sonnet-4', 'premium', 3_000_000n, 15_000_000n, 200_000, 64_000, ALL, ANTHROPIC_REGIONS),
        m('anthropic', 'claude-sonnet-4-5', 'premium', 3_000_000n, 15_000_000n, 200_000, 64_000, ALL, ANTHROPIC_REGIONS),
        m('anthropic', 'claude-opus-4-1', 'frontier', 15_000_000n, 75_000_000n, 200_000, 32_000, ALL, ANTHROPIC_REGIONS),
      ],
      reference: {
        economy: 'claude-3-5-haiku',
        standard: 'claude-haiku-4-5',
        premium: 'claude-sonnet-4-5',
        frontier: 'claude-opus-4-1',
      },
    },
    google: {
      provider: 'google',
      models: [
        m('google', 'gemini-2.0-flash-lite', 'economy', 75_000n, 300_000n, 1_048_576, 8_192, ALL, GOOGLE_REGIONS),
        m('google', 'gemini-2.5-flash-lite', 'economy', 100_000n, 400_000n, 1_048_576, 65_536, ALL, GOOGLE_REGIONS),
        m('google', 'gemini-2.5-flash', 'standard', 300_000n, 2_500_000n, 1_048_576, 65_536, ALL, GOOGLE_REGIONS),
        m('google', 'gemini-2.5-pro', 'premium', 1_250_000n, 10_000_000n, 1_048_576, 65_536, ALL, GOOGLE_REGIONS),
        m('google', 'gemini-3-pro', 'frontier', 2_000_000n, 12_000_000n, 1_048_576, 65_536, ALL, GOOGLE_REGIONS),
      ],
      reference: {
        economy: 'gemini-2.5-flash-lite',
        standard: 'gemini-2.5-flash',
        premium: 'gemini-2.5-pro',
        frontier: 'gemini-3-pro',
      },
    },
    mistral: {
      provider: 'mistral',
      models: [
        m('mistral', 'ministral-8b', 'economy', 100_000n, 100_000n, 128_000, 8_192, TEXT_ONLY, MISTRAL_REGIONS),
        m('mistral', 'mistral-small', 'economy', 100_000n, 300_000n, 128_000, 8_192, ALL, MISTRAL_REGIONS),
        m('mistral', 'codestral', 'standard', 300_000n, 900_000n, 256_000, 8_192, TEXT_ONLY, MISTRAL_REGIONS),
        m('mistral', 'mistral-medium', 'standard', 400_000n, 2_000_000n, 128_000, 8_192, ALL, MISTRAL_REGIONS),
        m('mistral', 'mistral-large', 'premium', 2_000_000n, 6_000_000n, 128_000, 8_192, ALL, MISTRAL_REGIONS),
        m('mistral', 'magistral-medium', 'frontier', 2_000_000n, 5_000_000n, 128_000, 40_000, TEXT_ONLY, MISTRAL_REGIONS),
      ],
      reference: {
        economy: 'mistral-small',
        standard: 'mistral-medium',
        premium: 'mistral-large',
        frontier: 'magistral-medium',
      },
    },
    deepseek: {
      provider: 'deepseek',
      models: [
        m('deepseek', 'deepseek-v3.2-lite', 'economy', 70_000n, 280_000n, 128_000, 8_192, TEXT_ONLY, DEEPSEEK_REGIONS),
        m('deepseek', 'deepseek-chat', 'standard', 270_000n, 1_100_000n, 128_000, 8_192, TEXT_ONLY, DEEPSEEK_REGIONS),
        m('deepseek', 'deepseek-reasoner', 'premium', 550_000n, 2_190_000n, 128_000, 64_000, TEXT_ONLY, DEEPSEEK_REGIONS),
        m('deepseek', 'deepseek-reasoner-max', 'frontier', 1_100_000n, 4_380_000n, 128_000, 64_000, TEXT_ONLY, DEEPSEEK_REGIONS),
      ],
      reference: {
        economy: 'deepseek-v3.2-lite',
        standard: 'deepseek-chat',
        premium: 'deepseek-reasoner',
        frontier: 'deepseek-reasoner-max',
      },
    },
  },
};

/** Every model of a book, in provider then listing order (deterministic). */
export function allModels(book: PriceBook = PRICE_BOOK): PricedModel[] {
  const out: PricedModel[] = [];
  for (const key of Object.keys(book.providers)) out.push(...book.providers[key].models);
  return out;
}

/** Model lookup by upstream id; undefined when the book does not list it. */
export function findModel(id: string, book: PriceBook = PRICE_BOOK): PricedModel | undefined {
  for (const key of Object.keys(book.providers)) {
    for (const model of book.providers[key].models) if (model.id === id) return model;
  }
  return undefined;
}

/** The benchmark reference model of `provider` for `modelClass` (D7), or undefined if missing. */
export function referenceModel(
  provider: string,
  modelClass: ModelClass,
  book: PriceBook = PRICE_BOOK,
): PricedModel | undefined {
  const list = book.providers[provider];
  if (!list) return undefined;
  const id = list.reference[modelClass];
  return list.models.find((x) => x.id === id);
}

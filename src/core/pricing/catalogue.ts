// Public projection of the price book for GET /v1/models and the Model Marketplace (spec §1
// /developer-zone): per brand, each routable model's class, capability tags, context window and
// per-token pricing. Internals stay out: serving regions, reference-model flags and anything
// health- or routing-related. Prices are decimal strings because bigint is a string at the edge (D1).
import { formatMicrosAsUsd } from './cost.ts';
import { PRICE_BOOK, type Capability, type PriceBook } from './price-book.ts';
import type { ModelClass } from '../model-class.ts';

export interface CatalogueModel {
  id: string;
  modelClass: ModelClass;
  capabilities: Capability[];
  contextWindow: number;
  /** Integer USD micros per million tokens, as a decimal string. */
  inputMicrosPerMillionTokens: string;
  outputMicrosPerMillionTokens: string;
  /** The same prices in USD per million tokens ("0.15"), exact decimals. */
  inputUsdPerMillionTokens: string;
  outputUsdPerMillionTokens: string;
}

export interface CatalogueBrand {
  provider: string;
  brand: string;
  models: CatalogueModel[];
}

export interface Catalogue {
  pricingVersion: string;
  brands: CatalogueBrand[];
}

/** Brands in registry order; models in price-book order. A brand missing from the book is skipped. */
export function publicCatalogue(
  brands: Readonly<Record<string, { key: string; name: string }>>,
  book: PriceBook = PRICE_BOOK,
): Catalogue {
  const out: CatalogueBrand[] = [];
  for (const key of Object.keys(brands)) {
    const list = book.providers[key];
    if (!list) continue;
    out.push({
      provider: key,
      brand: brands[key].name,
      models: list.models.map((x) => ({
        id: x.id,
        modelClass: x.modelClass,
        capabilities: [...x.capabilities],
        contextWindow: x.contextWindow,
        inputMicrosPerMillionTokens: x.inputMicrosPerMTok.toString(),
        outputMicrosPerMillionTokens: x.outputMicrosPerMTok.toString(),
        inputUsdPerMillionTokens: formatMicrosAsUsd(x.inputMicrosPerMTok),
        outputUsdPerMillionTokens: formatMicrosAsUsd(x.outputMicrosPerMTok),
      })),
    });
  }
  return { pricingVersion: book.version, brands: out };
}

/** Prices of one model or one brand's reference for a class, in micros and in USD per million tokens. */
const prices = (x: { inputMicrosPerMTok: bigint; outputMicrosPerMTok: bigint }) => ({
  inputMicrosPerMillionTokens: x.inputMicrosPerMTok.toString(),
  outputMicrosPerMillionTokens: x.outputMicrosPerMTok.toString(),
  inputUsdPerMillionTokens: formatMicrosAsUsd(x.inputMicrosPerMTok),
  outputUsdPerMillionTokens: formatMicrosAsUsd(x.outputMicrosPerMTok),
});

/**
 * The Model Marketplace (D13, GET /api/models/catalogue): every routable model (its provider is
 * configured in this deployment) with class, capability tags, context window, regions and
 * per-million-token prices, and every benchmark brand's reference prices per class (what savings
 * are measured against). Filters narrow the models; the brands' references are always all there.
 */
export function marketplace(
  brands: Readonly<Record<string, { key: string; name: string }>>,
  routable: (provider: string) => boolean,
  filter: { provider?: string; modelClass?: ModelClass; capability?: Capability } = {},
  book: PriceBook = PRICE_BOOK,
) {
  const models = [];
  const benchmarks = [];
  for (const key of Object.keys(brands)) {
    const list = book.providers[key];
    if (!list) continue;
    const references = (Object.keys(list.reference) as ModelClass[]).map((c) => {
      const ref = list.models.find((x) => x.id === list.reference[c]);
      return ref ? { modelClass: c, ...prices(ref) } : null;
    });
    benchmarks.push({ provider: key, brand: brands[key].name, routable: routable(key), references: references.filter((r) => r !== null) });
    if (!routable(key) || (filter.provider && filter.provider !== key)) continue;
    for (const x of list.models) {
      if (filter.modelClass && x.modelClass !== filter.modelClass) continue;
      if (filter.capability && !x.capabilities.includes(filter.capability)) continue;
      models.push({
        id: x.id,
        provider: key,
        brand: brands[key].name,
        modelClass: x.modelClass,
        capabilities: [...x.capabilities],
        contextWindow: x.contextWindow,
        maxOutputTokens: x.maxOutputTokens,
        regions: [...x.regions],
        ...prices(x),
      });
    }
  }
  return { pricingVersion: book.version, effectiveFrom: book.effectiveFrom, models, benchmarks };
}

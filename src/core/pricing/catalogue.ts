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

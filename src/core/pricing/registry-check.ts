// Start-up check for spec §1 rule 4 and D7: the brand registry and the price book must list
// exactly the same five providers, and each provider must name a reference model for every model
// class, otherwise benchmark pricing (savings) would be undefined for some tenant's choice.
// It also checks the book's internal consistency, because a reference id that points at a missing
// or wrongly classed model is the same failure in disguise.
import { fail, ok, type Result } from '../canonical/types.ts';
import { PROVIDER_KEYS } from '../providers.ts';
import { MODEL_CLASSES } from '../model-class.ts';
import type { PriceBook } from './price-book.ts';

export type RegistryCheckCode = 'REGISTRY_MISMATCH' | 'MISSING_REFERENCE_MODEL' | 'INVALID_PRICE_BOOK';

export interface RegistryReport {
  pricingVersion: string;
  providers: string[];
  models: number;
}

interface Problem {
  code: RegistryCheckCode;
  message: string;
}

/**
 * Fails with the first problem's code and a message listing every problem found, so one start-up
 * failure shows the whole repair list.
 */
export function checkRegistry(
  brands: Readonly<Record<string, { key: string }>>,
  priceBook: PriceBook,
): Result<RegistryReport, RegistryCheckCode> {
  const problems: Problem[] = [];
  const brandKeys = Object.keys(brands).sort();
  const bookKeys = Object.keys(priceBook.providers).sort();
  const expected = PROVIDER_KEYS.length;

  if (brandKeys.length !== expected || bookKeys.length !== expected) {
    problems.push({
      code: 'REGISTRY_MISMATCH',
      message: `expected ${expected} providers, brand registry has ${brandKeys.length}, price book ${priceBook.version} has ${bookKeys.length}`,
    });
  }
  for (const k of brandKeys) {
    if (!bookKeys.includes(k)) problems.push({ code: 'REGISTRY_MISMATCH', message: `brand ${k} is missing from price book ${priceBook.version}` });
    if (brands[k].key !== k) problems.push({ code: 'REGISTRY_MISMATCH', message: `brand registered under ${k} carries key ${brands[k].key}` });
  }
  for (const k of bookKeys) {
    if (!brandKeys.includes(k)) problems.push({ code: 'REGISTRY_MISMATCH', message: `price book provider ${k} is missing from the brand registry` });
  }

  const seenIds = new Set<string>();
  let models = 0;
  for (const k of bookKeys) {
    const list = priceBook.providers[k];
    if (list.provider !== k) problems.push({ code: 'INVALID_PRICE_BOOK', message: `price list under ${k} names provider ${list.provider}` });
    for (const model of list.models) {
      models++;
      if (seenIds.has(model.id)) problems.push({ code: 'INVALID_PRICE_BOOK', message: `model id ${model.id} is listed twice` });
      seenIds.add(model.id);
      if (model.provider !== k) problems.push({ code: 'INVALID_PRICE_BOOK', message: `model ${model.id} under ${k} names provider ${model.provider}` });
      if (model.inputMicrosPerMTok < 0n || model.outputMicrosPerMTok < 0n) {
        problems.push({ code: 'INVALID_PRICE_BOOK', message: `model ${model.id} has a negative price` });
      }
      if (model.regions.length === 0) problems.push({ code: 'INVALID_PRICE_BOOK', message: `model ${model.id} has no region` });
    }
    for (const c of MODEL_CLASSES) {
      const id = list.reference?.[c];
      if (!id) {
        problems.push({ code: 'MISSING_REFERENCE_MODEL', message: `${k} names no ${c} reference model` });
        continue;
      }
      const model = list.models.find((x) => x.id === id);
      if (!model) problems.push({ code: 'MISSING_REFERENCE_MODEL', message: `${k} ${c} reference ${id} is not among its models` });
      else if (model.modelClass !== c) {
        problems.push({ code: 'MISSING_REFERENCE_MODEL', message: `${k} ${c} reference ${id} is a ${model.modelClass} model` });
      }
    }
  }

  if (problems.length > 0) return fail(problems[0].code, problems.map((p) => p.message).join('; '));
  return ok({ pricingVersion: priceBook.version, providers: bookKeys, models });
}

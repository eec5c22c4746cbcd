// Exact cost and savings arithmetic (D1, D7, D8). Every amount is a bigint count of USD micros;
// token counts arrive as plain numbers (they are counts) and are converted once, after checking
// they are non-negative safe integers, so no float ever touches a sum.
//
// Rounding rule: a call's cost is ceil((inputTokens × inputPrice + outputTokens × outputPrice)
// / 1,000,000) micros, rounded once on the sum, not per component. Rounding up means the wallet
// never under-charges by a fraction of a micro, and rounding once keeps actual and baseline costs
// comparable (both carry at most one sub-micro of upward error).
import type { CanonicalRequest, Usage } from '../canonical/types.ts';
import { estimateInputTokens } from './estimate.ts';
import type { ProviderKey } from '../providers.ts';
import type { ModelClass } from '../model-class.ts';
import { PRICE_BOOK, findModel, referenceModel, type PriceBook, type PricedModel } from './price-book.ts';

export const SAVINGS_METHODOLOGY_VERSION = 'sav-v1';

const MILLION = 1_000_000n;

/** The two prices cost math needs; a full PricedModel satisfies it. */
export type Prices = Pick<PricedModel, 'inputMicrosPerMTok' | 'outputMicrosPerMTok'>;

function tokenCount(n: number, what: string): bigint {
  // A negative, fractional or unsafe count is a bug upstream of pricing, not an expected failure.
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative integer, got ${n}`);
  return BigInt(n);
}

/** ceil(n / d) for n >= 0, d > 0. */
function divCeil(n: bigint, d: bigint): bigint {
  return (n + d - 1n) / d;
}

/** Cost of one call in USD micros, rounded up once on the sum (see module header). */
export function costMicros(model: Prices, usage: Usage): bigint {
  const input = tokenCount(usage.inputTokens, 'inputTokens');
  const output = tokenCount(usage.outputTokens, 'outputTokens');
  return divCeil(input * model.inputMicrosPerMTok + output * model.outputMicrosPerMTok, MILLION);
}

/**
 * The most a call can cost, for the wallet reservation taken before going upstream (D8). The
 * output side is capped at the model's own output limit when the book knows it: the provider
 * cannot produce more, so reserving beyond it would only refuse calls the wallet could afford.
 */
export function worstCaseCostMicros(
  model: Prices & { maxOutputTokens?: number },
  inputTokens: number,
  maxOutputTokens: number,
): bigint {
  tokenCount(maxOutputTokens, 'maxOutputTokens');
  const cap = model.maxOutputTokens;
  const output = cap !== undefined && cap < maxOutputTokens ? cap : maxOutputTokens;
  return costMicros(model, { inputTokens, outputTokens: output });
}

/**
 * The reservation for a request on a model (D8): estimated input plus the client's max_tokens,
 * or the model's own output limit when the client set none.
 */
export function reservationMicros(model: PricedModel, req: CanonicalRequest): bigint {
  return worstCaseCostMicros(model, estimateInputTokens(req), req.maxTokens ?? model.maxOutputTokens);
}

/** n / d rounded to the nearest integer, halves away from zero; d > 0. */
function divRoundHalfAway(n: bigint, d: bigint): bigint {
  const negative = n < 0n;
  const a = negative ? -n : n;
  const q = (2n * a + d) / (2n * d);
  return negative ? -q : q;
}

export interface SavingsInput {
  /** The delivered model, or its id in the price book. */
  actualModel: PricedModel | string;
  /** The tenant's (or project's) benchmark provider at call time; null when none is chosen. */
  benchmarkProvider: ProviderKey | null;
  /** The class whose reference model is the baseline (the delivered model's class, D7). */
  modelClass: ModelClass;
  usage: Usage;
}

export interface Savings {
  actualCostMicros: bigint;
  /** Cost at the benchmark's reference model for the class; null with no benchmark. */
  baselineCostMicros: bigint | null;
  /** baseline − actual; negative when the delivered model cost more than the benchmark. */
  tokensSavedMicros: bigint | null;
  /**
   * tokensSaved / baseline in basis points (10000 = 100 %), rounded to nearest with halves away
   * from zero. Null with no benchmark and also when the baseline is 0 (no tokens: the ratio is
   * undefined, and D7 forbids showing a fabricated 0 %).
   */
  percentSavedBps: bigint | null;
  methodologyVersion: typeof SAVINGS_METHODOLOGY_VERSION;
  pricingVersion: string;
}

/**
 * Savings of one call against the benchmark provider (D7). Throws on a model id or benchmark the
 * book does not know: both come from the book itself (routing and the registry check), so a miss
 * is a programming error, not a customer-facing condition.
 */
export function savings(input: SavingsInput, book: PriceBook = PRICE_BOOK): Savings {
  const actual = typeof input.actualModel === 'string' ? findModel(input.actualModel, book) : input.actualModel;
  if (!actual) throw new RangeError(`model ${String(input.actualModel)} is not in price book ${book.version}`);
  const actualCostMicros = costMicros(actual, input.usage);
  // Both results spelled out (same keys, same order) rather than `{ ...base, … }`: on Node 20 a
  // spread followed by more properties takes V8's slow path, several µs per call (every settlement).
  if (input.benchmarkProvider === null) {
    return {
      actualCostMicros,
      methodologyVersion: SAVINGS_METHODOLOGY_VERSION,
      pricingVersion: book.version,
      baselineCostMicros: null,
      tokensSavedMicros: null,
      percentSavedBps: null,
    };
  }
  const reference = referenceModel(input.benchmarkProvider, input.modelClass, book);
  if (!reference) {
    throw new RangeError(
      `price book ${book.version} has no ${input.modelClass} reference model for ${input.benchmarkProvider}`,
    );
  }
  const baselineCostMicros = costMicros(reference, input.usage);
  const tokensSavedMicros = baselineCostMicros - actualCostMicros;
  const percentSavedBps =
    baselineCostMicros === 0n ? null : divRoundHalfAway(tokensSavedMicros * 10_000n, baselineCostMicros);
  return {
    actualCostMicros,
    methodologyVersion: SAVINGS_METHODOLOGY_VERSION,
    pricingVersion: book.version,
    baselineCostMicros,
    tokensSavedMicros,
    percentSavedBps,
  };
}

/**
 * USD micros as a plain decimal string ("0.15", "-2.5", "3"), for the edge and the catalogue.
 * Pure bigint formatting: going through Number would lose precision above 2^53 micros.
 */
export function formatMicrosAsUsd(micros: bigint): string {
  const negative = micros < 0n;
  const a = negative ? -micros : micros;
  const whole = a / MILLION;
  const frac = (a % MILLION).toString().padStart(6, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

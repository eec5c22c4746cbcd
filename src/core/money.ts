// Money at the edges (D1): 1 wallet token = 1 USD micro, every amount a bigint. These helpers
// format and bound amounts without ever passing through a JS number.

export const MICROS_PER_USD = 1_000_000n;
/** A payment is always in whole cents: 1 cent = 10,000 micros. */
export const MICROS_PER_CENT = 10_000n;

/** Top-up bounds (both inclusive): $1 and $10,000. */
export const TOPUP_MIN_MICROS = 1_000_000n;
export const TOPUP_MAX_MICROS = 10_000_000_000n;

export const isWholeCents = (micros: bigint): boolean => micros % MICROS_PER_CENT === 0n;

/**
 * USD with exactly two decimals ("10.00", "0.05"), truncated toward zero: a balance is never shown
 * as more money than it is.
 */
export function formatUsd2(micros: bigint): string {
  const negative = micros < 0n;
  const a = negative ? -micros : micros;
  const cents = a / MICROS_PER_CENT;
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  return `${negative && cents > 0n ? '-' : ''}${whole}.${frac}`;
}

/** The first day of `at`'s calendar month in UTC, as 'YYYY-MM-01' (the budget window, D8). */
export function monthStartUtc(at: Date): string {
  return `${at.getUTCFullYear().toString().padStart(4, '0')}-${(at.getUTCMonth() + 1).toString().padStart(2, '0')}-01`;
}

/** JSON.stringify for values that may hold bigints (as decimal strings), for jsonb columns. */
export function jsonWithBigints(v: unknown): string {
  // Most values hold no bigint: plain JSON.stringify is several times faster than with a replacer,
  // and throws a TypeError on a bigint, which sends the value down the replacer path.
  try {
    return JSON.stringify(v) ?? 'null';
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? 'null';
  }
}

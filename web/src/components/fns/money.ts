// Money and token amounts on screen, from the API's integer strings (D1, D13): BigInt only, never
// float arithmetic on an amount. 1 wallet token = 1 USD micro.
import { formatUsd2 } from '../../../../src/core/money.ts';

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** "1,234,567"; a minus sign (U+2212) for negatives. */
export function formatTokens(micros: string | bigint): string {
  const v = BigInt(micros);
  const s = group((v < 0n ? -v : v).toString());
  return v < 0n ? `−${s}` : s;
}

/** "$1,234.56", truncated toward zero to the cent (never shows more money than there is). */
export function formatUsd(micros: string | bigint): string {
  const s = formatUsd2(BigInt(micros));
  const neg = s.startsWith('-');
  const [whole, frac] = (neg ? s.slice(1) : s).split('.');
  return `${neg ? '−' : ''}$${group(whole)}.${frac}`;
}

/**
 * What one call or charge cost, in dollars: like formatUsd, except that a positive amount under a
 * cent reads "< $0.01" — truncated to "$0.00" it would read as free, and it was charged.
 */
export function formatCostUsd(micros: string | bigint): string {
  const v = BigInt(micros);
  return v > 0n && v < 10_000n ? '< $0.01' : formatUsd(v);
}

/**
 * A cost in tokens restated in dollars beside it: "≈ $1.23", or "< $0.01" for a positive amount
 * under a cent (no "≈": it is exact, and "≈ $0.00" would read as free).
 */
export function approxCostUsd(micros: string | bigint): string {
  const s = formatCostUsd(micros);
  return s.startsWith('<') ? s : `≈ ${s}`;
}

/** A signed delta: "+1,234" or "−1,234" or "0". */
export function formatDelta(micros: string | bigint): string {
  const v = BigInt(micros);
  return v > 0n ? `+${formatTokens(v)}` : formatTokens(v);
}

/** Basis points as a percentage with two decimals: "1234" → "12.34 %". */
export function formatBps(bps: string | bigint): string {
  const v = BigInt(bps);
  const a = v < 0n ? -v : v;
  return `${v < 0n ? '−' : ''}${group((a / 100n).toString())}.${(a % 100n).toString().padStart(2, '0')} %`;
}

/**
 * A dollar amount typed by a person ("25", "25.5", "1,000.50") to micros, or null when it is not
 * a plain amount with at most two decimals. Parsed as text, never through a float.
 */
export function usdToMicros(input: string): string | null {
  const t = input.trim().replace(/^\$/, '').replace(/,/g, '');
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(t);
  if (!m) return null;
  return (BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(2, '0')) * 10_000n).toString();
}

/** Runway in days for a tile: "12.3 days", or null when there is no burn to divide by. */
export function formatRunway(days: number | null): string | null {
  if (days === null) return null;
  if (days >= 3650) return 'over 10 years';
  return `${days.toFixed(1)} days`;
}

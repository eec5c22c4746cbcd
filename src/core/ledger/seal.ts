// Ledger sealing (spec §2 Ledger entry, D8): seal = HMAC-SHA256(secret, prevHash || RFC 8785
// canonical JSON of the payload), lowercase hex; the first row's prevHash is 64 zeros. Verifying
// recomputes the HMAC — not a plain SHA-256, the known fault of the reference implementation.
import { createHmac, timingSafeEqual } from 'node:crypto';
import canonicalize from 'canonicalize';

export const GENESIS_HASH = '0'.repeat(64);

export const CUSTOMER_LABELS = {
  WALLET_TOPUP: 'Top-up',
  AI_USAGE: 'AI usage',
  REFUND: 'Refund',
  ADJUSTMENT: 'Adjustment',
} as const;

/** Every sealed column of a ledger entry. Amounts are bigint; they are sealed as decimal strings. */
export interface LedgerPayload {
  id: string;
  tenantId: string;
  projectId: string | null;
  eventType: keyof typeof CUSTOMER_LABELS;
  amountMicros: bigint;
  balanceAfterMicros: bigint;
  modelId: string | null;
  providerKey: string | null;
  benchmarkProvider: string | null;
  benchmarkMethodologyVersion: string | null;
  actualCostUsdMicros: bigint | null;
  baselineCostUsdMicros: bigint | null;
  benchmarkPricingVersion: string | null;
  createdAt: string;
}

/** RFC 8785 has no bigint: amounts become decimal strings first, so no precision is ever lost. */
function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, jsonSafe(x)]));
  }
  return v;
}

export function canonicalJson(value: unknown): string {
  const out = (canonicalize as unknown as (v: unknown) => string | undefined)(jsonSafe(value));
  if (out === undefined) throw new Error('value cannot be canonicalised');
  return out;
}

export function seal(secret: string | Buffer, prevHash: string, payload: object): string {
  return createHmac('sha256', secret).update(prevHash).update(canonicalJson(payload)).digest('hex');
}

export function timingSafeEqualHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

export interface ChainRow {
  id: string;
  prevHash: string;
  sealHash: string;
  payload: object;
}

export interface ChainVerdict {
  verified: boolean;
  firstBroken: string | null;
  checked: number;
}

/**
 * Walk rows in chain order: each row must link to the previous row's seal and its own seal must
 * be the HMAC of (prevHash || canonical payload). The first row that fails either test is named.
 */
export function verifyChain(rows: Iterable<ChainRow>, secret: string | Buffer, startPrevHash = GENESIS_HASH): ChainVerdict {
  let prev = startPrevHash;
  let checked = 0;
  for (const r of rows) {
    checked += 1;
    const expected = seal(secret, prev, r.payload);
    if (r.prevHash !== prev || !timingSafeEqualHex(expected, r.sealHash)) {
      return { verified: false, firstBroken: r.id, checked };
    }
    prev = r.sealHash;
  }
  return { verified: true, firstBroken: null, checked };
}

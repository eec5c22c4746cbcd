// The sealed part of a ledger entry (spec §2 "Ledger entry", D8). Every column that is part of the
// seal is listed here and nowhere else; customerLabel is derived from eventType (so it is not
// sealed separately), and sealHash / prevHash are the seal itself.
import { fail, ok, type Result } from '../canonical/types.ts';

export const LEDGER_EVENT_TYPES = ['WALLET_TOPUP', 'AI_USAGE', 'REFUND', 'ADJUSTMENT'] as const;
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** Customer-facing label per internal event type (spec §2; customers never see the codes). */
export const CUSTOMER_LABELS: Readonly<Record<LedgerEventType, string>> = {
  WALLET_TOPUP: 'Top-up',
  AI_USAGE: 'AI usage',
  REFUND: 'Refund',
  ADJUSTMENT: 'Adjustment',
};

export interface LedgerPayload {
  id: string;
  tenantId: string;
  /** Null for tenant-wide events such as top-ups. */
  projectId: string | null;
  eventType: LedgerEventType;
  /** Signed: negative = debit, positive = credit. */
  amountMicros: bigint;
  balanceAfterMicros: bigint;
  modelId: string | null;
  providerKey: string | null;
  benchmarkProvider: string | null;
  benchmarkMethodologyVersion: string | null;
  actualCostUsdMicros: bigint | null;
  baselineCostUsdMicros: bigint | null;
  benchmarkPricingVersion: string | null;
  /** ISO 8601 UTC with milliseconds, exactly as sealed (see CREATED_AT_FORMAT). */
  createdAt: string;
}

/** A stored row: the payload plus its seal. Extra columns (customerLabel, …) are ignored by the seal. */
export type SealedLedgerRow = LedgerPayload & { prevHash: string; sealHash: string };

export const SEALED_COLUMNS = [
  'id',
  'tenantId',
  'projectId',
  'eventType',
  'amountMicros',
  'balanceAfterMicros',
  'modelId',
  'providerKey',
  'benchmarkProvider',
  'benchmarkMethodologyVersion',
  'actualCostUsdMicros',
  'baselineCostUsdMicros',
  'benchmarkPricingVersion',
  'createdAt',
] as const satisfies ReadonlyArray<keyof LedgerPayload>;

const NULLABLE = new Set<keyof LedgerPayload>([
  'projectId',
  'modelId',
  'providerKey',
  'benchmarkProvider',
  'benchmarkMethodologyVersion',
  'actualCostUsdMicros',
  'baselineCostUsdMicros',
  'benchmarkPricingVersion',
]);

/**
 * Exactly the sealed columns of a row, with a missing nullable column read as null. Sealing and
 * verifying both go through this, so a store that drops a null column, or adds a column, cannot
 * change the canonical form and raise a false tamper alarm.
 */
export function ledgerPayloadOf(row: LedgerPayload): LedgerPayload {
  const out = {} as Record<keyof LedgerPayload, unknown>;
  for (const k of SEALED_COLUMNS) {
    const v = (row as unknown as Record<string, unknown>)[k];
    out[k] = v === undefined && NULLABLE.has(k) ? null : v;
  }
  return out as unknown as LedgerPayload;
}

/** The sealed columns in RFC 8785 order (UTF-16 code units, as Array#sort), each with its key as JSON. */
const CANONICAL_ORDER: ReadonlyArray<readonly [keyof LedgerPayload, string]> = [...SEALED_COLUMNS].sort().map((k) => [k, `${JSON.stringify(k)}:`] as const);

/**
 * canonicalJson(ledgerPayloadOf(row)), built directly, for a row whose sealed columns are all
 * strings, bigints or null (a missing nullable column read as null): every row the product writes.
 * Same bytes as the general path (RFC 8785 via `canonicalize`: keys sorted, strings as
 * JSON.stringify writes them, a bigint as its decimal string); seal.test.ts compares the two on
 * random rows. Any other value gives undefined, and the caller takes the general path.
 */
export function canonicalLedgerPayload(row: LedgerPayload): string | undefined {
  const r = row as unknown as Record<string, unknown>;
  let out = '{';
  for (let i = 0; i < CANONICAL_ORDER.length; i++) {
    const [k, key] = CANONICAL_ORDER[i];
    const v = r[k];
    let text: string;
    if (typeof v === 'string') text = JSON.stringify(v);
    else if (typeof v === 'bigint') text = `"${v}"`;
    else if (v === null || (v === undefined && NULLABLE.has(k))) text = 'null';
    else return undefined;
    out += i === 0 ? key + text : `,${key}${text}`;
  }
  return `${out}}`;
}

/**
 * The timestamp form the seal expects: what Date#toISOString produces (UTC, milliseconds, 'Z').
 * A store must give createdAt back in this exact form (keep the sealed string, or re-render a
 * millisecond-precision timestamptz with toISOString), or the seal cannot be recomputed.
 */
export const CREATED_AT_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type LedgerPayloadIssue = 'INVALID_LEDGER_PAYLOAD';

/** Checks types and the sign rules before a payload is sealed; an invalid row must never be sealed. */
export function validateLedgerPayload(p: LedgerPayload): Result<LedgerPayload, LedgerPayloadIssue> {
  const bad = (field: string, message: string) => fail('INVALID_LEDGER_PAYLOAD' as const, message, field);
  if (typeof p.id !== 'string' || p.id === '') return bad('id', 'id is required');
  if (typeof p.tenantId !== 'string' || p.tenantId === '') return bad('tenantId', 'tenantId is required');
  if (!(LEDGER_EVENT_TYPES as readonly string[]).includes(p.eventType)) return bad('eventType', `unknown event type ${p.eventType}`);
  if (typeof p.amountMicros !== 'bigint') return bad('amountMicros', 'amountMicros must be a bigint');
  if (typeof p.balanceAfterMicros !== 'bigint') return bad('balanceAfterMicros', 'balanceAfterMicros must be a bigint');
  for (const k of ['actualCostUsdMicros', 'baselineCostUsdMicros'] as const) {
    const v = p[k];
    if (v !== null && v !== undefined && typeof v !== 'bigint') return bad(k, `${k} must be a bigint or null`);
  }
  if (typeof p.createdAt !== 'string' || !CREATED_AT_FORMAT.test(p.createdAt) || Number.isNaN(Date.parse(p.createdAt))) {
    return bad('createdAt', 'createdAt must be an ISO 8601 UTC timestamp with milliseconds');
  }
  if (p.eventType === 'AI_USAGE' && p.amountMicros > 0n) return bad('amountMicros', 'AI usage is a debit (amount <= 0)');
  if (p.eventType === 'WALLET_TOPUP' && p.amountMicros <= 0n) return bad('amountMicros', 'Top-up is a credit (amount > 0)');
  // A refund returns a top-up's money to the payer's card: it leaves the wallet.
  if (p.eventType === 'REFUND' && p.amountMicros >= 0n) return bad('amountMicros', 'Refund is a debit (amount < 0)');
  if (p.eventType === 'ADJUSTMENT' && p.amountMicros === 0n) return bad('amountMicros', 'An adjustment moves money (amount != 0)');
  return ok(p);
}

// Ledger sealing and verification (spec §2 rules 1–2, D8): one HMAC chain per tenant,
// seal = lowercase hex HMAC-SHA256(secret, prevHash || canonicalJSON(payload)), first prevHash =
// 64 zeros. Verification recomputes the HMAC with the server secret: a plain SHA-256 over the
// same bytes (the fault in the spec's reference implementation) would let anyone who can write
// rows forge a consistent chain, because SHA-256 needs no secret.
// node:crypto is computation, not I/O, so it belongs in the core.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { canonicalLedgerPayload, ledgerPayloadOf, type LedgerPayload, type SealedLedgerRow } from './payload.ts';

export const GENESIS_HASH = '0'.repeat(64);

const SEAL_HEX = /^[0-9a-f]{64}$/;
export const isSealHash = (v: unknown): v is string => typeof v === 'string' && SEAL_HEX.test(v);

/**
 * HMAC-SHA256(secret, prevHash || canonicalJson(payload)) as lowercase hex. Throws on an empty
 * secret or a prevHash that is not 64 lowercase hex characters: both are bugs, and sealing with
 * them would produce a row nobody could verify.
 */
export function seal(secret: string | Buffer, prevHash: string, payload: unknown): string {
  return sealText(secret, prevHash, canonicalJson(payload));
}

/** seal() over a payload's canonical JSON text. */
function sealText(secret: string | Buffer, prevHash: string, canonical: string): string {
  if (secret.length === 0) throw new RangeError('seal secret must not be empty');
  if (!isSealHash(prevHash)) throw new RangeError('prevHash must be 64 lowercase hex characters');
  return createHmac('sha256', secret).update(prevHash, 'utf8').update(canonical, 'utf8').digest('hex');
}

/**
 * Seals a ledger entry: only its sealed columns count (ledgerPayloadOf). The canonical text of a
 * row of strings, bigints and nulls is built directly (canonicalLedgerPayload, the same bytes).
 */
export function sealLedgerEntry(secret: string | Buffer, prevHash: string, payload: LedgerPayload): string {
  return sealText(secret, prevHash, canonicalLedgerPayload(payload) ?? canonicalJson(ledgerPayloadOf(payload)));
}

/**
 * Constant-time equality of two hex strings (case-insensitive). False, not an exception, for
 * malformed input or different lengths; lengths of hashes are public, so returning early on them
 * leaks nothing.
 */
export function timingSafeEqualHex(a: string, b: string): boolean {
  if (typeof a !== 'string' || typeof b !== 'string') return false;
  if (a.length !== b.length || a.length % 2 !== 0) return false;
  if (!/^[0-9a-fA-F]*$/.test(a) || !/^[0-9a-fA-F]*$/.test(b)) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

export interface ChainVerification {
  verified: boolean;
  /** Id of the first row whose link or seal does not check out; null when verified. */
  firstBroken: string | null;
  /** Rows examined, including the first broken one (verification stops there). */
  checked: number;
}

/**
 * Walks one tenant's rows in chain order: each row's prevHash must equal the previous row's
 * sealHash (GENESIS_HASH for the first, or `startPrevHash` when verifying from a later row), and
 * its sealHash must equal the HMAC recomputed from its sealed columns. An empty chain verifies.
 */
export function verifyChain(
  rows: readonly SealedLedgerRow[],
  secret: string | Buffer,
  startPrevHash: string = GENESIS_HASH,
): ChainVerification {
  return walkChain(rows, (row) => sealLedgerEntry(secret, row.prevHash, row), startPrevHash);
}

/** The one chain walk: linkage to the previous seal, then the recomputed seal, row by row. */
function walkChain<R extends { id: string; prevHash: string; sealHash: string }>(
  rows: Iterable<R>,
  recompute: (row: R) => string,
  startPrevHash: string,
): ChainVerification {
  let expectedPrev = startPrevHash;
  let checked = 0;
  for (const row of rows) {
    checked++;
    const broken = { verified: false, firstBroken: row.id, checked };
    if (row.prevHash !== expectedPrev) return broken;
    let recomputed: string;
    try {
      recomputed = recompute(row);
    } catch {
      // A row that cannot even be canonicalised (or a malformed prevHash) cannot be authentic.
      return broken;
    }
    if (!timingSafeEqualHex(recomputed, row.sealHash)) return broken;
    expectedPrev = row.sealHash;
  }
  return { verified: true, firstBroken: null, checked };
}

/** A row of any HMAC chain sealed with seal() over an arbitrary payload (e.g. the security audit log). */
export interface PayloadChainRow {
  id: string;
  prevHash: string;
  sealHash: string;
  payload: unknown;
}

/** verifyChain for chains whose payload is not a ledger entry: same linkage and HMAC rules. */
export function verifyPayloadChain(
  rows: Iterable<PayloadChainRow>,
  secret: string | Buffer,
  startPrevHash: string = GENESIS_HASH,
): ChainVerification {
  return walkChain(rows, (row) => seal(secret, row.prevHash, row.payload), startPrevHash);
}

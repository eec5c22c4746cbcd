// Ledger checkpoints and the offline export check (D17). The seal of a ledger row is an HMAC
// (seal.ts), which nobody without the server's secret can recompute. What a customer can check
// alone is built on two public things:
//  - the chain digest: SHA-256 over the exported (customer-visible) columns of every row in
//    sequence, each step taking the previous digest: digest_k = SHA-256(digest_{k-1} ||
//    canonicalJson(row_k without chainDigest)), digest_0 = 64 zeros. Every exported column,
//    sealHash and prevHash included, is bound by it.
//  - the checkpoint: the chain head (tenantId, sequence, sealHash, balanceMicros, time) plus the
//    chain digest at that sequence, signed with the server's Ed25519 key; the public key is at
//    /.well-known/switchboard-ledger-key.
// node:crypto is computation, not I/O, so this sits in the core; the CLI and the server share it.
import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { GENESIS_HASH, isSealHash } from './seal.ts';

export const EXPORT_FORMAT = 'switchboard-ledger-export/v1';
export const CHECKPOINT_TYPE = 'switchboard-ledger-checkpoint/v1';
export const DIGEST_GENESIS = GENESIS_HASH;

/** One row of a verifiable export: the customer columns (D8) with its sequence and chain links. */
export interface ExportEntry {
  seq: string;
  id: string;
  createdAt: string;
  customerLabel: string;
  projectId: string | null;
  amountMicros: string;
  balanceAfterMicros: string;
  benchmarkProvider: string | null;
  prevHash: string;
  sealHash: string;
  /** SHA-256 chain over the exported columns up to and including this row (see the header). */
  chainDigest: string;
}

/** What a checkpoint signs, besides its type and key id. */
export interface CheckpointHead {
  tenantId: string;
  /** The ledger sequence of the chain head (decimal string). */
  sequence: string;
  sealHash: string;
  /** Balance after the head entry, in micros (decimal string). */
  balanceMicros: string;
  chainDigest: string;
  /** When the checkpoint was taken, ISO 8601 UTC. */
  time: string;
}

export interface SignedCheckpoint extends CheckpointHead {
  keyId: string;
  /** Ed25519 over checkpointMessage(...), base64url. */
  signature: string;
}

export interface LedgerExport {
  format: typeof EXPORT_FORMAT;
  tenantId: string;
  exportedAt: string;
  /** Where the public key was published (informational: the verifier takes the key it is given). */
  publicKeyUrl: string;
  entries: ExportEntry[];
  checkpoints: SignedCheckpoint[];
}

/** The next chain digest: SHA-256(previous digest || canonical JSON of the row's other columns). */
export function nextChainDigest(prevDigest: string, row: Omit<ExportEntry, 'chainDigest'>): string {
  const { seq, id, createdAt, customerLabel, projectId, amountMicros, balanceAfterMicros, benchmarkProvider, prevHash, sealHash } = row;
  const body = canonicalJson({ seq, id, createdAt, customerLabel, projectId, amountMicros, balanceAfterMicros, benchmarkProvider, prevHash, sealHash });
  return createHash('sha256').update(prevDigest, 'utf8').update(body, 'utf8').digest('hex');
}

/** The bytes an Ed25519 checkpoint signature covers: RFC 8785 JSON of the head, its type and key id. */
export function checkpointMessage(head: CheckpointHead, keyId: string): Buffer {
  const { tenantId, sequence, sealHash, balanceMicros, chainDigest, time } = head;
  return Buffer.from(canonicalJson({ type: CHECKPOINT_TYPE, keyId, tenantId, sequence, sealHash, balanceMicros, chainDigest, time }), 'utf8');
}

export interface LedgerSigningKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** RFC 7638 JWK thumbprint of the public key (SHA-256, base64url). */
  keyId: string;
}

/** The public key as a JWK (RFC 8037 OKP/Ed25519) with its key id. */
export interface LedgerPublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

/** RFC 7638 thumbprint of an Ed25519 public key: base64url SHA-256 of {"crv","kty","x"} in order. */
export function keyIdOf(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' }) as { crv?: string; kty?: string; x?: string };
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || !jwk.x) throw new TypeError('the key is not an Ed25519 key');
  return createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${jwk.x}"}`, 'utf8').digest('base64url');
}

export function signingKeyOf(privateKey: KeyObject): LedgerSigningKey {
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new TypeError('the ledger signing key must be an Ed25519 key');
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

export function publicJwkOf(publicKey: KeyObject): LedgerPublicJwk {
  const { x } = publicKey.export({ format: 'jwk' }) as { x: string };
  return { kty: 'OKP', crv: 'Ed25519', x, kid: keyIdOf(publicKey), alg: 'EdDSA', use: 'sig' };
}

export function signCheckpoint(key: LedgerSigningKey, head: CheckpointHead): SignedCheckpoint {
  const signature = sign(null, checkpointMessage(head, key.keyId), key.privateKey).toString('base64url');
  return { ...head, keyId: key.keyId, signature };
}

/** True when the checkpoint's signature verifies under `publicKey` for its own key id. */
export function checkpointSignatureValid(publicKey: KeyObject, cp: SignedCheckpoint): boolean {
  if (typeof cp.signature !== 'string' || !/^[A-Za-z0-9_-]{86}$/.test(cp.signature)) return false;
  try {
    return verify(null, checkpointMessage(cp, cp.keyId), publicKey, Buffer.from(cp.signature, 'base64url'));
  } catch {
    return false;
  }
}

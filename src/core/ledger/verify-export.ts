// The offline check of a verifiable ledger export (D17), without the HMAC secret. What it proves,
// given the right public key:
//  1. the rows form one unbroken chain from the start: sequences 1, 2, 3 … with no gap or
//     repeat, each prevHash is the previous row's sealHash (64 zeros for the first);
//  2. the money adds up: every balanceAfterMicros is the previous balance plus amountMicros
//     (starting at 0), all as exact integers;
//  3. every exported column of every row up to the last checkpoint (sealHash included) is
//     exactly what the server held when it signed that checkpoint: the chain digest recomputed
//     from the rows equals the signed one, and the checkpoint's sealHash and balance match the
//     row at its sequence;
//  4. every checkpoint is signed by the given key, for this tenant, and the last one covers the
//     last row (the server takes one at export time).
// What it cannot prove: that each sealHash is the right HMAC of the row's full sealed payload
// (the internal columns are not in a customer export and the HMAC needs the secret; the server's
// GET /api/tenant/ledger/verify checks that). A row is reported at the first check it fails, in
// the order above, so a single edited field is named at its own row.
import type { KeyObject } from 'node:crypto';
import { isSealHash, GENESIS_HASH } from './seal.ts';
import {
  checkpointSignatureValid,
  DIGEST_GENESIS,
  EXPORT_FORMAT,
  keyIdOf,
  nextChainDigest,
  type ExportEntry,
  type SignedCheckpoint,
} from './checkpoint.ts';

export interface ExportVerdict {
  ok: boolean;
  /** Rows checked (up to and including the first bad one). */
  rows: number;
  /** Checkpoints whose signature and contents checked out. */
  checkpoints: number;
  /** The first bad row (its sequence, as in the file, and id) or null. */
  badRow: { index: number; seq: string; id: string } | null;
  /** The first bad checkpoint (its index in the file and sequence) or null. */
  badCheckpoint: { index: number; sequence: string } | null;
  /** What failed, in words; null when ok. */
  problem: string | null;
}

const INT = /^-?\d{1,20}$/;
const isStr = (v: unknown): v is string => typeof v === 'string';
const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function entryShapeProblem(e: unknown): string | null {
  if (typeof e !== 'object' || e === null) return 'is not an object';
  const r = e as Record<string, unknown>;
  for (const k of ['seq', 'id', 'createdAt', 'customerLabel', 'amountMicros', 'balanceAfterMicros', 'prevHash', 'sealHash', 'chainDigest']) {
    if (!isStr(r[k])) return `has no ${k} string`;
  }
  for (const k of ['projectId', 'benchmarkProvider']) if (!isStrOrNull(r[k])) return `has a ${k} that is neither a string nor null`;
  for (const k of ['seq', 'amountMicros', 'balanceAfterMicros']) if (!INT.test(r[k] as string)) return `has a ${k} that is not an integer string`;
  for (const k of ['prevHash', 'sealHash', 'chainDigest']) if (!isSealHash(r[k])) return `has a ${k} that is not 64 lowercase hex characters`;
  return null;
}

function checkpointShapeProblem(c: unknown): string | null {
  if (typeof c !== 'object' || c === null) return 'is not an object';
  const r = c as Record<string, unknown>;
  for (const k of ['tenantId', 'sequence', 'sealHash', 'balanceMicros', 'chainDigest', 'time', 'keyId', 'signature']) {
    if (!isStr(r[k])) return `has no ${k} string`;
  }
  if (!INT.test(r.sequence as string) || !INT.test(r.balanceMicros as string)) return 'has a sequence or balanceMicros that is not an integer string';
  return null;
}

/** Verify a parsed export document against `publicKey` (see the module header for what it proves). */
export function verifyLedgerExport(doc: unknown, publicKey: KeyObject): ExportVerdict {
  const verdict = (over: Partial<ExportVerdict>): ExportVerdict => ({ ok: false, rows: 0, checkpoints: 0, badRow: null, badCheckpoint: null, problem: null, ...over });
  if (typeof doc !== 'object' || doc === null) return verdict({ problem: 'the file is not a JSON object' });
  const d = doc as Record<string, unknown>;
  if (d.format !== EXPORT_FORMAT) {
    return verdict({ problem: `the file is not a verifiable ledger export (format is ${JSON.stringify(d.format)}, expected "${EXPORT_FORMAT}"; take one with GET /api/tenant/ledger/export?format=json)` });
  }
  if (!isStr(d.tenantId)) return verdict({ problem: 'the export names no tenantId' });
  if (!Array.isArray(d.entries) || !Array.isArray(d.checkpoints)) return verdict({ problem: 'the export has no entries or checkpoints array' });

  const entries = d.entries as ExportEntry[];
  const bySeq = new Map<string, ExportEntry>();
  let prevSeal = GENESIS_HASH;
  let prevDigest = DIGEST_GENESIS;
  let balance = 0n;
  let expected = 1n;
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const at = (problem: string) =>
      verdict({ rows: i + 1, badRow: { index: i, seq: String((e as Partial<ExportEntry>)?.seq ?? '?'), id: String((e as Partial<ExportEntry>)?.id ?? '?') }, problem });
    const shape = entryShapeProblem(e);
    if (shape) return at(`row ${i + 1} ${shape}`);
    if (BigInt(e.seq) !== expected) return at(`expected sequence ${expected} here: a row is missing, repeated or out of order`);
    if (e.prevHash !== prevSeal) return at(`prevHash does not link to the sealHash of the row before (${expected === 1n ? 'the first row must start from 64 zeros' : `sequence ${expected - 1n}`})`);
    if (BigInt(e.balanceAfterMicros) !== balance + BigInt(e.amountMicros)) {
      return at(`balanceAfterMicros ${e.balanceAfterMicros} is not the previous balance ${balance} plus amountMicros ${e.amountMicros}`);
    }
    const digest = nextChainDigest(prevDigest, e);
    if (digest !== e.chainDigest) return at('chainDigest does not match the row: one of its columns (amount, balance, seal, label, time, project) was changed');
    bySeq.set(expected.toString(), e);
    prevSeal = e.sealHash;
    prevDigest = digest;
    balance = BigInt(e.balanceAfterMicros);
    expected++;
  }

  const rows = entries.length;
  const keyId = keyIdOf(publicKey);
  const cps = d.checkpoints as SignedCheckpoint[];
  let lastCovered = 0n;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    const at = (problem: string) =>
      verdict({ rows, checkpoints: i, badCheckpoint: { index: i, sequence: String((c as Partial<SignedCheckpoint>)?.sequence ?? '?') }, problem });
    const shape = checkpointShapeProblem(c);
    if (shape) return at(`checkpoint ${i + 1} ${shape}`);
    if (c.keyId !== keyId) return at(`checkpoint at sequence ${c.sequence} is signed by key ${c.keyId}, not by the key given (${keyId})`);
    if (!checkpointSignatureValid(publicKey, c)) return at(`checkpoint at sequence ${c.sequence}: the Ed25519 signature does not verify (the checkpoint was altered or not signed by this key)`);
    if (c.tenantId !== d.tenantId) return at(`checkpoint at sequence ${c.sequence} is for tenant ${c.tenantId}, not the export's ${d.tenantId}`);
    const row = bySeq.get(BigInt(c.sequence).toString());
    if (!row) return at(`checkpoint at sequence ${c.sequence} has no row in the export: rows are missing`);
    if (row.sealHash !== c.sealHash) return at(`the row at sequence ${c.sequence} does not carry the signed sealHash: the chain was rewritten`);
    if (row.balanceAfterMicros !== c.balanceMicros) return at(`the row at sequence ${c.sequence} does not carry the signed balance ${c.balanceMicros}`);
    if (row.chainDigest !== c.chainDigest) return at(`the rows up to sequence ${c.sequence} do not match the signed chain digest: a row at or before it was changed`);
    if (BigInt(c.sequence) > lastCovered) lastCovered = BigInt(c.sequence);
  }
  if (rows > 0 && lastCovered !== BigInt(entries[rows - 1].seq)) {
    return verdict({
      rows,
      checkpoints: cps.length,
      problem: `rows after sequence ${lastCovered} are not covered by a signed checkpoint (an export from the server ends with one at its last row)`,
    });
  }
  return { ok: true, rows, checkpoints: cps.length, badRow: null, badCheckpoint: null, problem: null };
}

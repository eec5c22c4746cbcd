// `switchboard verify-export <file> --key <file> | --key-url <url>` (D17): checks a verifiable
// ledger export (GET /api/tenant/ledger/export?format=json) offline, without the HMAC secret and
// without the server's settings: the chain's linkage and arithmetic, the chain digest, and each
// checkpoint's Ed25519 signature against the public key (core/ledger/verify-export.ts says exactly
// what that proves). The key is a file (the JWK Set from /.well-known/switchboard-ledger-key, one
// JWK, or a PEM public key) or that URL, fetched once. Prints the verdict on stdout; exits 0 when
// the export verifies, 1 when it does not (naming the first bad row or checkpoint), 64 on a usage
// error, 66 when the export or the key cannot be read.
import { readFile } from 'node:fs/promises';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { verifyLedgerExport } from '../../core/ledger/verify-export.ts';
import { keyIdOf } from '../../core/ledger/checkpoint.ts';

export const EXIT = { ok: 0, failed: 1, usage: 64, noInput: 66 } as const;
const USAGE = 'usage: switchboard verify-export <export.json> (--key <key.json|key.pem> | --key-url <https://host/.well-known/switchboard-ledger-key>) [--json]';

class CliError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

function parseArgs(argv: string[]): { file: string; key?: string; keyUrl?: string; json: boolean } {
  let file: string | undefined;
  let key: string | undefined;
  let keyUrl: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '--key' || a === '--key-url') {
      const v = argv[++i];
      if (!v) throw new CliError(`${a} needs a value\n${USAGE}`, EXIT.usage);
      if (a === '--key') key = v;
      else keyUrl = v;
    } else if (a.startsWith('--')) throw new CliError(`unknown option ${a}\n${USAGE}`, EXIT.usage);
    else if (file) throw new CliError(`one export file at a time\n${USAGE}`, EXIT.usage);
    else file = a;
  }
  if (!file) throw new CliError(USAGE, EXIT.usage);
  if (!key === !keyUrl) throw new CliError(`give the public key with exactly one of --key or --key-url\n${USAGE}`, EXIT.usage);
  return { file, key, keyUrl, json };
}

/** A public key from a JWK Set, a JWK or a PEM; from a set, the key `preferKid` names if present. */
export function publicKeyFrom(text: string, preferKid?: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('-----BEGIN')) return createPublicKey({ key: trimmed, format: 'pem' });
  const v = JSON.parse(trimmed) as { keys?: unknown[] } & Record<string, unknown>;
  const jwks = Array.isArray(v.keys) ? (v.keys as Record<string, unknown>[]) : [v];
  const okp = jwks.filter((k) => k && k.kty === 'OKP' && k.crv === 'Ed25519' && typeof k.x === 'string');
  if (okp.length === 0) throw new Error('no Ed25519 public key (kty OKP, crv Ed25519) in it');
  const keys = okp.map((k) => createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: k.x as string }, format: 'jwk' }));
  return keys.find((k) => keyIdOf(k) === preferKid) ?? keys[0];
}

async function loadKey(opts: { key?: string; keyUrl?: string }, preferKid?: string): Promise<KeyObject> {
  let text: string;
  const where = opts.key ?? opts.keyUrl!;
  try {
    if (opts.key) text = await readFile(opts.key, 'utf8');
    else {
      const res = await fetch(opts.keyUrl!, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      text = await res.text();
    }
  } catch (e) {
    throw new CliError(`cannot read the public key from ${where}: ${(e as Error).message}`, EXIT.noInput);
  }
  try {
    return publicKeyFrom(text, preferKid);
  } catch (e) {
    throw new CliError(`${where} holds no usable Ed25519 public key (expected the JWK Set of /.well-known/switchboard-ledger-key, a JWK, or a PEM): ${(e as Error).message}`, EXIT.noInput);
  }
}

export async function verifyExportCommand(argv: string[]): Promise<void> {
  try {
    const opts = parseArgs(argv);
    let doc: unknown;
    try {
      doc = JSON.parse(await readFile(opts.file, 'utf8'));
    } catch (e) {
      throw new CliError(`cannot read ${opts.file} as JSON: ${(e as Error).message}`, EXIT.noInput);
    }
    const firstKid = (doc as { checkpoints?: Array<{ keyId?: unknown }> })?.checkpoints?.[0]?.keyId;
    const key = await loadKey(opts, typeof firstKid === 'string' ? firstKid : undefined);
    const v = verifyLedgerExport(doc, key);
    if (opts.json) console.log(JSON.stringify({ ...v, keyId: keyIdOf(key) }));
    else if (v.ok) {
      const cps = (doc as { checkpoints: Array<{ sequence: string; balanceMicros: string; time: string }> }).checkpoints;
      const last = cps[cps.length - 1];
      console.log(
        [
          `OK: ${v.rows} row(s) and ${v.checkpoints} signed checkpoint(s) verify against key ${keyIdOf(key)}.`,
          last ? `  last checkpoint: sequence ${last.sequence}, balance ${last.balanceMicros} micros, signed ${last.time}` : '  the ledger is empty',
          '  checked: unbroken sequence and hash links from the first row, balances add up, every row matches the signed chain digest;',
          '  not checked offline: the HMAC seal of the internal columns (the server checks it: GET /api/tenant/ledger/verify).',
        ].join('\n'),
      );
    } else if (v.badRow) console.log(`FAILED at row ${v.badRow.index + 1} (sequence ${v.badRow.seq}, id ${v.badRow.id}): ${v.problem}`);
    else if (v.badCheckpoint) console.log(`FAILED at checkpoint ${v.badCheckpoint.index + 1} (sequence ${v.badCheckpoint.sequence}): ${v.problem}`);
    else console.log(`FAILED: ${v.problem}`);
    process.exitCode = v.ok ? EXIT.ok : EXIT.failed;
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    console.error(e.message);
    process.exitCode = e.code;
  }
}

// Server-side secrets. From the environment when set (every multi-replica deployment must set
// them); otherwise generated once and kept in DATA_DIR/secrets.json (mode 0600), so the default
// run keeps valid sessions and a verifiable ledger across restarts. The ledger checkpoints'
// Ed25519 private key (D17) is kept the same way: LEDGER_SIGNING_KEY, or secrets.json.
import { createPrivateKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tightenPrivateFile, writePrivateFile } from '../../infra/private-file.ts';
import { join } from 'node:path';
import { ConfigError, type Config } from '../../config.ts';
import { signingKeyOf, type LedgerSigningKey } from '../../core/ledger/checkpoint.ts';
import type { Secrets } from './services.ts';
import { deriveKey } from '../../core/secret-box.ts';

export async function loadSecrets(cfg: Config): Promise<Secrets> {
  let jwt = cfg.JWT_SECRET;
  let ledger = cfg.LEDGER_SECRET;
  let signing = cfg.LEDGER_SIGNING_KEY;
  if (!jwt || !ledger || !signing) {
    const file = join(cfg.DATA_DIR, 'secrets.json');
    let stored: StoredSecrets = {};
    try {
      stored = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      /* first run: generated below */
    }
    // Generate only what neither the environment nor the file provides.
    const missing = (!jwt && !stored.jwt) || (!ledger && !stored.ledger) || (!signing && !stored.ledgerSigningKey);
    if (missing) {
      stored = {
        ...stored,
        jwt: stored.jwt ?? (jwt ? undefined : randomBytes(32).toString('hex')),
        ledger: stored.ledger ?? (ledger ? undefined : randomBytes(32).toString('hex')),
        ledgerSigningKey: stored.ledgerSigningKey ?? (signing ? undefined : newSigningKeyPem()),
      };
      await writePrivateFile(file, JSON.stringify(stored));
    } else {
      await tightenPrivateFile(file);
    }
    jwt ??= stored.jwt;
    ledger ??= stored.ledger;
    signing ??= stored.ledgerSigningKey;
  }
  return { jwt: new TextEncoder().encode(jwt), ledger: Buffer.from(ledger!, 'utf8'), ledgerSigning: parseSigningKey(signing!) };
}

interface StoredSecrets {
  jwt?: string;
  ledger?: string;
  /** Ed25519 private key of the ledger checkpoints (D17), PKCS#8 PEM. */
  ledgerSigningKey?: string;
}

const newSigningKeyPem = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

/**
 * LEDGER_SIGNING_KEY (or the stored key): an Ed25519 private key as PKCS#8 PEM; in an environment
 * variable the line breaks may be written as `\n`. Make one with
 * `openssl genpkey -algorithm ed25519`.
 */
function parseSigningKey(pem: string): LedgerSigningKey {
  try {
    return signingKeyOf(createPrivateKey({ key: pem.replace(/\\n/g, '\n'), format: 'pem' }));
  } catch (e) {
    throw new ConfigError(
      `Invalid configuration:\n  LEDGER_SIGNING_KEY: must be an Ed25519 private key in PKCS#8 PEM (make one with \`openssl genpkey -algorithm ed25519\`): ${(e as Error).message}`,
    );
  }
}

const derived = new WeakMap<Secrets, Buffer>();

/**
 * The key that encrypts webhook signing secrets at rest (webhooks and users' alert webhooks):
 * HKDF-SHA256 of the ledger secret with the label `switchboard/webhook-secret/v1`, used with
 * AES-256-GCM (core/secret-box.ts). Secrets are never hashed because deliveries sign with them,
 * and never logged. Rotating LEDGER_SECRET makes them undecryptable: rotate webhook secrets then.
 */
export function webhookSecretKey(secrets: Secrets): Buffer {
  let k = derived.get(secrets);
  if (!k) {
    k = deriveKey(secrets.ledger, 'webhook-secret/v1');
    derived.set(secrets, k);
  }
  return k;
}

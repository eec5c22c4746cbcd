// Server-side secrets. From the environment when set (every multi-replica deployment must set
// them); otherwise generated once and kept in DATA_DIR/secrets.json (mode 0600), so the default
// run keeps valid sessions and a verifiable ledger across restarts.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tightenPrivateFile, writePrivateFile } from '../../infra/private-file.ts';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import type { Secrets } from './services.ts';
import { deriveKey } from '../../core/secret-box.ts';

export async function loadSecrets(cfg: Config): Promise<Secrets> {
  let jwt = cfg.JWT_SECRET;
  let ledger = cfg.LEDGER_SECRET;
  if (!jwt || !ledger) {
    const file = join(cfg.DATA_DIR, 'secrets.json');
    let stored: { jwt?: string; ledger?: string } = {};
    try {
      stored = JSON.parse(await readFile(file, 'utf8'));
    } catch {
      /* first run: generated below */
    }
    if (!stored.jwt || !stored.ledger) {
      stored = { jwt: stored.jwt ?? randomBytes(32).toString('hex'), ledger: stored.ledger ?? randomBytes(32).toString('hex') };
      await writePrivateFile(file, JSON.stringify(stored));
    } else {
      await tightenPrivateFile(file);
    }
    jwt ??= stored.jwt;
    ledger ??= stored.ledger;
  }
  return { jwt: new TextEncoder().encode(jwt), ledger: Buffer.from(ledger!, 'utf8') };
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

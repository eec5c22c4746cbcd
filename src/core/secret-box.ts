// Secrets the service must be able to use again later (webhook signing secrets) are stored
// encrypted, not hashed: AES-256-GCM under a key derived with HKDF-SHA256 from the server's
// ledger secret and a purpose label, so one master secret yields independent keys per use and
// rotating the label invalidates nothing else. Each ciphertext is bound to its row (the AAD), so
// a value copied into another row does not decrypt. Format: v1.<iv>.<tag>.<ciphertext> (base64url).
// Rotating LEDGER_SECRET makes stored webhook secrets undecryptable: rotate them after it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export function deriveKey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `switchboard/${purpose}`, 32));
}

export function encryptSecret(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  c.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
  return ['v1', iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

export function decryptSecret(key: Buffer, blob: string, aad: string): string {
  const [v, iv, tag, ct] = blob.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('unrecognised secret format');
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  d.setAAD(Buffer.from(aad, 'utf8'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
}

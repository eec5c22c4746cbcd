// Formats of the secrets the service issues (D3): service keys `svc_<env>_<32 base62><6 base62
// CRC32>` whose checksum lets a scanner recognise a real key offline, and personal access tokens
// `svc_pat_...`. Pure: randomness is passed in as bytes.
import { crc32 } from 'node:zlib';
import { createHash } from 'node:crypto';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type KeyEnvironment = 'dev' | 'staging' | 'production';
export const ENV_PREFIX: Record<KeyEnvironment, string> = {
  production: 'svc_live_',
  staging: 'svc_stage_',
  dev: 'svc_dev_',
};
export const PAT_PREFIX = 'svc_pat_';

/** Map random bytes to base62 with rejection sampling (no modulo bias). */
export function base62(bytes: Uint8Array, length: number): string {
  let out = '';
  for (const b of bytes) {
    if (b >= 248) continue; // 248 = 62 * 4: keeps the distribution uniform
    out += B62[b % 62];
    if (out.length === length) return out;
  }
  throw new Error('not enough random bytes for base62 string');
}

function base62Fixed(n: number, width: number): string {
  let out = '';
  let v = n;
  for (let i = 0; i < width; i++) {
    out = B62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

export const checksum = (body: string): string => base62Fixed(crc32(body) >>> 0, 6);

export function formatKey(prefix: string, secret32: string): string {
  const body = prefix + secret32;
  return body + checksum(body);
}

/** Offline check of a presented key's shape and checksum: rejects typos without a DB lookup. */
export function isWellFormedKey(key: string, prefix?: string): boolean {
  const m = /^(svc_(?:live|stage|dev|pat)_)([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/.exec(key);
  if (!m) return false;
  if (prefix && m[1] !== prefix) return false;
  return checksum(m[1] + m[2]) === m[3];
}

/** Keys and tokens are stored only as SHA-256 (they are high-entropy, so no slow hash is needed). */
export const hashSecret = (s: string): Buffer => createHash('sha256').update(s).digest();

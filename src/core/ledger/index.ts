// Ledger: canonical JSON, HMAC sealing and chain verification (D8), the sealed payload and labels.
export * from './canonical-json.ts';
export * from './payload.ts';
export * from './seal.ts';

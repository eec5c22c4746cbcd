import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalJson, GENESIS_HASH, seal, verifyChain, type ChainRow } from './seal.ts';

const secret = 'a server-side secret of 32+ chars!!';

function chain(n: number): ChainRow[] {
  const rows: ChainRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 0; i < n; i++) {
    const payload = { id: `r${i}`, amountMicros: BigInt(-i * 1000), createdAt: `2026-11-0${i + 1}T00:00:00.000Z` };
    const sealHash = seal(secret, prev, payload);
    rows.push({ id: `r${i}`, prevHash: prev, sealHash, payload });
    prev = sealHash;
  }
  return rows;
}

test('canonical JSON is RFC 8785: sorted keys, no whitespace, bigint as decimal string', () => {
  assert.equal(canonicalJson({ b: 1, a: [true, null], c: 12345678901234567890n }), '{"a":[true,null],"b":1,"c":"12345678901234567890"}');
});

test('a correctly sealed chain verifies', () => {
  assert.deepEqual(verifyChain(chain(5), secret), { verified: true, firstBroken: null, checked: 5 });
});

test('altering one row names exactly that row', () => {
  const rows = chain(5);
  (rows[2].payload as { amountMicros: bigint }).amountMicros = 1n;
  assert.deepEqual(verifyChain(rows, secret), { verified: false, firstBroken: 'r2', checked: 3 });
});

test('relinking a row (deleting its predecessor) is caught by the prevHash link', () => {
  const rows = chain(4);
  rows.splice(1, 1);
  assert.equal(verifyChain(rows, secret).firstBroken, 'r2');
});

test('the seal is an HMAC: a plain SHA-256 recomputation (the reference fault) does not match, and another key fails', () => {
  const [row] = chain(1);
  const plain = createHash('sha256').update(GENESIS_HASH + canonicalJson(row.payload)).digest('hex');
  assert.notEqual(plain, row.sealHash);
  assert.equal(verifyChain([{ ...row, sealHash: plain }], secret).verified, false);
  assert.equal(verifyChain([row], 'another secret of 32+ characters!!').verified, false);
});

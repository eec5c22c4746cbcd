import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { base62, formatKey, isWellFormedKey, ENV_PREFIX, checksum } from './tokens.ts';

test('a formatted key passes the offline checksum and a one-character typo does not', () => {
  const key = formatKey(ENV_PREFIX.production, base62(randomBytes(64), 32));
  assert.match(key, /^svc_live_[0-9A-Za-z]{38}$/);
  assert.equal(isWellFormedKey(key), true);
  assert.equal(isWellFormedKey(key, 'svc_live_'), true);
  assert.equal(isWellFormedKey(key, 'svc_dev_'), false);
  const i = 12;
  const typo = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
  assert.equal(isWellFormedKey(typo), false);
});

test('each environment has its own prefix and the checksum is six base62 characters', () => {
  assert.deepEqual(ENV_PREFIX, { production: 'svc_live_', staging: 'svc_stage_', dev: 'svc_dev_' });
  assert.match(checksum('svc_dev_x'), /^[0-9A-Za-z]{6}$/);
});

test('base62 skips biased bytes and fails loudly when bytes run out', () => {
  assert.equal(base62(new Uint8Array([0, 61, 62, 255, 250, 1]), 4), '0z01');
  assert.throws(() => base62(new Uint8Array([255, 255]), 2));
});

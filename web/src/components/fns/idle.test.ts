import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isIdle } from './idle.ts';

test('idle at the limit, not a millisecond before; never is never', () => {
  assert.equal(isIdle('15min', 0, 15 * 60_000 - 1), false);
  assert.equal(isIdle('15min', 0, 15 * 60_000), true);
  assert.equal(isIdle('24h', 1000, 1000 + 24 * 3_600_000), true);
  assert.equal(isIdle('never', 0, 10 ** 12), false);
  assert.equal(isIdle(undefined, 0, 10 ** 12), false);
});

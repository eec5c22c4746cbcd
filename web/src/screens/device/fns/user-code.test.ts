import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUserCode, normaliseUserCode, userCodeProblem } from './user-code.ts';

test('codes are read in any case, with or without the dash or spaces', () => {
  assert.equal(normaliseUserCode(' bcdf-ghjk '), 'BCDFGHJK');
  assert.equal(normaliseUserCode('BCDF GHJK'), 'BCDFGHJK');
  assert.equal(formatUserCode('bcdfghjk'), 'BCDF-GHJK');
  assert.equal(formatUserCode('bcd'), 'BCD');
  assert.equal(formatUserCode('bcdfghjkzz'), 'BCDF-GHJK');
});

test('only a full code of the device alphabet may be sent', () => {
  assert.equal(userCodeProblem('BCDF-GHJK'), null);
  assert.match(userCodeProblem('')!, /Enter the code/);
  assert.match(userCodeProblem('BCDF-GH')!, /8 letters/);
  assert.match(userCodeProblem('ABCD-EFGH')!, /consonants/);
});

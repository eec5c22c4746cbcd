import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_QUALITY_FLOOR } from '../../../../../src/core/quality/score.ts';
import { describeFloor, FLOOR_LEVELS, STAGE_WORDS } from './floor.ts';

test('the default floor is the level called Balanced; every level is on the 0..1 scale and ascending', () => {
  assert.equal(describeFloor(DEFAULT_QUALITY_FLOOR).name, 'Balanced');
  assert.equal(describeFloor(DEFAULT_QUALITY_FLOOR).custom, false);
  for (let i = 0; i < FLOOR_LEVELS.length; i++) {
    assert.ok(FLOOR_LEVELS[i].value > 0 && FLOOR_LEVELS[i].value <= 1);
    if (i) assert.ok(FLOOR_LEVELS[i].value > FLOOR_LEVELS[i - 1].value);
  }
});

test('a value set through the API reads as custom, compared with the level below it', () => {
  const d = describeFloor(0.67);
  assert.equal(d.custom, true);
  assert.match(d.name, /Custom \(0\.67/);
  assert.match(d.words, /"Balanced"/);
  assert.match(describeFloor(0.1).words, /"Relaxed"/);
});

test('every stage of D4 has words', () => {
  assert.deepEqual(Object.keys(STAGE_WORDS).sort(), ['connected', 'live', 'onboarding', 'paused']);
});

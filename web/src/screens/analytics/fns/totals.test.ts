import { test } from 'node:test';
import assert from 'node:assert/strict';
import { savingsTotals } from './totals.ts';

test('totals add integer strings exactly, past 2^53', () => {
  const t = savingsTotals({
    series: [
      { day: '2026-11-01', serviceBurnMicros: '9007199254740993', equivalentBurnMicros: '9007199254740995', unbenchmarkedBurnMicros: '0' },
      { day: '2026-11-02', serviceBurnMicros: '1', equivalentBurnMicros: '10', unbenchmarkedBurnMicros: '0' },
    ],
  });
  assert.deepEqual(t, { burn: '9007199254740994', equivalent: '9007199254741005', saved: '11' });
});

test('without a benchmark there is no equivalent and no saving (never a 0)', () => {
  assert.deepEqual(savingsTotals({ series: [{ day: '2026-11-01', serviceBurnMicros: '5', equivalentBurnMicros: null, unbenchmarkedBurnMicros: '0' }] }), { burn: '5', equivalent: null, saved: null });
});

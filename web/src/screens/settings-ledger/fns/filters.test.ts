import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_FILTERS, toQuery } from './filters.ts';

test('an empty form asks for everything', () => {
  assert.deepEqual(Object.values(toQuery(EMPTY_FILTERS)).filter(Boolean), []);
});

test('a date range covers whole local days; amounts lose their grouping', () => {
  const q = toQuery({ ...EMPTY_FILTERS, type: 'Top-up', from: '2026-11-01', to: '2026-11-01', minAmount: '1,000', maxAmount: ' 5000 ' });
  assert.equal(q.type, 'Top-up');
  assert.equal(new Date(q.to!).getTime() - new Date(q.from!).getTime(), 86_400_000 - 1);
  assert.equal(new Date(q.from!).getDate(), 1);
  assert.equal(q.minAmount, '1000');
  assert.equal(q.maxAmount, '5000');
});

// jsonWithBigints: what goes into jsonb columns (learning outbox, QA scores) from values that may
// hold bigints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonWithBigints } from './money.ts';

test('values without bigints serialise exactly as JSON.stringify does', () => {
  const v = { a: 1, b: 'x', c: [true, null, { d: 2.5 }], e: undefined };
  assert.equal(jsonWithBigints(v), JSON.stringify(v));
  assert.equal(jsonWithBigints(undefined), 'null');
});

test('bigints anywhere become decimal strings, beyond 2^53 exactly', () => {
  assert.equal(jsonWithBigints({ m: 9_007_199_254_740_993n, list: [1n, -2n], nested: { z: 0n } }), '{"m":"9007199254740993","list":["1","-2"],"nested":{"z":"0"}}');
});

test('a circular value still throws', () => {
  const o: Record<string, unknown> = {};
  o.self = o;
  assert.throws(() => jsonWithBigints(o), TypeError);
});

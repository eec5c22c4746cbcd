import { test } from 'node:test';
import assert from 'node:assert/strict';
import { topupBody } from '../../../../../src/http/api/wallet/schemas.ts';
import { validate } from '../../../components/fns/form.ts';
import { dollarsField, microsToDollars } from './amounts.ts';

test('typed dollars become micros; anything else reaches the API schema, which names the problem', () => {
  assert.equal(dollarsField('25.50'), '25500000');
  assert.equal(dollarsField(''), '');
  const bad = validate(topupBody, { amountMicros: dollarsField('12.345') });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.match(bad.errors.amountMicros, /integer string/);
  const small = validate(topupBody, { amountMicros: dollarsField('0.50') });
  assert.equal(small.ok, false);
  if (!small.ok) assert.match(small.errors.amountMicros, /at least/);
});

test('micros back to the dollars a form shows', () => {
  assert.equal(microsToDollars('25000000'), '25.00');
  assert.equal(microsToDollars('1230000'), '1.23');
});

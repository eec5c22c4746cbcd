import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signupBody } from '../../../../src/http/api/auth/schemas.ts';
import { topupBody } from '../../../../src/http/api/wallet/schemas.ts';
import { validate } from './form.ts';

test('the API schema names each bad field in a sentence', () => {
  const r = validate(signupBody, { email: 'nope', password: 'short', name: ' ', tenantName: 'Acme' });
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.errors.email, 'Must be an e-mail address.');
  assert.equal(r.errors.password, 'Must be at least 12 characters.');
  assert.equal(r.errors.name, 'Must not be empty.');
  assert.equal(r.errors.tenantName, undefined);
});

test('a valid top-up parses to a bigint, as on the server', () => {
  const r = validate(topupBody, { amountMicros: '25000000' });
  assert.deepEqual(r, { ok: true, data: { amountMicros: 25_000_000n } });
  const bad = validate(topupBody, { amountMicros: '500000' });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.match(bad.errors.amountMicros, /at least/);
});

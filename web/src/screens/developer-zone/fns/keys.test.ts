import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCountdown, keyState, spokenCountdown } from './keys.ts';

test('a rotated key counts down its 24-hour overlap, then reads as expired', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  const k = { environment: 'dev', revokedAt: null, expiresAt: '2026-11-25T12:00:00Z' };
  assert.deepEqual(keyState(k, now), { kind: 'expiring', remainingMs: 86_400_000 });
  assert.equal(formatCountdown(86_400_000), '24:00:00');
  assert.equal(formatCountdown(86_399_000), '23:59:59');
  assert.equal(formatCountdown(-5), '00:00:00');
  assert.equal(spokenCountdown(86_340_000), '23 hours 59 minutes');
  assert.deepEqual(keyState(k, Date.parse('2026-11-25T12:00:00Z')), { kind: 'expired' });
});

test('revoked wins over expiry; a key without either is active', () => {
  const now = Date.now();
  assert.equal(keyState({ environment: 'dev', revokedAt: new Date(now - 1).toISOString(), expiresAt: new Date(now + 1000).toISOString() }, now).kind, 'revoked');
  assert.equal(keyState({ environment: 'dev', revokedAt: null, expiresAt: null }, now).kind, 'active');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { notificationPatch } from '../../../../../src/http/api/users/schemas.ts';
import { patchOf, valuesOf } from './settings.ts';

const base = { balanceThresholdMicros: null, runwayThresholdDays: null, escalationAlert: false, digestCadence: 'weekly', channel: 'email', webhookUrl: null };

test('only changes are sent; thresholds in tokens and days; blanks are "no alert"', () => {
  assert.deepEqual(patchOf(base, valuesOf(base)), {});
  const p = patchOf(base, { ...valuesOf(base), balance: '1,000,000', runway: '7', escalationAlert: true, digestCadence: 'daily' });
  assert.deepEqual(p, { balanceThresholdMicros: '1000000', runwayThresholdDays: 7, escalationAlert: true, digestCadence: 'daily' });
  assert.equal(notificationPatch.safeParse(p).success, true);
  const set = { ...base, balanceThresholdMicros: '5', runwayThresholdDays: 3 };
  assert.deepEqual(patchOf(set, { ...valuesOf(set), balance: ' ', runway: '' }), { balanceThresholdMicros: null, runwayThresholdDays: null });
});

test('what the API schema refuses stays refusable', () => {
  const bad = patchOf(base, { ...valuesOf(base), balance: '-5', runway: '2.5' });
  const r = notificationPatch.safeParse(bad);
  assert.equal(r.success, false);
  const fields = (r as z.ZodSafeParseError<unknown>).error.issues.map((i) => i.path[0]);
  assert.ok(fields.includes('balanceThresholdMicros') && fields.includes('runwayThresholdDays'));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeNext } from './next.ts';

test('after sign-in only a local path is followed', () => {
  assert.equal(safeNext(null), '/overview');
  assert.equal(safeNext('/billing?x=1'), '/billing?x=1');
  assert.equal(safeNext('https://evil.example/'), '/overview');
  assert.equal(safeNext('//evil.example/'), '/overview');
  assert.equal(safeNext('/\\evil.example'), '/overview');
  assert.equal(safeNext('/login'), '/overview');
});

// The server answers 200 for exactly the web app's screens and 404 for the rest (D13), so both
// sides must list the same paths. Reads routes.tsx as text: React cannot load under node --test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { APP_ROUTES } from '../../src/core/web-routes.ts';

test('the router and the server list the same screens', () => {
  const src = readFileSync(new URL('./routes.tsx', import.meta.url), 'utf8');
  const paths = [...src.matchAll(/path: '([^']+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(paths, [...APP_ROUTES].sort());
});

// The proxy's one-second call-context memo: one query per key per second, shared by concurrent
// calls, forgotten after a failure, a private copy for each call.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../app/services.ts';
import type { KeyPrincipal } from '../../app/keys.ts';
import { CallContextCache } from './call-context.ts';

const s = {} as Services; // only handed through to the loader
const principal = (keyId: string): KeyPrincipal => ({ keyId, tenantId: 't1', projectId: 'p1', environment: 'dev', expiresAt: null, revokedAt: null });

function loader() {
  const calls: string[] = [];
  let fail = false;
  const load = async (_s: Services, p: KeyPrincipal) => {
    calls.push(p.keyId);
    if (fail) throw new Error('database down');
    return { tenantId: p.tenantId, projectId: p.projectId, keyId: p.keyId, qualityFloor: 0.6, benchmarkProvider: null, region: null };
  };
  return { load, calls, setFail: (v: boolean) => (fail = v) };
}

test('one load per key within the TTL, shared by concurrent calls; a new load after it', async () => {
  let now = 0;
  const cache = new CallContextCache(1000, 100, () => now);
  const l = loader();
  const [a, b] = await Promise.all([cache.get(s, principal('k1'), l.load), cache.get(s, principal('k1'), l.load)]);
  assert.deepEqual(l.calls, ['k1']);
  assert.deepEqual(a, b);
  assert.notEqual(a, b, 'each call gets its own copy');
  now = 999;
  await cache.get(s, principal('k1'), l.load);
  await cache.get(s, principal('k2'), l.load);
  assert.deepEqual(l.calls, ['k1', 'k2']);
  now = 1000;
  await cache.get(s, principal('k1'), l.load);
  assert.deepEqual(l.calls, ['k1', 'k2', 'k1']);
});

test('a failed load is not remembered', async () => {
  const cache = new CallContextCache(1000, 100, () => 0);
  const l = loader();
  l.setFail(true);
  await assert.rejects(cache.get(s, principal('k1'), l.load), /database down/);
  l.setFail(false);
  assert.equal((await cache.get(s, principal('k1'), l.load)).keyId, 'k1');
  assert.deepEqual(l.calls, ['k1', 'k1']);
});

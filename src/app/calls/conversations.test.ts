// The conversation pin store: per tenant, the class never goes down, bounded in size and age.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConversationPins, continuedClass, pinnedFirst } from './conversations.ts';

test('pins are per tenant, keep the highest class, follow the last endpoint, expire and stay bounded', () => {
  const p = new ConversationPins(3, 1000);
  p.record('t1', 'c', 'premium', 'a:m1', 0);
  assert.equal(p.get('t2', 'c', 0), undefined, 'another tenant’s thread of the same id');
  p.record('t1', 'c', 'economy', 'b:m2', 10);
  assert.deepEqual(p.get('t1', 'c', 10), { modelClass: 'premium', endpointKey: 'b:m2', at: 10 });
  assert.equal(continuedClass('economy', p.get('t1', 'c', 10)), 'premium');
  assert.equal(continuedClass('frontier', p.get('t1', 'c', 10)), 'frontier');
  assert.equal(p.get('t1', 'c', 2000), undefined, 'expired');
  for (const id of ['x', 'y', 'z', 'w']) p.record('t1', id, 'standard', 'a:m1', 3000);
  assert.equal(p.size, 3);
  assert.equal(p.get('t1', 'x', 3000), undefined, 'the least recently used went first');
});

test('the pinned endpoint goes first only when Layer 2 kept it and it is not a half-open trial', () => {
  const list = [
    { key: 'a', trial: false },
    { key: 'b', trial: false },
    { key: 'c', trial: true },
  ];
  const pin = (endpointKey: string) => ({ modelClass: 'standard' as const, endpointKey, at: 0 });
  assert.deepEqual(pinnedFirst(list, pin('b')).map((e) => e.key), ['b', 'a', 'c']);
  assert.deepEqual(pinnedFirst(list, pin('c')).map((e) => e.key), ['a', 'b', 'c']);
  assert.deepEqual(pinnedFirst(list, pin('gone')).map((e) => e.key), ['a', 'b', 'c']);
  assert.deepEqual(pinnedFirst(list, undefined).map((e) => e.key), ['a', 'b', 'c']);
});

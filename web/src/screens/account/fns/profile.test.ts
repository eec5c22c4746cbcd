import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changedFields, initials, timeZones } from './profile.ts';

const profile = {
  id: 'u1',
  email: 'ada@example.test',
  name: 'Ada',
  timezone: 'UTC',
  bio: null,
  avatarUrl: null,
  emailVerifiedAt: null,
  pendingEmail: null,
  idleTimeout: '24h',
  platformAdmin: false,
};

test('only changed fields are sent; blanks clear the optional ones', () => {
  assert.deepEqual(changedFields(profile, { name: 'Ada', email: 'ada@example.test', timezone: 'UTC', bio: '', avatarUrl: '' }), {});
  assert.deepEqual(changedFields(profile, { name: 'Ada L', email: ' ada@example.test ', timezone: 'Europe/Paris', bio: 'Hi', avatarUrl: '' }), {
    name: 'Ada L',
    timezone: 'Europe/Paris',
    bio: 'Hi',
  });
  assert.deepEqual(changedFields({ ...profile, bio: 'Hi', avatarUrl: 'https://x.test/a.png' }, { name: 'Ada', email: 'ada@example.test', timezone: 'UTC', bio: ' ', avatarUrl: '' }), {
    bio: null,
    avatarUrl: null,
  });
});

test('a pending address is what the form shows, so it is not asked for twice', () => {
  const pending = { ...profile, pendingEmail: 'new@example.test' };
  assert.deepEqual(changedFields(pending, { name: 'Ada', email: 'new@example.test', timezone: 'UTC', bio: '', avatarUrl: '' }), {});
  assert.deepEqual(changedFields(pending, { name: 'Ada', email: 'ada@example.test', timezone: 'UTC', bio: '', avatarUrl: '' }), { email: 'ada@example.test' });
});

test('time zones start with UTC and hold the IANA names; initials', () => {
  const z = timeZones();
  assert.equal(z[0], 'UTC');
  assert.ok(z.includes('Europe/Paris') && z.includes('America/New_York'));
  // Today's names, though ICU lists the old ones.
  assert.ok(z.includes('Asia/Kolkata') && z.includes('Europe/Kyiv'));
  assert.equal(z.filter((x) => x === 'UTC').length, 1);
  assert.equal(initials('Ada Lovelace'), 'AL');
  assert.equal(initials('grace'), 'GR');
  assert.equal(initials(' '), '?');
});

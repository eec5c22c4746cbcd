// The bridge's sign-in in the OS keychain (D14): a private D-Bus session bus with the real GNOME
// Keyring daemon (Debian gnome-keyring, unlocked headless with a password on stdin), read back
// with libsecret's own `secret-tool` as any other keychain client would; and the 0600-file
// fallback when no Secret Service answers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileCredentialStore } from './credential-store.ts';
import { KeychainCredentialStore, openCredentialStore } from './keychain-store.ts';

const tmp = mkdtempSync(join(tmpdir(), 'sb-keychain-'));
const procs: ChildProcess[] = [];
let busAddress = '';
const savedBus = process.env.DBUS_SESSION_BUS_ADDRESS;
const signIn = { baseUrl: 'http://127.0.0.1:1', refreshToken: 'rt-secret-1', sessionId: 's1', deviceName: 'Keychain desk', tenantId: 't1' };
const env = () => ({ PATH: process.env.PATH ?? '', HOME: tmp, XDG_DATA_HOME: join(tmp, 'data'), DBUS_SESSION_BUS_ADDRESS: busAddress });
const lookup = () => {
  try {
    return execFileSync('secret-tool', ['lookup', 'application', 'switchboard', 'kind', 'bridge-signin'], { env: env(), stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return ''; // secret-tool exits 1 when nothing matches
  }
};

before(async () => {
  const bus = spawn('dbus-daemon', ['--session', `--address=unix:path=${join(tmp, 'bus')}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  procs.push(bus);
  busAddress = await new Promise<string>((res) => bus.stdout!.once('data', (d) => res(String(d).trim())));
  const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], { env: env(), stdio: ['pipe', 'pipe', 'ignore'] });
  keyring.stdin!.end('test-password');
  procs.push(keyring);
  // Asked only once the daemon owns the name: a call to org.freedesktop.secrets before that would
  // make the bus start another keyring daemon by activation, one without the password.
  const dbusSend = (...a: string[]) => execFileSync('dbus-send', ['--session', '--print-reply', ...a], { env: env(), stdio: 'pipe' }).toString();
  const end = Date.now() + 15_000;
  for (;;) {
    const owned = /boolean true/.test(dbusSend('--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets'));
    // Then up once the login keyring exists and is unlocked with the password it was given.
    if (owned && /boolean false/.test(dbusSend('--dest=org.freedesktop.secrets', '/org/freedesktop/secrets/collection/login', 'org.freedesktop.DBus.Properties.Get', 'string:org.freedesktop.Secret.Collection', 'string:Locked'))) break;
    if (Date.now() > end) assert.fail('gnome-keyring-daemon did not come up on the test bus');
    await new Promise((r) => setTimeout(r, 100));
  }
  process.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
});
after(() => {
  process.env.DBUS_SESSION_BUS_ADDRESS = savedBus;
  for (const p of procs.reverse()) p.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
});

test('with a Secret Service on the bus the sign-in lives in the keychain, not in a file', async () => {
  const dir = join(tmp, 'cfg1');
  const { store, why } = await openCredentialStore(dir);
  try {
    assert.ok(store instanceof KeychainCredentialStore, why);
    assert.match(why, /OS keychain/);
    assert.equal(await store.load(), null);
    await store.save(signIn);
    assert.deepEqual(JSON.parse(lookup()), signIn, 'another keychain client reads the same item');
    await store.save({ ...signIn, refreshToken: 'rt-secret-2', serviceKey: 'sk-x', serviceKeyId: 'k1' });
    assert.equal((await store.load())?.refreshToken, 'rt-secret-2', 'a save replaces the item');
    assert.equal(JSON.parse(lookup()).refreshToken, 'rt-secret-2');
    assert.equal(existsSync(new FileCredentialStore(dir).file), false, 'nothing written to disk');
    await store.clear();
    assert.equal(await store.load(), null);
    assert.equal(lookup(), '');
  } finally {
    store.close?.();
  }
});

test('a sign-in saved in the file before the keychain was there moves into it', async () => {
  const dir = join(tmp, 'cfg2');
  const file = new FileCredentialStore(dir);
  await file.save(signIn);
  const { store } = await openCredentialStore(dir);
  try {
    assert.ok(store instanceof KeychainCredentialStore);
    assert.deepEqual(await store.load(), signIn);
    assert.equal(existsSync(file.file), false);
    await store.clear();
  } finally {
    store.close?.();
  }
});

test('without a Secret Service the 0600 file is used, and the reason is given', async () => {
  process.env.DBUS_SESSION_BUS_ADDRESS = `unix:path=${join(tmp, 'no-bus-here')}`;
  try {
    const dir = join(tmp, 'cfg3');
    const { store, why } = await openCredentialStore(dir);
    assert.ok(store instanceof FileCredentialStore);
    assert.match(why, /no usable OS keychain .*\(0600\)/);
    await store.save(signIn);
    const f = (store as FileCredentialStore).file;
    assert.equal(statSync(f).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(f, 'utf8')), signIn);
    assert.deepEqual(await store.load(), signIn);
  } finally {
    process.env.DBUS_SESSION_BUS_ADDRESS = busAddress;
  }
});

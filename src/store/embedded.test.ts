// The embedded PostgreSQL of the default run: it starts where a container's root clones the
// project (a 0700 home), its superuser password is random and kept 0600, and it listens on no TCP
// port, so another local user can neither connect nor log in with a known password.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT_BASE_DIR, startEmbeddedPostgres } from './embedded.ts';

const asRoot = process.getuid?.() === 0;

async function query(url: string, text: string): Promise<unknown[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), res(true)));
    s.once('error', () => res(false));
  });
}

test('a DATA_DIR inside a 0700 home starts, with a random 0600 password and no TCP port, and keeps its data over a restart', { timeout: 120_000 }, async () => {
  const home = mkdtempSync(join(tmpdir(), 'sb-home-')); // mode 0700, like a container's /root
  assert.equal(statSync(home).mode & 0o777, 0o700);
  const dataDir = join(home, 'switchboard', 'data');
  const opts = { dataDir: join(dataDir, 'pg'), passwordFile: join(dataDir, 'pg-password'), database: 'switchboard' };
  let location: string | null = null;
  try {
    const db = await startEmbeddedPostgres(opts);
    location = db.location;
    try {
      await query(db.url, 'create table kept (v text); insert into kept values (\'yes\')');
      if (asRoot) {
        // The postgres OS user cannot enter the home: the cluster lives where it can, and
        // DATA_DIR/pg points there.
        assert.ok(db.location.startsWith(`${ROOT_BASE_DIR}/clusters/`), db.location);
        assert.ok(lstatSync(join(dataDir, 'pg')).isSymbolicLink());
        assert.equal(statSync(home).mode & 0o777, 0o700, 'the home folder is left private');
      }
      assert.equal(statSync(db.location).mode & 0o777, 0o700);

      const password = readFileSync(opts.passwordFile, 'utf8').trim();
      assert.equal(statSync(opts.passwordFile).mode & 0o777, 0o600);
      assert.match(password, /^[0-9a-f]{48}$/);
      assert.ok(db.url.includes(password));

      const u = new URL(db.url);
      assert.equal(u.searchParams.get('host'), db.location, 'reached over the Unix socket in its own private directory');
      assert.equal(await tcpOpen(Number(u.port)), false, 'nothing listens on TCP');
      const old = new URL(db.url);
      old.password = 'switchboard';
      await assert.rejects(query(old.toString(), 'select 1'), /password authentication failed/);
    } finally {
      await db.stop();
    }
    const again = await startEmbeddedPostgres(opts);
    try {
      assert.deepEqual(await query(again.url, 'select v from kept'), [{ v: 'yes' }]);
    } finally {
      await again.stop();
    }
  } finally {
    if (location?.startsWith(`${ROOT_BASE_DIR}/`)) rmSync(location, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
});

test('a cluster made with the old fixed password gets a random one on its next start', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-legacy-'));
  const passwordFile = join(dir, 'pg-password');
  const opts = { dataDir: join(dir, 'pg'), passwordFile, database: 'switchboard' };
  let location: string | null = null;
  try {
    // Make the cluster, then put it in the state an older release left: password 'switchboard',
    // no password file.
    const first = await startEmbeddedPostgres(opts);
    location = first.location;
    await query(first.url, `alter role postgres password 'switchboard'`);
    await first.stop();
    rmSync(passwordFile);

    const db = await startEmbeddedPostgres(opts);
    try {
      const password = readFileSync(passwordFile, 'utf8').trim();
      assert.notEqual(password, 'switchboard');
      assert.deepEqual(await query(db.url, 'select 1 as one'), [{ one: 1 }]);
      const old = new URL(db.url);
      old.password = 'switchboard';
      await assert.rejects(query(old.toString(), 'select 1'), /password authentication failed/);
    } finally {
      await db.stop();
    }
  } finally {
    if (location?.startsWith(`${ROOT_BASE_DIR}/`)) rmSync(location, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a non-empty folder that holds no cluster is refused with a message, not overwritten', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sb-notpg-'));
  chmodSync(dir, 0o755); // reachable, so the check is about the folder's content
  try {
    mkdirSync(join(dir, 'pg'));
    writeFileSync(join(dir, 'pg', 'notes.txt'), 'mine');
    await assert.rejects(startEmbeddedPostgres({ dataDir: join(dir, 'pg') }), /holds no PostgreSQL cluster/);
    assert.equal(readFileSync(join(dir, 'pg', 'notes.txt'), 'utf8'), 'mine');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

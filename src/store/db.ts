// The database handle: one pg pool wrapped by Kysely. int8 columns (all money and token amounts)
// are parsed to bigint so no amount ever passes through a JS number (D1).
import pg from 'pg';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import type { DB } from './schema.ts';

pg.types.setTypeParser(pg.types.builtins.INT8, (v) => BigInt(v));

export type Db = Kysely<DB>;
export type Tx = Transaction<DB>;
/** Either a plain handle or a transaction: repos take this so callers choose atomicity. */
export type Executor = Db | Tx;

export function createDb(connectionString: string, max = 20): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client's network error must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}

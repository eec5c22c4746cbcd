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

/** Statement text → name, for the hot path's statements (namedStatement). */
const NAMED = new Map<string, string>();

/**
 * Register a hot statement: wherever its exact text is run (Kysely CompiledQuery.raw or sql``
 * compiled to the same text), the pool runs it as a named prepared statement, parsed and planned
 * once per connection instead of on every call.
 */
export function namedStatement(name: string, text: string): string {
  const had = NAMED.get(text);
  if (had !== undefined && had !== name) throw new Error(`statement registered twice: ${had} and ${name}`);
  NAMED.set(text, name);
  return text;
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * A named statement run as pg runs `query({ name, text, values })`, without pg copying that config
 * object first (`cloneQueryConfig`: property descriptors onto a fresh object, several µs per
 * statement, one or more per settled call): the Query is built from the text, which pg does not
 * copy, and named before it is submitted. The promise settles, and a failure's stack is replaced,
 * as pg's own promise does.
 */
function namedQuery(query: QueryFn, name: string, text: string, values: unknown[]): Promise<pg.QueryResult> {
  const q = new pg.Query(text, values) as pg.Query & { name?: string; callback?: (err: Error | undefined, res: pg.QueryResult) => void };
  q.name = name;
  return new Promise<pg.QueryResult>((resolve, reject) => {
    q.callback = (err, res) => (err ? reject(err) : resolve(res));
    query(q);
  }).catch((err: Error) => {
    Error.captureStackTrace(err);
    throw err;
  });
}

export function createDb(connectionString: string, max = 20): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max, idleTimeoutMillis: 30_000 });
  // An idle client's network error must not crash the process; the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    // A checked-out client whose server goes away emits 'error' with no query to report it to;
    // without a listener that is an uncaught exception. The query in flight still fails, and the
    // pool drops the broken client when it is released.
    client.on('error', () => {});
    const query = client.query.bind(client) as QueryFn;
    (client as unknown as { query: QueryFn }).query = (text: unknown, values?: unknown, cb?: unknown) => {
      const name = typeof text === 'string' && Array.isArray(values) ? NAMED.get(text) : undefined;
      if (name === undefined) return query(text, values, cb);
      if (cb !== undefined) return query({ name, text, values }, cb);
      return namedQuery(query, name, text as string, values as unknown[]);
    };
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, pool };
}

// The serving replicas' traffic as a worker that serves none sees it (pacing.ts, shared/traffic.ts):
// PostgreSQL's cumulative count of rows inserted into call_logs, which every call that ends adds
// one to, whichever replica served it. Read from the statistics in shared memory: no table is
// touched and nothing is locked.
import { sql } from 'kysely';
import type { Db } from '../../store/db.ts';

export async function callLogsWritten(db: Db): Promise<bigint> {
  const r = await sql<{ n: string }>`select pg_stat_get_tuples_inserted('call_logs'::regclass)::text as n`.execute(db);
  return BigInt(r.rows[0].n);
}

// A cheap fingerprint of the whole database (issue 24 item 4): per table of the schema, its row
// count and its newest row version (xmin), or an order-independent hash of every row's content
// where some columns must be left out, built from information_schema at
// start so a new table or column is covered without editing this file. Two fingerprints are
// equal only if no row was inserted, deleted or changed, so a 4xx that wrote part of its work
// (a "partial write") shows up as a difference.
//
// Left out, each for a stated reason, because they move without the request meaning to write:
import { sql, type Kysely } from 'kysely';

/** Columns touched by authenticating or by background timers of the serving process. */
const VOLATILE: Record<string, string[]> = {
  // The key cache flushes "last used" every 5 s for every authenticated key, 4xx calls included.
  api_keys: ['last_used_at'],
  personal_access_tokens: ['last_used_at'],
  // Every authenticated request refreshes its session's idle clock (D2 idle sign-out).
  sessions: ['last_seen_at'],
  // The outbox relay stamps rows it has published (rows themselves are counted and hashed).
  event_outbox: ['published_at'],
  // Admission leases (D8) are taken and released by a 1 s timer; balances and ledger seq stay in.
  wallets: ['reserved_micros', 'updated_at'],
  // D2: failed sign-ins count towards the lockout; that write is the point of a 401 there.
  users: ['failed_logins', 'locked_until', 'updated_at'],
};

/** Rows left out of a table, for the same reasons. */
const ROW_FILTER: Record<string, string> = {
  reservations: "kind <> 'lease'",
  // D2: a failed sign-in and a lock-out are audited (append-only chain); that is their purpose.
  security_audit: "event not in ('login_failed', 'account_locked')",
};

const SKIP = new Set(['schema_migrations', 'schema_migrations_lock']);

export interface Fingerprinter {
  take(): Promise<Map<string, string>>;
  tables: string[];
}

export async function fingerprinter(db: Kysely<any>): Promise<Fingerprinter> {
  const cols = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE' order by c.table_name, c.ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const r of cols.rows) {
    if (SKIP.has(r.table_name) || VOLATILE[r.table_name]?.includes(r.column_name)) continue;
    byTable.set(r.table_name, [...(byTable.get(r.table_name) ?? []), r.column_name]);
  }
  const q = (id: string) => `"${id.replace(/"/g, '""')}"`;
  const parts = [...byTable].map(([t, cs]) => {
    const where = ROW_FILTER[t] ? ` where ${ROW_FILTER[t]}` : '';
    // Without volatile columns, the newest row version (xmin) says the same as a hash of every row,
    // for much less work: an insert or update makes a new version, a delete lowers the count.
    if (!VOLATILE[t]) return `select '${t}' as t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text as f from ${q(t)}${where}`;
    return `select '${t}' as t, count(*)::text || ':' || coalesce(sum(hashtextextended(row(${cs.map(q).join(', ')})::text, 0)::numeric), 0)::text as f from ${q(t)}${where}`;
  });
  // Jobs enqueued in a request's transaction (pg-boss's own schema), counted. Left out: pg-boss's
  // internal queues, and the queues that pg-boss's clock fills from a cron schedule (the sweeps,
  // the QA scorer, the roll-ups: a job every minute, whatever the requests do; a fingerprint taken
  // either side of a minute's turn differed without any request having written).
  parts.push(
    `select 'pgboss.job' as t, count(*)::text as f from pgboss.job where name not like '\\_\\_pgboss%' and name not in (select name from pgboss.schedule)`,
  );
  const text = parts.join(' union all ');
  return {
    tables: [...byTable.keys()],
    async take() {
      const r = await sql.raw<{ t: string; f: string }>(text).execute(db);
      return new Map(r.rows.map((x) => [x.t, x.f]));
    },
  };
}

/** The tables whose fingerprint differs. */
export function changed(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
}

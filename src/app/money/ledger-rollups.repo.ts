// The ledger's hourly rollups (migrations 025, 025c) and the sums the insights and the wallet's
// runway read through them.
//
// rollUpLedger adds each tenant's AI_USAGE entries above its watermark (insights_rollup_state.
// last_seq) to their (UTC hour, project) buckets, in one transaction that also moves the watermark,
// with the state row locked so two workers never add an entry twice. A tenant's sequence numbers
// commit in order (the wallet row is locked from the sequence bump to the commit), so when the
// wallet says ledger_seq = N, every entry up to N is visible.
//
// ledgerSums answers "what did [from, to) cost" exactly, whatever the rollup's progress: whole UTC
// hours inside the range come from the buckets, and the ledger itself supplies the partial hours at
// the range's edges and every entry above the watermark. With no rollup at all it is a plain scan.
//
// The sums (D7, D8a vocabulary at the edge): burn = Σ −amount; compared burn, baseline and actual
// = the same over entries priced against a benchmark (baseline not null; settlement writes actual
// whenever it writes a baseline); calls = first attempts (call-log rows without a parent, an entry
// without a call-log row counting as a call); escalations = escalated attempts.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../store/schema.ts';
import { rollUpCalls } from './call-rollups.repo.ts';

const HOUR = 3_600_000;
/** Entries added per transaction: a backlog is worked off in bounded steps. */
const CHUNK = 50_000n;

export interface Sums {
  key: string;
  burn: bigint;
  compared: bigint;
  baseline: bigint;
  actual: bigint;
  calls: bigint;
  escalations: bigint;
  /** Succeeded attempts (entries with their call-log row) and their tokens. */
  attempts: bigint;
  tokens: bigint;
}
export type GroupBy = 'none' | 'day' | 'hour' | 'project';

/** The bucket of entries without a project (none today: every AI_USAGE entry has one). */
const NO_PROJECT = '00000000-0000-0000-0000-000000000000';

const floorHour = (d: Date) => new Date(Math.floor(d.getTime() / HOUR) * HOUR);
const ceilHour = (d: Date) => new Date(Math.ceil(d.getTime() / HOUR) * HOUR);

const rawKey = (g: GroupBy): RawBuilder<string> =>
  g === 'day'
    ? sql<string>`to_char(l.created_at at time zone 'UTC', 'YYYY-MM-DD')`
    : g === 'hour'
      ? sql<string>`to_char(date_trunc('hour', l.created_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24:00:00"Z"')`
      : g === 'project' ? sql<string>`l.project_id::text` : sql<string>`''`;
const bucketKey = (g: GroupBy): RawBuilder<string> =>
  g === 'day'
    ? sql<string>`to_char(b.hour at time zone 'UTC', 'YYYY-MM-DD')`
    : g === 'hour'
      ? sql<string>`to_char(b.hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24:00:00"Z"')`
      : g === 'project' ? sql<string>`nullif(b.project_id, ${NO_PROJECT}::uuid)::text` : sql<string>`''`;

const MONEY_SUMS = sql`
  coalesce(sum(-l.amount_micros), 0)::bigint as burn,
  coalesce(sum(-l.amount_micros) filter (where l.baseline_cost_usd_micros is not null), 0)::bigint as compared,
  coalesce(sum(l.baseline_cost_usd_micros), 0)::bigint as baseline,
  coalesce(sum(l.actual_cost_usd_micros) filter (where l.baseline_cost_usd_micros is not null), 0)::bigint as actual`;
const RAW_SUMS = sql`${MONEY_SUMS},
  count(*) filter (where c.parent_call_id is null)::bigint as calls,
  count(*) filter (where c.escalated)::bigint as escalations,
  count(c.id)::bigint as attempts,
  coalesce(sum(c.input_tokens + c.output_tokens), 0)::bigint as tokens`;
/** Money only: no call-log lookup per entry (calls, escalations, attempts and tokens read 0). */
const MONEY_ONLY = sql`${MONEY_SUMS}, 0::bigint as calls, 0::bigint as escalations, 0::bigint as attempts, 0::bigint as tokens`;

/** Exact sums of a tenant's AI_USAGE entries with from <= created_at < to, whole or grouped. */
export async function ledgerSums(
  db: Kysely<DB>,
  tenantId: string,
  from: Date,
  to: Date,
  groupBy: GroupBy = 'none',
  opts: { calls?: boolean } = {},
): Promise<Sums[]> {
  // Calls and escalations need each raw entry's call-log row; the money screens do not ask for them.
  const withCalls = opts.calls ?? false;
  const sums = withCalls ? RAW_SUMS : MONEY_ONLY;
  const from_ = withCalls ? sql`ledger_entries l left join call_logs c on c.id = l.call_id` : sql`ledger_entries l`;
  const state = await db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', tenantId).executeTakeFirst();
  const watermark = state?.last_seq ?? 0n;
  const a = ceilHour(from);
  const b = floorHour(to);
  const useBuckets = watermark > 0n && a < b;
  const parts: RawBuilder<unknown>[] = [];
  if (useBuckets) {
    parts.push(sql`
      select ${bucketKey(groupBy)} as key, sum(b.burn_micros)::bigint as burn, sum(b.compared_burn_micros)::bigint as compared,
             sum(b.baseline_micros)::bigint as baseline, sum(b.actual_micros)::bigint as actual, ${withCalls ? sql`sum(b.calls)::bigint` : sql`0::bigint`} as calls,
             ${withCalls ? sql`sum(b.escalations)::bigint` : sql`0::bigint`} as escalations,
             ${withCalls ? sql`sum(b.attempts)::bigint` : sql`0::bigint`} as attempts,
             ${withCalls ? sql`sum(b.tokens)::bigint` : sql`0::bigint`} as tokens
        from insights_ledger_hourly b
       where b.tenant_id = ${tenantId} and b.hour >= ${a} and b.hour < ${b}
       group by 1`);
    // The partial days at both edges, for entries already in the buckets of those days.
    parts.push(sql`
      select ${rawKey(groupBy)} as key, ${sums}
        from ${from_}
       where l.tenant_id = ${tenantId} and l.event_type = 'AI_USAGE' and l.seq <= ${watermark}
         and ((l.created_at >= ${from} and l.created_at < ${a}) or (l.created_at >= ${b} and l.created_at < ${to}))
       group by 1`);
    // Everything not rolled up yet.
    parts.push(sql`
      select ${rawKey(groupBy)} as key, ${sums}
        from ${from_}
       where l.tenant_id = ${tenantId} and l.event_type = 'AI_USAGE' and l.seq > ${watermark}
         and l.created_at >= ${from} and l.created_at < ${to}
       group by 1`);
  } else {
    parts.push(sql`
      select ${rawKey(groupBy)} as key, ${sums}
        from ${from_}
       where l.tenant_id = ${tenantId} and l.event_type = 'AI_USAGE' and l.created_at >= ${from} and l.created_at < ${to}
       group by 1`);
  }
  const r = await sql<Sums>`
    select key, sum(burn)::bigint as burn, sum(compared)::bigint as compared, sum(baseline)::bigint as baseline,
           sum(actual)::bigint as actual, sum(calls)::bigint as calls, sum(escalations)::bigint as escalations,
           sum(attempts)::bigint as attempts, sum(tokens)::bigint as tokens
      from (${sql.join(parts, sql` union all `)}) x
     group by key order by key`.execute(db);
  if (groupBy === 'none' && r.rows.length === 0) return [{ key: '', burn: 0n, compared: 0n, baseline: 0n, actual: 0n, calls: 0n, escalations: 0n, attempts: 0n, tokens: 0n }];
  return r.rows;
}

/**
 * Add every tenant's (or one tenant's) entries above its watermark to the buckets, in chunks.
 * Returns how many entries were added. Safe to run from several workers at once.
 */
export async function rollUpLedger(db: Kysely<DB>, onlyTenant?: string): Promise<number> {
  let q = db
    .selectFrom('wallets as w')
    .leftJoin('insights_rollup_state as s', 's.tenant_id', 'w.tenant_id')
    .select(['w.tenant_id', 'w.ledger_seq', 's.last_seq'])
    .where(sql<boolean>`w.ledger_seq > coalesce(s.last_seq, 0)`);
  if (onlyTenant) q = q.where('w.tenant_id', '=', onlyTenant);
  const due = await q.execute();
  let added = 0;
  for (const t of due) {
    for (;;) {
      const n = await rollUpChunk(db, t.tenant_id, t.ledger_seq);
      if (n === null) break;
      added += n;
    }
  }
  return added;
}

/** One transaction: up to CHUNK entries above the watermark (and at most `upTo`). Null when nothing was left. */
async function rollUpChunk(db: Kysely<DB>, tenantId: string, upTo: bigint): Promise<number | null> {
  return db.transaction().execute(async (tx) => {
    await tx.insertInto('insights_rollup_state').values({ tenant_id: tenantId }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute();
    const st = await tx.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', tenantId).forUpdate().executeTakeFirstOrThrow();
    const from = st.last_seq;
    if (from >= upTo) return null;
    const to = from + CHUNK < upTo ? from + CHUNK : upTo;
    const r = await sql<{ n: bigint }>`
      with added as (
        insert into insights_ledger_hourly as b (tenant_id, hour, project_id, burn_micros, compared_burn_micros, baseline_micros, actual_micros, calls, escalations, attempts, tokens)
        select ${tenantId}::uuid, (date_trunc('hour', l.created_at at time zone 'UTC') at time zone 'UTC'), coalesce(l.project_id, ${NO_PROJECT}::uuid), ${RAW_SUMS}
          from ledger_entries l left join call_logs c on c.id = l.call_id
         where l.tenant_id = ${tenantId} and l.seq > ${from} and l.seq <= ${to} and l.event_type = 'AI_USAGE'
         group by 2, 3
        on conflict (tenant_id, hour, project_id) do update set
          burn_micros = b.burn_micros + excluded.burn_micros,
          compared_burn_micros = b.compared_burn_micros + excluded.compared_burn_micros,
          baseline_micros = b.baseline_micros + excluded.baseline_micros,
          actual_micros = b.actual_micros + excluded.actual_micros,
          calls = b.calls + excluded.calls,
          escalations = b.escalations + excluded.escalations,
          attempts = b.attempts + excluded.attempts,
          tokens = b.tokens + excluded.tokens
        returning 1)
      select count(*)::bigint as n from added`.execute(tx);
    await rollUpCalls(tx, tenantId, from, to);
    await tx.updateTable('insights_rollup_state').set({ last_seq: to, updated_at: sql`now()` }).where('tenant_id', '=', tenantId).execute();
    return Number(r.rows[0]?.n ?? 0n);
  });
}

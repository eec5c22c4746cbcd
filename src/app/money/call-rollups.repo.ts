// The call log's side of the insights' rollups (migration 025b): what the usage and audit tabs
// count. rollUpCalls adds a chunk of a tenant's ledger sequence (the same chunk, in the same
// transaction, as the ledger's buckets: rollups.repo.ts) to the calls and paths buckets; every
// succeeded call has exactly one AI_USAGE entry, so the sequence watermark covers them too.
//
// callSums and pathSums are exact for any range: whole UTC days from the buckets, the partial days
// at the edges from the call log itself (all of their rows), and the calls of whole days whose
// entries are above the watermark through the ledger's sequence index. They count succeeded calls;
// failedAttempts, unscoredAttempts and belowFloorAttempts read the few other rows live.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../store/schema.ts';
import type { Tx } from '../../store/db.ts';

const DAY = 86_400_000;
const floorDay = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
const ceilDay = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export async function watermarkOf(db: Kysely<DB>, tenantId: string): Promise<bigint> {
  const st = await db.selectFrom('insights_rollup_state').select('last_seq').where('tenant_id', '=', tenantId).executeTakeFirst();
  return st?.last_seq ?? 0n;
}

/** Inside the ledger rollup's transaction: the same entries' calls into the calls and paths buckets. */
export async function rollUpCalls(tx: Tx, tenantId: string, fromSeq: bigint, toSeq: bigint): Promise<void> {
  await sql`
    insert into insights_calls_daily as b (tenant_id, day, project_id, task_family, model_class, escalated, first_attempt, attempts, tokens, debited_micros)
    select ${tenantId}::uuid, (c.created_at at time zone 'UTC')::date, c.project_id, coalesce(c.task_family, ''), coalesce(c.model_class, ''),
           c.escalated, c.parent_call_id is null, count(*), coalesce(sum(c.input_tokens + c.output_tokens), 0), coalesce(sum(c.debited_micros), 0)
      from ledger_entries l join call_logs c on c.id = l.call_id
     where l.tenant_id = ${tenantId} and l.seq > ${fromSeq} and l.seq <= ${toSeq} and l.event_type = 'AI_USAGE' and c.status = 'succeeded'
     group by 2, 3, 4, 5, 6, 7
    on conflict (tenant_id, day, project_id, task_family, model_class, escalated, first_attempt) do update set
      attempts = b.attempts + excluded.attempts, tokens = b.tokens + excluded.tokens, debited_micros = b.debited_micros + excluded.debited_micros`.execute(tx);
  await sql`
    insert into insights_paths_daily as b (tenant_id, day, provider_key, model_id, region, attempts)
    select ${tenantId}::uuid, (c.created_at at time zone 'UTC')::date, c.provider_key, coalesce(c.model_id, ''), coalesce(c.region, ''), count(*)
      from ledger_entries l join call_logs c on c.id = l.call_id
     where l.tenant_id = ${tenantId} and l.seq > ${fromSeq} and l.seq <= ${toSeq} and l.event_type = 'AI_USAGE' and c.status = 'succeeded'
       and c.provider_key is not null
     group by 2, 3, 4, 5
    on conflict (tenant_id, day, provider_key, model_id, region) do update set attempts = b.attempts + excluded.attempts`.execute(tx);
}

export type CallGroup = 'none' | 'family' | 'project' | 'class';
export interface CallSums {
  key: string;
  attempts: bigint;
  firsts: bigint;
  escalated: bigint;
  tokens: bigint;
  debited: bigint;
}

/** The three parts of a range: buckets for whole days [a, b), the edges and what is above the watermark. */
function plan(from: Date, to: Date, watermark: bigint) {
  const a = ceilDay(from);
  const b = floorDay(to);
  return { a, b, buckets: watermark > 0n && a < b };
}

/** Every dimension of a bucket, from raw call-log rows. */
const RAW_DIMS = sql`c.project_id::text as project, coalesce(c.task_family, '') as family, coalesce(c.model_class, '') as class,
  c.escalated as esc, c.parent_call_id is null as first, count(*)::bigint as attempts,
  coalesce(sum(c.input_tokens + c.output_tokens), 0)::bigint as tokens, coalesce(sum(c.debited_micros), 0)::bigint as debited`;

/**
 * Succeeded calls with from <= created_at < to, for several groupings at once (one pass over the
 * raw edges, GROUPING SETS over the union; all four are computed, those asked for are returned):
 * key '' = the whole / no family / no class.
 */
export async function callSumsBy<G extends CallGroup>(db: Kysely<DB>, tenantId: string, from: Date, to: Date, groups: readonly G[]): Promise<Record<G, CallSums[]>> {
  const w = await watermarkOf(db, tenantId);
  const { a, b, buckets } = plan(from, to, w);
  const parts: RawBuilder<unknown>[] = buckets
    ? [
        sql`select b.project_id::text as project, b.task_family as family, b.model_class as class, b.escalated as esc, b.first_attempt as first,
                   sum(b.attempts)::bigint as attempts, sum(b.tokens)::bigint as tokens, sum(b.debited_micros)::bigint as debited
              from insights_calls_daily b
             where b.tenant_id = ${tenantId} and b.day >= ${isoDay(a)}::date and b.day < ${isoDay(b)}::date group by 1, 2, 3, 4, 5`,
        sql`select ${RAW_DIMS} from call_logs c
             where c.tenant_id = ${tenantId} and c.status = 'succeeded'
               and ((c.created_at >= ${from} and c.created_at < ${a}) or (c.created_at >= ${b} and c.created_at < ${to})) group by 1, 2, 3, 4, 5`,
        sql`select ${RAW_DIMS} from ledger_entries l join call_logs c on c.id = l.call_id
             where l.tenant_id = ${tenantId} and l.seq > ${w} and l.event_type = 'AI_USAGE' and c.status = 'succeeded'
               and c.created_at >= ${a} and c.created_at < ${b} group by 1, 2, 3, 4, 5`,
      ]
    : [
        sql`select ${RAW_DIMS} from call_logs c
             where c.tenant_id = ${tenantId} and c.status = 'succeeded' and c.created_at >= ${from} and c.created_at < ${to} group by 1, 2, 3, 4, 5`,
      ];
  const r = await sql<{ g_project: number; g_family: number; g_class: number; project: string | null; family: string | null; class: string | null } & Omit<CallSums, 'key'>>`
    select grouping(project) as g_project, grouping(family) as g_family, grouping(class) as g_class, project, family, class,
           coalesce(sum(attempts), 0)::bigint as attempts, coalesce(sum(attempts) filter (where first), 0)::bigint as firsts,
           coalesce(sum(attempts) filter (where esc), 0)::bigint as escalated, coalesce(sum(tokens), 0)::bigint as tokens,
           coalesce(sum(debited), 0)::bigint as debited
      from (${sql.join(parts, sql` union all `)}) x
     group by grouping sets ((), (project), (family), (class))`.execute(db);
  const out = {} as Record<G, CallSums[]>;
  for (const g of groups) {
    const rows = r.rows.filter((x) =>
      g === 'none' ? x.g_project && x.g_family && x.g_class : g === 'project' ? !x.g_project && x.g_family && x.g_class : g === 'family' ? x.g_project && !x.g_family && x.g_class : x.g_project && x.g_family && !x.g_class,
    );
    const key = (x: (typeof rows)[number]) => (g === 'project' ? x.project : g === 'family' ? x.family : g === 'class' ? x.class : '') ?? '';
    out[g] = rows.map((x) => ({ key: key(x), attempts: x.attempts, firsts: x.firsts, escalated: x.escalated, tokens: x.tokens, debited: x.debited })).sort((p, q) => (p.key < q.key ? -1 : p.key > q.key ? 1 : 0));
    if (g === 'none' && out[g].length === 0) out[g] = [{ key: '', attempts: 0n, firsts: 0n, escalated: 0n, tokens: 0n, debited: 0n }];
  }
  return out;
}

/** Succeeded calls with from <= created_at < to, whole or grouped (key '' = none / no family / no class). */
export async function callSums(db: Kysely<DB>, tenantId: string, from: Date, to: Date, g: CallGroup = 'none'): Promise<CallSums[]> {
  return (await callSumsBy(db, tenantId, from, to, [g]))[g];
}

/** Succeeded calls by delivery path (provider, model, region; '' where the call log has none). */
export async function pathSums(db: Kysely<DB>, tenantId: string, from: Date, to: Date): Promise<Array<{ provider: string; model: string; region: string; attempts: bigint }>> {
  const w = await watermarkOf(db, tenantId);
  const { a, b, buckets } = plan(from, to, w);
  const raw = sql`c.provider_key as provider, coalesce(c.model_id, '') as model, coalesce(c.region, '') as region, count(*)::bigint as attempts`;
  const parts: RawBuilder<unknown>[] = buckets
    ? [
        sql`select b.provider_key as provider, b.model_id as model, b.region, sum(b.attempts)::bigint as attempts from insights_paths_daily b
             where b.tenant_id = ${tenantId} and b.day >= ${isoDay(a)}::date and b.day < ${isoDay(b)}::date group by 1, 2, 3`,
        sql`select ${raw} from call_logs c where c.tenant_id = ${tenantId} and c.status = 'succeeded' and c.provider_key is not null
               and ((c.created_at >= ${from} and c.created_at < ${a}) or (c.created_at >= ${b} and c.created_at < ${to})) group by 1, 2, 3`,
        sql`select ${raw} from ledger_entries l join call_logs c on c.id = l.call_id
             where l.tenant_id = ${tenantId} and l.seq > ${w} and l.event_type = 'AI_USAGE' and c.status = 'succeeded' and c.provider_key is not null
               and c.created_at >= ${a} and c.created_at < ${b} group by 1, 2, 3`,
      ]
    : [
        sql`select ${raw} from call_logs c where c.tenant_id = ${tenantId} and c.status = 'succeeded' and c.provider_key is not null
               and c.created_at >= ${from} and c.created_at < ${to} group by 1, 2, 3`,
      ];
  const r = await sql<{ provider: string; model: string; region: string; attempts: bigint }>`
    select provider, model, region, sum(attempts)::bigint as attempts from (${sql.join(parts, sql` union all `)}) x
     group by 1, 2, 3 order by 4 desc, 1, 2, 3`.execute(db);
  return r.rows;
}

/** The attempts that are not in the buckets (failed) and the QA counts, live through partial indexes. */
export async function liveAttemptCounts(db: Kysely<DB>, tenantId: string, from: Date, to: Date) {
  const [failed, unscored, below] = await Promise.all([
    sql<{ key_class: string; key_family: string; attempts: bigint; escalated: bigint }>`
      select coalesce(model_class, '') as key_class, coalesce(task_family, '') as key_family, count(*)::bigint as attempts,
             count(*) filter (where escalated)::bigint as escalated
        from call_logs where tenant_id = ${tenantId} and status = 'failed' and created_at >= ${from} and created_at < ${to} group by 1, 2`.execute(db),
    sql<{ n: bigint }>`select count(*)::bigint as n from call_logs where tenant_id = ${tenantId} and qa is null and created_at >= ${from} and created_at < ${to}`.execute(db),
    sql<{ n: bigint }>`select count(*)::bigint as n from call_logs where tenant_id = ${tenantId} and (qa->>'belowFloor')::boolean and created_at >= ${from} and created_at < ${to}`.execute(db),
  ]);
  return { failed: failed.rows, unscored: unscored.rows[0]!.n, below: below.rows[0]!.n };
}

// The insights domain's statements of the activity feed (docs/layout.md: SQL in *.repo.ts;
// activity.ts keeps the cursor, the merge of the three sources and the item shapes). Each source
// reads its next `limit` rows strictly after the cursor in (time, source, id) descending order.
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** Sources in their tie-break order (a higher rank comes first at the same microsecond). */
export type Source = 'a' | 'c' | 'w';
export interface Key {
  /** created_at as 'YYYY-MM-DDTHH:MI:SS.ffffffZ' (sorts as text). */
  at: string;
  src: Source;
  /** The row id: a UUID (calls, ledger) or the outbox's integer id (alerts). */
  k: string;
}

const atKey = (col: string) => sql.raw(`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

/** Rows of source `src` strictly after the cursor in (at, src, id) descending order. */
function after(src: Source, cur: Key | null, col: { at: string; id: string; idCast: 'uuid' | 'bigint' }) {
  if (!cur) return sql``;
  const at = sql.raw(col.at);
  const id = sql.raw(col.id);
  const ts = sql`${cur.at}::timestamptz`;
  if (src < cur.src) return sql`and ${at} <= ${ts}`;
  if (src > cur.src) return sql`and ${at} < ${ts}`;
  const k = col.idCast === 'uuid' ? sql`${cur.k}::uuid` : sql`${cur.k}::bigint`;
  return sql`and ${at} <= ${ts} and (${at} < ${ts} or ${id} < ${k})`;
}

export interface CallFilters {
  projectId?: string;
  channel?: string;
  /** An ILIKE pattern over the prompt excerpt and project name (and the model id unless `customer`). */
  like: string | null;
  customer?: boolean;
}

/** Succeeded calls (AI usage and escalations) with their project's name. */
export async function feedCalls(db: Executor, tenantId: string, f: CallFilters, cur: Key | null, n: number) {
  const like = f.like;
  return (
    await sql<{ id: string; at_key: string; project_id: string; project_name: string; channel: string; escalated: boolean; model_class: string | null; debited_micros: bigint; baseline: bigint | null; actual: bigint | null; excerpt: string; provider_key: string | null; model_id: string | null; region: string | null }>`
      select c.id, ${atKey('c.created_at')} as at_key, c.project_id, p.name as project_name, c.channel, c.escalated, c.model_class, c.debited_micros,
             c.baseline_cost_usd_micros as baseline, c.actual_cost_usd_micros as actual, c.prompt_excerpt as excerpt,
             c.provider_key, c.model_id, c.region
        from call_logs c join projects p on p.id = c.project_id
       where c.tenant_id = ${tenantId} and c.status = 'succeeded'
         ${f.projectId ? sql`and c.project_id = ${f.projectId}` : sql``}
         ${f.channel ? sql`and split_part(c.channel, ':', 1) = ${f.channel}` : sql``}
         ${like ? sql`and (c.prompt_excerpt ilike ${like} or p.name ilike ${like} ${f.customer ? sql`` : sql`or c.model_id ilike ${like}`})` : sql``}
         ${after('c', cur, { at: 'c.created_at', id: 'c.id', idCast: 'uuid' })}
       order by c.created_at desc, c.id desc limit ${n}`.execute(db)
  ).rows;
}

/** Top-ups, refunds and adjustments from the ledger. */
export async function feedWalletEntries(db: Executor, tenantId: string, cur: Key | null, n: number) {
  return (
    await sql<{ id: string; at_key: string; amount_micros: bigint; customer_label: string }>`
      select id, ${atKey('created_at')} as at_key, amount_micros, customer_label from ledger_entries
       where tenant_id = ${tenantId} and event_type in ('WALLET_TOPUP', 'REFUND', 'ADJUSTMENT')
         ${after('w', cur, { at: 'created_at', id: 'id', idCast: 'uuid' })}
       order by created_at desc, id desc limit ${n}`.execute(db)
  ).rows;
}

/** Balance and runway alerts still in the event outbox (its 24-hour retention). */
export async function feedAlerts(db: Executor, tenantId: string, cur: Key | null, n: number) {
  return (
    await sql<{ id: string; at_key: string; type: 'wallet.threshold' | 'runway.threshold'; payload: Record<string, unknown> }>`
      select id::text as id, ${atKey('created_at')} as at_key, frame->>'type' as type, frame->'payload' as payload from event_outbox
       where tenant_id = ${tenantId} and frame->>'type' in ('wallet.threshold', 'runway.threshold')
         ${after('a', cur, { at: 'created_at', id: 'id', idCast: 'bigint' })}
       order by created_at desc, id desc limit ${n}`.execute(db)
  ).rows;
}

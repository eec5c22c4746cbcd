// The quality loop's statements (docs/layout.md: SQL in *.repo.ts; rules.ts and scoring.ts keep
// the rules: the derivation, the scoring, the batch sizes and the transactions).
import { sql } from 'kysely';
import type { Executor } from '../../../store/db.ts';

// Layer 3 rule sets (rules.ts).

/** The newest rule set, if any. */
export async function latestRuleset(db: Executor) {
  return db.selectFrom('layer3_rulesets').select(['version', 'rules']).orderBy('version', 'desc').limit(1).executeTakeFirst();
}

/** QA outcomes per (family, class, endpoint) of the scored, succeeded call-log rows since `since`. */
export async function scoreStatsSince(db: Executor, since: Date) {
  const r = await sql<{ task_family: string; model_class: string; endpoint: string; attempts: bigint; below: bigint; escalations: bigint }>`
    select task_family, model_class, provider_key || '/' || model_id || '@' || region as endpoint,
           count(*) as attempts,
           count(*) filter (where escalated or (qa->>'belowFloor')::boolean) as below,
           count(*) filter (where escalated) as escalations
      from call_logs
     where created_at >= ${since} and status = 'succeeded' and qa is not null
       and task_family is not null and model_class is not null and provider_key is not null
     group by 1, 2, 3`.execute(db);
  return r.rows;
}

/** Serialises derivation runs for the rest of the transaction (two workers never mint the same version). */
export async function lockDerivation(tx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended('layer3-derive', 0))`.execute(tx);
}

export async function insertRuleset(
  tx: Executor,
  v: { version: bigint; rulesJson: string; rulesVersion: string; statsWindowMs: bigint; callsConsidered: bigint; at: Date },
): Promise<void> {
  await tx
    .insertInto('layer3_rulesets')
    .values({ version: v.version, rules: v.rulesJson, rules_version: v.rulesVersion, stats_window_ms: v.statsWindowMs, calls_considered: v.callsConsidered, created_at: v.at })
    .execute();
}

/** The change-log rows of one rule set version (at least one). */
export async function insertRuleChanges(
  tx: Executor,
  version: bigint,
  changes: Array<{ change: 'added' | 'removed' | 'renewed'; ruleId: string; ruleJson: string; reason: string }>,
  at: Date,
): Promise<void> {
  await tx
    .insertInto('layer3_rule_changes')
    .values(changes.map((c) => ({ ruleset_version: version, change: c.change, rule_id: c.ruleId, rule: c.ruleJson, reason: c.reason, created_at: at })))
    .execute();
}

// QA scoring (scoring.ts).

/** A settled call waiting for its score, with what scoring it needs. */
export interface PendingScore {
  id: string;
  tenant_id: string;
  project_id: string;
  key_id: string | null;
  channel: string;
  escalated: boolean;
  request: unknown;
  response: unknown;
  quality_floor: string;
}

/** Claims up to `limit` settled, unscored calls, oldest first (FOR UPDATE of the call-log rows, SKIP LOCKED). */
export async function claimUnscored(tx: Executor, limit: number): Promise<PendingScore[]> {
  const r = await sql<PendingScore>`
      select c.id, c.tenant_id, c.project_id, c.key_id, c.channel, c.escalated, o.request, o.response, p.quality_floor
        from call_logs c
        join learning_outbox o on o.call_id = c.id
        join projects p on p.id = c.project_id
       where c.qa_scored_at is null and c.status = 'succeeded'
       order by c.created_at
       limit ${limit}
       for update of c skip locked`.execute(tx);
  return r.rows;
}

/** The rest of the transaction commits without waiting for the disk. */
export async function asyncCommit(tx: Executor): Promise<void> {
  await sql`set local synchronous_commit = off`.execute(tx);
}

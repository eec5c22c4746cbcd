// The insights domain's statements on tenants, users, projects and the audit tab's logs
// (docs/layout.md: SQL in *.repo.ts; the use cases keep the periods, merges and shapes).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

export async function projectNames(db: Executor, tenantId: string) {
  return db.selectFrom('projects').select(['id', 'name']).where('tenant_id', '=', tenantId).execute();
}

/** The tenant's benchmark provider key; undefined when there is no such tenant. */
export async function tenantBenchmarkKey(db: Executor, tenantId: string) {
  return db.selectFrom('tenants').select('baseline_provider_key').where('id', '=', tenantId).executeTakeFirst();
}

/** The tenant's benchmark provider key; throws when there is no such tenant. */
export async function tenantBenchmarkKeyOrThrow(db: Executor, tenantId: string) {
  return db.selectFrom('tenants').select('baseline_provider_key').where('id', '=', tenantId).executeTakeFirstOrThrow();
}

export async function userTimezone(db: Executor, userId: string) {
  return db.selectFrom('users').select('timezone').where('id', '=', userId).executeTakeFirstOrThrow();
}

/** How many of the tenant's holds the sweeper released since `since`. */
export async function sweptReservationCount(db: Executor, tenantId: string, since: Date): Promise<bigint> {
  const swept = await sql<{ swept: bigint }>`
    select count(*) as swept from reservations where tenant_id = ${tenantId} and swept_at >= ${since}`.execute(db);
  return swept.rows[0].swept;
}

/** The newest Layer 3 rule changes, newest first. */
export async function recentRuleChanges(db: Executor, limit: number) {
  return db
    .selectFrom('layer3_rule_changes as c')
    .innerJoin('layer3_rulesets as r', 'r.version', 'c.ruleset_version')
    .select(['c.ruleset_version', 'c.change', 'c.rule_id', 'c.rule', 'c.reason', 'c.created_at'])
    .orderBy('c.id', 'desc')
    .limit(limit)
    .execute();
}

/** The tenant's newest data exports, newest first. */
export async function recentExports(db: Executor, tenantId: string, limit: number) {
  return db
    .selectFrom('export_log')
    .select(['id', 'user_id', 'kind', 'filters', 'row_count', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

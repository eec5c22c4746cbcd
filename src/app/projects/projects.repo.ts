// The projects domain's statements (docs/layout.md: SQL in *.repo.ts; projects.ts and stages.ts
// keep the rules: defaults, not-found and conflict choices, stage moves, transactions).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { PauseCause, Stage } from '../../core/stage.ts';

export const PROJECT_COLUMNS = ['id', 'name', 'is_default', 'monthly_budget_micros', 'quality_floor', 'benchmark_override', 'integrations', 'stage', 'region', 'created_at'] as const;

export async function insertProject(
  db: Executor,
  v: {
    tenantId: string;
    name: string;
    isDefault: boolean;
    monthlyBudgetMicros: bigint | null;
    qualityFloor: number;
    benchmarkOverride: string | null;
    integrationsJson: string;
    region: string | null;
  },
) {
  return db
    .insertInto('projects')
    .values({
      tenant_id: v.tenantId,
      name: v.name,
      is_default: v.isDefault,
      monthly_budget_micros: v.monthlyBudgetMicros,
      quality_floor: v.qualityFloor,
      benchmark_override: v.benchmarkOverride,
      integrations: v.integrationsJson,
      region: v.region,
    })
    .returning(PROJECT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The tenant's live (not deleted) project. */
export async function projectRow(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('projects')
    .select(PROJECT_COLUMNS)
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The tenant's default project, else its oldest live one. */
export async function defaultProjectRow(db: Executor, tenantId: string) {
  return db
    .selectFrom('projects')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * One page of the tenant's live projects after the cursor's project: the default project first,
 * then the others oldest first. Keyset on (not default, created_at, id), all three read back from
 * the cursor row (the exact stored timestamp, microseconds), so pages stay exact and stable while
 * projects come and go; `is_default` never changes after creation.
 */
export async function projectPage(db: Executor, tenantId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('projects').select(PROJECT_COLUMNS).where('tenant_id', '=', tenantId).where('deleted_at', 'is', null);
  if (afterId) q = q.where(sql<boolean>`(not is_default, created_at, id) > (select not is_default, created_at, id from projects where id = ${afterId}::uuid)`);
  return q.orderBy(sql`not is_default`).orderBy('created_at', 'asc').orderBy('id', 'asc').limit(limit).execute();
}

/** Sets these columns on the tenant's live project and returns it (undefined when there is none). */
export async function updateProjectRow(db: Executor, tenantId: string, id: string, set: Record<string, unknown>) {
  return db
    .updateTable('projects')
    .set(set)
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .returning(PROJECT_COLUMNS)
    .executeTakeFirst();
}

export async function softDeleteProject(tx: Executor, tenantId: string, id: string, at: Date): Promise<void> {
  await tx.updateTable('projects').set({ deleted_at: at }).where('id', '=', id).where('tenant_id', '=', tenantId).execute();
}

/** Revokes the project's live keys; returns their ids. */
export async function revokeProjectKeys(tx: Executor, projectId: string, at: Date) {
  return tx.updateTable('api_keys').set({ revoked_at: at }).where('project_id', '=', projectId).where('revoked_at', 'is', null).returning('id').execute();
}

// Stages (stages.ts).

/** The live project's stage, read without a lock. */
export async function stageOf(db: Executor, projectId: string) {
  return db.selectFrom('projects').select(['stage', 'paused_for']).where('id', '=', projectId).where('deleted_at', 'is', null).executeTakeFirst();
}

/** The project's stage under its row lock (FOR UPDATE). */
export async function lockStage(tx: Executor, projectId: string) {
  return tx.selectFrom('projects').select(['tenant_id', 'stage', 'paused_for']).where('id', '=', projectId).forUpdate().executeTakeFirstOrThrow();
}

export async function setStage(tx: Executor, projectId: string, v: { stage: Stage; pausedFor: PauseCause | null; at: Date }): Promise<void> {
  await tx.updateTable('projects').set({ stage: v.stage, paused_for: v.pausedFor, updated_at: v.at }).where('id', '=', projectId).execute();
}

/** Marks the project's budget exhausted unless it already is; returns whether it was marked now. */
export async function markBudgetExhausted(tx: Executor, tenantId: string, projectId: string, at: Date): Promise<boolean> {
  const r = await tx
    .updateTable('projects')
    .set({ budget_exhausted_at: at })
    .where('id', '=', projectId)
    .where('tenant_id', '=', tenantId)
    .where('budget_exhausted_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows !== 0n;
}

export async function clearBudgetExhausted(tx: Executor, projectId: string): Promise<void> {
  await tx.updateTable('projects').set({ budget_exhausted_at: null }).where('id', '=', projectId).where('budget_exhausted_at', 'is not', null).execute();
}

/** The tenant's live projects in this stage, in id order (the order their rows get locked). */
export async function projectIdsInStage(tx: Executor, tenantId: string, stage: Stage) {
  return tx.selectFrom('projects').select('id').where('tenant_id', '=', tenantId).where('stage', '=', stage).where('deleted_at', 'is', null).orderBy('id').execute();
}

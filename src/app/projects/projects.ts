// Projects (D4): a context inside a tenant with its own budget, quality floor, benchmark override,
// integrations and stage. Every query is scoped by tenant id.
import type { Db, Executor } from '../../store/db.ts';
import { appError } from '../../core/errors.ts';
import type { ProviderKey } from '../../core/providers.ts';
import { decodeCursor, toPage, type PageQuery } from '../shared/index.ts';
import { defaultProjectRow, insertProject, projectPage, projectRow, revokeProjectKeys, softDeleteProject, updateProjectRow } from './projects.repo.ts';

import type { Stage } from '../../core/stage.ts';

export { STAGES, type Stage } from '../../core/stage.ts';
export const DEFAULT_QUALITY_FLOOR = 0.6;

export interface ProjectView {
  id: string;
  name: string;
  isDefault: boolean;
  monthlyBudgetMicros: string | null;
  qualityFloor: number;
  benchmarkOverride: ProviderKey | null;
  integrations: string[];
  stage: Stage;
  region: string | null;
  createdAt: string;
}

type Row = {
  id: string;
  name: string;
  is_default: boolean;
  monthly_budget_micros: bigint | null;
  quality_floor: string;
  benchmark_override: string | null;
  integrations: unknown;
  stage: Stage;
  region: string | null;
  created_at: Date;
};

export const toProjectView = (r: Row): ProjectView => ({
  id: r.id,
  name: r.name,
  isDefault: r.is_default,
  monthlyBudgetMicros: r.monthly_budget_micros === null ? null : r.monthly_budget_micros.toString(),
  // numeric(4,3) → a 0..1 ratio; a score, not money, so a number is right here.
  qualityFloor: Number(r.quality_floor),
  benchmarkOverride: r.benchmark_override as ProviderKey | null,
  integrations: r.integrations as string[],
  stage: r.stage,
  region: r.region,
  createdAt: r.created_at.toISOString(),
});

export interface ProjectInput {
  name?: string;
  monthlyBudgetMicros?: bigint | null;
  qualityFloor?: number;
  benchmarkOverride?: ProviderKey | null;
  integrations?: string[];
  region?: string | null;
}

export async function createProject(db: Executor, tenantId: string, input: ProjectInput & { name: string; isDefault?: boolean }) {
  const row = await insertProject(db, {
    tenantId,
    name: input.name,
    isDefault: input.isDefault ?? false,
    monthlyBudgetMicros: input.monthlyBudgetMicros ?? null,
    qualityFloor: input.qualityFloor ?? DEFAULT_QUALITY_FLOOR,
    benchmarkOverride: input.benchmarkOverride ?? null,
    integrationsJson: JSON.stringify(input.integrations ?? []),
    region: input.region ?? null,
  });
  return toProjectView(row as Row);
}

export async function getProject(db: Executor, tenantId: string, id: string): Promise<ProjectView> {
  const row = await projectRow(db, tenantId, id);
  if (!row) throw appError('not_found', 'Project not found');
  return toProjectView(row as Row);
}

export async function getDefaultProjectId(db: Executor, tenantId: string): Promise<string> {
  const row = await defaultProjectRow(db, tenantId);
  if (!row) throw appError('not_found', 'The tenant has no project');
  return row.id;
}

export async function listProjects(db: Db, tenantId: string, page: PageQuery) {
  const c = decodeCursor(page.cursor, ['id']);
  const rows = await projectPage(db, tenantId, c ? c.id : null, page.limit + 1);
  return toPage(rows as Row[], page.limit, toProjectView, (r) => ({ id: r.id }));
}

export async function updateProject(db: Db, tenantId: string, id: string, input: ProjectInput): Promise<ProjectView> {
  const set: Record<string, unknown> = { updated_at: new Date() };
  if (input.name !== undefined) set.name = input.name;
  if (input.monthlyBudgetMicros !== undefined) set.monthly_budget_micros = input.monthlyBudgetMicros;
  if (input.qualityFloor !== undefined) set.quality_floor = input.qualityFloor;
  if (input.benchmarkOverride !== undefined) set.benchmark_override = input.benchmarkOverride;
  if (input.integrations !== undefined) set.integrations = JSON.stringify(input.integrations);
  if (input.region !== undefined) set.region = input.region;
  const row = await updateProjectRow(db, tenantId, id, set);
  if (!row) throw appError('not_found', 'Project not found');
  return toProjectView(row as Row);
}

/** Soft-deletes the project and revokes its keys; returns the revoked key ids (the caller evicts them from the key cache). */
export async function deleteProject(db: Db, tenantId: string, id: string): Promise<string[]> {
  const p = await getProject(db, tenantId, id);
  if (p.isDefault) throw appError('conflict', 'The default project cannot be deleted');
  return db.transaction().execute(async (tx) => {
    await softDeleteProject(tx, tenantId, id, new Date());
    // A deleted project's keys stop working with it.
    const revoked = await revokeProjectKeys(tx, id, new Date());
    return revoked.map((r) => r.id);
  });
}

// The events domain's own reads. Events sit below projects in the domain order (docs/layout.md),
// so the project a tenant-wide event is filed under is read here rather than through projects/.
import { appError } from '../../core/errors.ts';
import type { Executor } from '../../store/db.ts';

/** The tenant's default project (the same rule as projects' getDefaultProjectId). */
export async function defaultProjectOf(db: Executor, tenantId: string): Promise<string> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('is_default', 'desc')
    .orderBy('created_at', 'asc')
    .limit(1)
    .executeTakeFirst();
  if (!row) throw appError('not_found', 'The tenant has no project');
  return row.id;
}

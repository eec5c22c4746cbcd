// The money domain's statements on the tenant's benchmark provider (docs/layout.md: SQL in
// *.repo.ts; baseline.ts keeps the vocabulary check and the cache invalidation).
import type { Executor } from '../../store/db.ts';

export async function tenantBaselineKey(db: Executor, tenantId: string) {
  return db.selectFrom('tenants').select('baseline_provider_key').where('id', '=', tenantId).executeTakeFirst();
}

export async function setTenantBaselineKey(db: Executor, tenantId: string, providerKey: string) {
  return db.updateTable('tenants').set({ baseline_provider_key: providerKey }).where('id', '=', tenantId).returning('baseline_provider_key').executeTakeFirst();
}

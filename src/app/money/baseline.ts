// The tenant's benchmark provider (spec §1 locked vocabulary, D7): one of the five brand keys, or
// null until chosen (then savings are null and the UI prompts; never a fabricated 0 %). Changing it
// applies to new calls only: settled rows keep the benchmark they were priced against.
import type { Db } from '../../store/db.ts';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { BRANDS, isProviderKey, type ProviderKey } from '../../core/providers.ts';
import { invalidateCallContext } from './wallet.ts';
import { setTenantBaselineKey, tenantBaselineKey } from './baseline.repo.ts';

export interface BaselineView {
  providerKey: ProviderKey | null;
  /** The brand name shown to customers ("OpenAI"), null when none is chosen. */
  brand: string | null;
}

const view = (key: string | null): BaselineView => {
  const k = isProviderKey(key) ? key : null;
  return { providerKey: k, brand: k ? BRANDS[k].name : null };
};

export async function getBaseline(db: Db, tenantId: string): Promise<BaselineView> {
  const t = await tenantBaselineKey(db, tenantId);
  if (!t) throw appError('not_found', 'Tenant not found');
  return view(t.baseline_provider_key);
}

export async function setBaseline(s: Services, tenantId: string, providerKey: ProviderKey): Promise<BaselineView> {
  const t = await setTenantBaselineKey(s.db, tenantId, providerKey);
  if (!t) throw appError('not_found', 'Tenant not found');
  invalidateCallContext(s, tenantId);
  return view(t.baseline_provider_key);
}

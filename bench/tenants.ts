// Benchmark tenants, made the way signup makes one (tenant, wallet, default project) plus a dev
// service key and a sealed ADJUSTMENT credit — without a user, which no benchmark needs.
import type { Db } from '../src/store/db.ts';
import { appendLedgerEntry } from '../src/app/money/ledger.ts';
import { createKey } from '../src/app/identity/keys.ts';
import { createProject } from '../src/app/projects/projects.ts';

export interface BenchTenant {
  tenantId: string;
  projectId: string;
  key: string;
}

export async function createBenchTenant(db: Db, ledgerSecret: Buffer, label: string, creditMicros: bigint): Promise<BenchTenant> {
  const t = await db.insertInto('tenants').values({ name: `Bench tenant ${label}`, baseline_provider_key: 'openai' }).returning('id').executeTakeFirstOrThrow();
  await db.insertInto('wallets').values({ tenant_id: t.id }).execute();
  const project = await createProject(db, t.id, { name: 'Default project', isDefault: true });
  const { key } = await createKey(db, { tenantId: t.id, projectId: project.id, name: 'bench', environment: 'dev' });
  await db.transaction().execute((tx) =>
    appendLedgerEntry(tx, ledgerSecret, { tenantId: t.id, projectId: null, eventType: 'ADJUSTMENT', amountMicros: creditMicros, memo: 'benchmark credit', at: new Date() }),
  );
  return { tenantId: t.id, projectId: project.id, key };
}

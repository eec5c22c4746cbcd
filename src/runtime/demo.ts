// The default run's demo tenant (D11): demo@switchboard.local with a printed password, a $10
// ADJUSTMENT credit, a default project, a dev key, benchmark provider openai and a few days of
// simulated history (D13). Created once; the credentials are kept in
// DATA_DIR/demo.json (mode 0600) so every later start can print them again.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tightenPrivateFile, writePrivateFile } from '../infra/private-file.ts';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Services } from '../app/shared/index.ts';
import { signup } from '../app/identity/index.ts';
import { createKey } from '../app/identity/index.ts';
import { getDefaultProjectId } from '../app/projects/index.ts';
import { appendLedgerEntry } from '../app/money/index.ts';
import { base62 } from '../core/tokens.ts';
import { setBaseline } from '../app/money/index.ts';
import { HISTORY_DAYS, seedDemoHistory } from './demo-history.ts';

export const DEMO_EMAIL = 'demo@switchboard.local';
export const DEMO_CREDIT_MICROS = 10_000_000n; // $10
/** The demo tenant's benchmark provider (D13), so savings show at once. */
export const DEMO_BENCHMARK = 'openai' as const;

export interface DemoCredentials {
  email: string;
  password: string | null;
  key: string | null;
}

export async function ensureDemo(s: Services): Promise<DemoCredentials> {
  const file = join(s.config.DATA_DIR, 'demo.json');
  const existing = await s.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', DEMO_EMAIL).executeTakeFirst();
  if (existing) {
    try {
      const creds = JSON.parse(await readFile(file, 'utf8')) as DemoCredentials;
      await tightenPrivateFile(file);
      return creds;
    } catch {
      // The database outlived this machine's DATA_DIR: the demo exists but its secrets are not here.
      return { email: DEMO_EMAIL, password: null, key: null };
    }
  }
  const password = base62(randomBytes(64), 16);
  const { user } = await signup(s, { email: DEMO_EMAIL, password, name: 'Demo User', tenantName: 'Demo Tenant' }, { ip: null, userAgent: 'seed' });
  const m = await s.db.selectFrom('memberships').select('tenant_id').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  // The credit predates the simulated history (D13): a few days of calls against benchmark openai.
  const since = new Date(Math.floor(s.clock.now().getTime() / 86_400_000) * 86_400_000 - (HISTORY_DAYS + 1) * 86_400_000);
  await s.db.transaction().execute((tx) =>
    appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId: m.tenant_id,
      projectId: null,
      eventType: 'ADJUSTMENT',
      amountMicros: DEMO_CREDIT_MICROS,
      memo: 'Demo credit',
      at: since,
    }),
  );
  await setBaseline(s, m.tenant_id, DEMO_BENCHMARK);
  const projectId = await getDefaultProjectId(s.db, m.tenant_id);
  const { key, record } = await createKey(s.db, { tenantId: m.tenant_id, projectId, name: 'Demo dev key', environment: 'dev' });
  await seedDemoHistory(s, { tenantId: m.tenant_id, projectId, keyId: record.id }, DEMO_BENCHMARK);
  const creds: DemoCredentials = { email: DEMO_EMAIL, password, key };
  await writePrivateFile(file, JSON.stringify(creds));
  return creds;
}

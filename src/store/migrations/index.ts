// Versioned migrations, run at start-up. Listed statically (not read from disk) so the same list
// works under tsx, a bundle, or a compiled build. Append only: never edit a shipped migration.
import { Migrator, type Migration } from 'kysely';
import type { Db } from '../db.ts';
import * as m001 from './001-foundation.ts';
import * as m002 from './002-money.ts';
import * as m003 from './003-events.ts';
import * as m004 from './004-quality.ts';
import * as m005 from './005-exports.ts';
import * as m006 from './006-admission.ts';
import * as m007 from './007-settle-check.ts';
import * as m008 from './008-score-once.ts';
import * as m009 from './009-ledger-seq-index.ts';
import * as m010 from './010-settle-row-checks.ts';
import * as m011 from './011-call-row-keys.ts';
import * as m012 from './012-refunds.ts';
import * as m013 from './013-identity-links.ts';
import * as m014 from './014-stored-responses.ts';
import * as m016 from './016-connectors.ts';
import * as m017 from './017-learning-plane.ts';
import * as m017a from './017a-learning-role.ts';
import * as m018 from './018-pending-email.ts';
import * as m025 from './025-insights-rollups.ts';
import * as m025b from './025b-insights-calls.ts';
import * as m025c from './025c-insights-ledger-hourly.ts';
import * as m025d from './025d-insights-hourly-attempts.ts';
import * as m026 from './026-ledger-checkpoints.ts';
import * as m020 from './020-advisory-imports.ts';
import * as m028b from './028b-bridge-key-session.ts';
import * as m030 from './030-settle-same-statement-keys.ts';
import * as m031r from './031r-stored-response-items.ts';
import * as m029 from './029-outbox-ready.ts';

export const MIGRATIONS: Record<string, Migration> = {
  '001-foundation': m001,
  '002-money': m002,
  '003-events': m003,
  '004-quality': m004,
  '005-exports': m005,
  '006-admission': m006,
  '007-settle-check': m007,
  '008-score-once': m008,
  '009-ledger-seq-index': m009,
  '010-settle-row-checks': m010,
  '011-call-row-keys': m011,
  '012-refunds': m012,
  '013-identity-links': m013,
  '014-stored-responses': m014,
  '016-connectors': m016,
  '017-learning-plane': m017,
  '017a-learning-role': m017a,
  '018-pending-email': m018,
  '025-insights-rollups': m025,
  '025b-insights-calls': m025b,
  '025c-insights-ledger-hourly': m025c,
  '025d-insights-hourly-attempts': m025d,
  '026-ledger-checkpoints': m026,
  '020-advisory-imports': m020,
  '028b-bridge-key-session': m028b,
  '030-settle-same-statement-keys': m030,
  '031r-stored-response-items': m031r,
  '029-outbox-ready': m029,
};

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    // Migration numbers are handed out to parallel branches, which land in any order: a database
    // that already ran 016 must still accept 013 when it arrives, instead of refusing to start.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`, { cause: error });
  }
}

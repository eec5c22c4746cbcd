// The learning role's statement (lock 6, D15; docs/layout.md: SQL in *.repo.ts).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** Switches the rest of the transaction to the role `switchboard_learning` (SET LOCAL ends with it). */
export async function setLearningRole(tx: Executor): Promise<void> {
  await sql`set local role switchboard_learning`.execute(tx);
}

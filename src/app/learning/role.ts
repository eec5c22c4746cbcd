// Lock 6 by the database (D15): every write of the plane runs inside a transaction that has
// switched to the role `switchboard_learning` (migration 017a), which can write learning_* tables
// and nothing the request path reads. `SET LOCAL` ends with the transaction, so the pooled
// connection goes back to the pool as the service's own user.
import type { Db, Tx } from '../../store/db.ts';
import { setLearningRole } from './role.repo.ts';

export const LEARNING_ROLE = 'switchboard_learning';

/** Run `fn` in one transaction as the learning role. */
export function asLearning<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await setLearningRole(tx);
    return fn(tx);
  });
}

/**
 * Whether this connection's user can switch to the role. False on an external PostgreSQL where the
 * migration could not create or grant it: the plane then stays off (the caller logs why).
 */
export async function learningRoleUsable(db: Db): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    await asLearning(db, async () => undefined);
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

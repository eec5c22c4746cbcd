// The identity domain's statements on password-reset links (docs/layout.md: SQL in *.repo.ts;
// password.ts keeps the rules).
import type { Executor } from '../../store/db.ts';

/** Only the newest link of a user works: the older open ones are spent. */
export async function spendOpenResets(tx: Executor, userId: string, now: Date): Promise<void> {
  await tx.updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

export async function insertReset(tx: Executor, v: { userId: string; tokenHash: Buffer; now: Date; expiresAt: Date }): Promise<void> {
  await tx.insertInto('password_resets').values({ user_id: v.userId, token_hash: v.tokenHash, created_at: v.now, expires_at: v.expiresAt }).execute();
}

/** Spends a live link, once; the user it was for, or undefined. */
export async function takeReset(tx: Executor, tokenHash: Buffer, now: Date) {
  return tx
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
}

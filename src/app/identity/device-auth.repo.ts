// Device authorisation's statements (docs/layout.md: SQL in *.repo.ts; device-auth.ts keeps the
// RFC 8628 rules).
import type { Insertable } from 'kysely';
import type { DeviceAuthorizationsTable } from '../../store/schema.ts';
import type { Executor } from '../../store/db.ts';

export async function insertDeviceAuthorization(db: Executor, row: Insertable<DeviceAuthorizationsTable>): Promise<void> {
  await db.insertInto('device_authorizations').values(row).execute();
}

export async function deviceByUserCode(db: Executor, userCode: string) {
  return db
    .selectFrom('device_authorizations')
    .select(['id', 'device_name', 'status', 'created_at', 'expires_at', 'ip'])
    .where('user_code', '=', userCode)
    .executeTakeFirst();
}

/** Records the decision on a still-pending authorisation; false when it was decided meanwhile. */
export async function decideDevice(db: Executor, id: string, v: { status: 'approved' | 'denied'; userId: string; tenantId: string; now: Date }): Promise<boolean> {
  const r = await db
    .updateTable('device_authorizations')
    .set({ status: v.status, user_id: v.userId, tenant_id: v.tenantId, decided_at: v.now })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function lockDeviceByCodeHash(tx: Executor, codeHash: Buffer) {
  return tx.selectFrom('device_authorizations').selectAll().where('device_code_hash', '=', codeHash).forUpdate().executeTakeFirst();
}

export async function notePoll(tx: Executor, id: string, now: Date, interval?: number): Promise<void> {
  await tx
    .updateTable('device_authorizations')
    .set(interval === undefined ? { last_polled_at: now } : { interval_s: interval, last_polled_at: now })
    .where('id', '=', id)
    .execute();
}

export async function consumeDevice(tx: Executor, id: string, sessionId: string, now: Date): Promise<void> {
  await tx.updateTable('device_authorizations').set({ status: 'consumed', session_id: sessionId, last_polled_at: now }).where('id', '=', id).execute();
}

// The identity domain's statements on service API keys (docs/layout.md: SQL in *.repo.ts; keys.ts
// keeps the rules: rotation overlap, revocation, the proxy's cache).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';
import type { KeyEnvironment } from '../../core/tokens.ts';

export const KEY_COLUMNS = [
  'id',
  'name',
  'environment',
  'project_id',
  'prefix',
  'last4',
  'created_at',
  'last_used_at',
  'expires_at',
  'revoked_at',
  'rotated_from_id',
] as const;

export async function insertKey(
  db: Executor,
  v: {
    tenantId: string;
    projectId: string;
    name: string;
    environment: KeyEnvironment;
    keyHash: Buffer;
    prefix: string;
    last4: string;
    rotatedFromId: string | null;
    sessionId: string | null;
  },
) {
  return db
    .insertInto('api_keys')
    .values({
      tenant_id: v.tenantId,
      project_id: v.projectId,
      name: v.name,
      environment: v.environment,
      key_hash: v.keyHash,
      prefix: v.prefix,
      last4: v.last4,
      rotated_from_id: v.rotatedFromId,
      session_id: v.sessionId,
    })
    .returning(KEY_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One page of the tenant's keys, newest first, after the cursor's key (keyset on the stored timestamp). */
export async function keyPage(db: Executor, tenantId: string, afterId: string | null, limit: number) {
  let q = db.selectFrom('api_keys').select(KEY_COLUMNS).where('tenant_id', '=', tenantId);
  // Keyset on the exact stored timestamp (microseconds), read back from the cursor row.
  if (afterId) q = q.where(sql<boolean>`(created_at, id) < (select created_at, id from api_keys where id = ${afterId}::uuid)`);
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

export async function keyRow(db: Executor, tenantId: string, id: string) {
  return db
    .selectFrom('api_keys')
    .select([...KEY_COLUMNS, 'tenant_id', 'session_id'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
}

export async function setKeyExpiry(tx: Executor, id: string, expiresAt: Date): Promise<void> {
  await tx.updateTable('api_keys').set({ expires_at: expiresAt }).where('id', '=', id).execute();
}

/** Revokes the key (keeping an earlier revocation time) and returns it. */
export async function revokeKeyRow(db: Executor, tenantId: string, id: string, now: Date) {
  return db
    .updateTable('api_keys')
    .set({ revoked_at: sql`coalesce(revoked_at, ${now})` })
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .returning(KEY_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function keyByHash(db: Executor, keyHash: Buffer) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'tenant_id', 'project_id', 'environment', 'expires_at', 'revoked_at'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst();
}

/** Writes a batch of (key id, last use in ms) pairs; a later use already stored wins. */
export async function writeLastUsed(db: Executor, batch: Array<[string, number]>): Promise<void> {
  await sql`
      update api_keys k set last_used_at = greatest(coalesce(k.last_used_at, v.t), v.t)
      from (select unnest(${batch.map((b) => b[0])}::uuid[]) as id,
                   unnest(${batch.map((b) => new Date(b[1]).toISOString())}::timestamptz[]) as t) v
      where k.id = v.id`.execute(db);
}

export async function sessionNameRow(db: Executor, sessionId: string) {
  return db.selectFrom('sessions').select(['id', 'name']).where('id', '=', sessionId).executeTakeFirst();
}

export async function keysOfSessions(db: Executor, sessionIds: string[]) {
  return db.selectFrom('api_keys').select('id').where('session_id', 'in', sessionIds).execute();
}

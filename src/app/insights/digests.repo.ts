// The insights domain's statements for the digests (docs/layout.md: SQL in *.repo.ts;
// digests.ts keeps the due rule, the claim-send-release order and the rendering).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** Every tenant owner with their digest cadence (weekly unless they chose otherwise). */
export async function ownersWithCadence(db: Executor) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .leftJoin('notification_settings as n', (j) => j.onRef('n.tenant_id', '=', 'm.tenant_id').onRef('n.user_id', '=', 'm.user_id'))
    .select(['m.tenant_id', 'u.id as user_id', 'u.email', 'u.name', 'u.timezone', 't.name as tenant_name', sql<'daily' | 'weekly' | 'off'>`coalesce(n.digest_cadence, 'weekly')`.as('cadence')])
    .where('m.role', '=', 'owner')
    .execute();
}

export interface DigestSendKey {
  tenantId: string;
  userId: string;
  cadence: 'daily' | 'weekly';
  periodStart: string;
}

/** Claims the period's send; false when it was already claimed (sent, or being sent). */
export async function claimDigestSend(db: Executor, k: DigestSendKey, at: Date): Promise<boolean> {
  const claimed = await db
    .insertInto('digest_sends')
    .values({ tenant_id: k.tenantId, user_id: k.userId, cadence: k.cadence, period_start: k.periodStart, sent_at: at })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Releases a claim whose e-mail failed, so the next run retries it. */
export async function releaseDigestSend(db: Executor, k: DigestSendKey): Promise<void> {
  await db
    .deleteFrom('digest_sends')
    .where('tenant_id', '=', k.tenantId)
    .where('user_id', '=', k.userId)
    .where('cadence', '=', k.cadence)
    .where('period_start', '=', k.periodStart)
    .execute();
}

/** The member's name, time zone, tenant name and cadence. */
export async function digestRecipient(db: Executor, tenantId: string, userId: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'u.id').on('m.tenant_id', '=', tenantId))
    .innerJoin('tenants as t', 't.id', 'm.tenant_id')
    .leftJoin('notification_settings as n', (j) => j.onRef('n.tenant_id', '=', 'm.tenant_id').onRef('n.user_id', '=', 'm.user_id'))
    .select(['u.name', 'u.timezone', 't.name as tenant_name', sql<'daily' | 'weekly' | 'off'>`coalesce(n.digest_cadence, 'weekly')`.as('cadence')])
    .where('u.id', '=', userId)
    .executeTakeFirstOrThrow();
}

// The money domain's statements of the reservation sweeper (docs/layout.md: SQL in *.repo.ts;
// sweeper.ts keeps the batching and the transaction).
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** The transaction-scoped lock that lets one sweeper run at a time; false when another holds it. */
export async function tryTakeSweepLock(tx: Executor): Promise<boolean> {
  const lock = await sql<{ ok: boolean }>`select pg_try_advisory_xact_lock(hashtextextended('reservation-sweep', 0)) as ok`.execute(tx);
  return lock.rows[0]?.ok === true;
}

/**
 * Marks up to `limit` holds older than `cutoff` swept (skipping any a settlement is holding), then
 * releases them from their wallets: reservation rows first, then wallets, the same lock order as
 * settlement and release. One row per wallet touched.
 */
export async function sweepOldReservations(tx: Executor, v: { cutoff: Date; at: Date; reason: string; limit: number }) {
  const r = await sql<{ tenant_id: string; amount: bigint; n: bigint }>`
        with claimed as (
          select id from reservations
           where status = 'reserved' and created_at < ${v.cutoff}
           order by created_at limit ${v.limit}
           for update skip locked),
        swept as (
          update reservations r
             set status = 'swept', released_at = ${v.at}, swept_at = ${v.at}, sweep_reason = ${v.reason}
            from claimed where r.id = claimed.id
          returning r.tenant_id, r.amount_micros),
        per_tenant as (
          select tenant_id, sum(amount_micros)::bigint as amount, count(*)::bigint as n from swept group by tenant_id)
        update wallets w set reserved_micros = w.reserved_micros - p.amount, updated_at = ${v.at}
          from per_tenant p where w.tenant_id = p.tenant_id
        returning w.tenant_id, p.amount, p.n`.execute(tx);
  return r.rows;
}

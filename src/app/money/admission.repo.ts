// Admission's SQL (admission.ts): sb_lease, which trims the old lease and takes the next one in
// one round trip under the wallet lock (migration 006 explains its rules).
import { sql } from 'kysely';
import type { Db } from '../../store/db.ts';
import { monthStartUtc } from '../../core/money.ts';

export interface LeaseRow {
  /** 'ok', or why the lease was refused (wallet.ts holdRefused). */
  result: string;
  granted: bigint;
  /** Whether the old lease row was still held and trimmed; null without an old lease. */
  old_trimmed: boolean | null;
}

export async function takeLease(
  db: Db,
  l: { oldId: string | null; trim: bigint; id: string; tenantId: string; projectId: string; want: bigint; need: bigint; at: Date },
): Promise<LeaseRow | undefined> {
  const r = await sql<LeaseRow>`
    select result, granted, old_trimmed from sb_lease(${l.oldId}::uuid, ${l.trim}::bigint, ${l.id}::uuid,
      ${l.tenantId}::uuid, ${l.projectId}::uuid, ${l.want}::bigint, ${l.need}::bigint, ${l.at}::timestamptz, ${monthStartUtc(l.at)}::date)`.execute(db);
  return r.rows[0];
}

// Stored Responses API responses (D19, migration 014): kept 30 days for `previous_response_id`
// and `GET /v1/responses/:id`. Every read and delete names the tenant (tenant isolation).
import { sql } from 'kysely';
import type { Services } from '../shared/index.ts';
import type { Message } from '../../core/canonical/types.ts';

export const STORED_RESPONSE_DAYS = 30;
const DAY_MS = 86_400_000;

export interface StoredResponse {
  conversation: Message[];
  response: Record<string, unknown>;
}

export async function storeResponse(
  s: Services,
  r: { id: string; tenantId: string; callId: string; conversation: Message[]; response: Record<string, unknown> },
): Promise<void> {
  const now = s.clock.now();
  await s.db
    .insertInto('stored_responses')
    .values({
      id: r.id,
      tenant_id: r.tenantId,
      call_id: r.callId,
      conversation: JSON.stringify(r.conversation),
      response: JSON.stringify(r.response),
      created_at: now,
      expires_at: new Date(now.getTime() + STORED_RESPONSE_DAYS * DAY_MS),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

export async function findStoredResponse(s: Services, tenantId: string, id: string): Promise<StoredResponse | null> {
  const row = await s.db
    .selectFrom('stored_responses')
    .select(['conversation', 'response'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('expires_at', '>', s.clock.now())
    .executeTakeFirst();
  return row ? { conversation: row.conversation as Message[], response: row.response } : null;
}

export async function deleteStoredResponse(s: Services, tenantId: string, id: string): Promise<boolean> {
  const r = await s.db.deleteFrom('stored_responses').where('id', '=', id).where('tenant_id', '=', tenantId).executeTakeFirst();
  return r.numDeletedRows > 0n;
}

/**
 * Output items of this tenant's live stored responses, by item id (Responses `item_reference`).
 * One containment probe per id, each served by the GIN index on the output items (migration 031r).
 */
export async function findStoredItems(s: Services, tenantId: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const found = new Map<string, Record<string, unknown>>();
  if (ids.length === 0) return found;
  const probes = ids.map((id) => sql`response -> 'output' @> ${JSON.stringify([{ id }])}::jsonb`);
  const rows = await sql<{ item: Record<string, unknown> }>`
    select item from stored_responses, jsonb_array_elements(response -> 'output') as item
    where tenant_id = ${tenantId} and expires_at > ${s.clock.now()} and (${sql.join(probes, sql` or `)})
      and item ->> 'id' in (${sql.join(ids)})`.execute(s.db);
  for (const r of rows.rows) found.set(r.item.id as string, r.item);
  return found;
}

/** Drop what expired (run by the sweeper). */
export async function deleteExpiredResponses(s: Services): Promise<number> {
  const r = await sql`delete from stored_responses where expires_at <= ${s.clock.now()}`.execute(s.db);
  return Number(r.numAffectedRows ?? 0n);
}

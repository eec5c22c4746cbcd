// Responses API `item_reference` input items (D19, session 9): `{type:'item_reference', id}` names
// an item of an earlier stored response (a message, a reasoning item, a function call) and the
// gateway must find it by id within the tenant. A GIN index on the stored output items
// (jsonb_path_ops: containment `@> '[{"id": …}]'`) makes that an index lookup instead of a scan of
// every stored response; the tenant and expiry are checked on the rows it finds.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index stored_responses_output_items on stored_responses using gin ((response -> 'output') jsonb_path_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index stored_responses_output_items`.execute(db);
}

// Stored Responses API responses (D19): with `store` (the API's default) a response is kept 30
// days so `previous_response_id` can continue its conversation and `GET /v1/responses/:id` can
// read it back. Rows belong to a tenant and are only ever read with its id; expired rows are
// invisible at once and deleted by the reservation sweeper's pass.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table stored_responses (
      id text primary key,
      tenant_id uuid not null references tenants (id) on delete cascade,
      call_id uuid not null,
      conversation jsonb not null,
      response jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index stored_responses_expires_idx on stored_responses (expires_at);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table stored_responses`.execute(db);
}

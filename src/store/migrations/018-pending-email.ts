// An e-mail change waits for the new address to be verified (issue 16 item 1): until its link is
// followed, the account keeps signing in and receiving mail at the old one.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column pending_email text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column pending_email`.execute(db);
}

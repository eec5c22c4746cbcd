// A service key made by a desktop bridge's signed-in session (D14: the key `switchboard bridge mcp`
// uses) belongs to that session: ending the session in any way (revoked on /security, signed out,
// refresh-token reuse, idle expiry, membership removed, password changed) revokes the key in the
// same transaction, by trigger, so no revocation path can leave the key working.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table api_keys add column session_id uuid references sessions(id) on delete set null;
    create index api_keys_session_id on api_keys (session_id) where session_id is not null;

    create function revoke_session_keys() returns trigger language plpgsql as $$
    begin
      update api_keys set revoked_at = new.revoked_at
        where session_id = new.id and revoked_at is null;
      return new;
    end $$;

    create trigger sessions_revoke_keys after update of revoked_at on sessions
      for each row when (new.revoked_at is not null and old.revoked_at is null)
      execute function revoke_session_keys();
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop trigger sessions_revoke_keys on sessions;
    drop function revoke_session_keys();
    alter table api_keys drop column session_id;
  `.execute(db);
}

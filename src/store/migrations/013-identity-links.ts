// Single-use links of D13: password resets (30 minutes) and tenant invitations (7 days). Only the
// SHA-256 of each link's token is stored, like service keys; the token itself is only in the
// e-mail. An invitation is how a registered user joins another tenant: with their consent.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table password_resets (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      token_hash bytea not null unique,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    );
    create index password_resets_user on password_resets (user_id) where used_at is null;

    create table invites (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      email text not null,
      role text not null check (role in ('owner','admin','member','viewer')),
      token_hash bytea not null unique,
      invited_by uuid references users(id) on delete set null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      accepted_at timestamptz,
      accepted_by uuid references users(id) on delete set null,
      revoked_at timestamptz
    );
    -- One open invitation per address and tenant: inviting again replaces the older one.
    create unique index invites_open on invites (tenant_id, lower(email)) where accepted_at is null and revoked_at is null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table invites, password_resets`.execute(db);
}

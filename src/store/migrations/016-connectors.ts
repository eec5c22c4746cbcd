// Connectors (D14): the heartbeats that keep an integrations tile `connected` without traffic,
// the device authorisations of the desktop bridge's sign-in (RFC 8628), and a session's name (the
// device a bridge session belongs to, shown on /security).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table connector_heartbeats (
      project_id uuid not null,
      tenant_id uuid not null,
      -- A connector's channel ('mcp' for its heartbeat) or a call's full channel ('proxy:chat',
      -- 'mcp:chat'): the three SDK tiles of tier 1 differ only by their surface.
      channel text not null check (split_part(channel, ':', 1) in ('proxy','mcp','extension','bridge','copy-paste','advisory')),
      -- The credential that last spoke for the connector: revoking it disconnects the tile.
      key_id uuid references api_keys(id) on delete set null,
      session_id uuid references sessions(id) on delete set null,
      last_seen_at timestamptz not null,
      primary key (project_id, channel),
      foreign key (project_id, tenant_id) references projects (id, tenant_id) on delete cascade
    );

    alter table sessions add column name text;

    create table device_authorizations (
      id uuid primary key default gen_random_uuid(),
      -- Only hashes: the device code is a bearer secret until it is exchanged.
      device_code_hash bytea not null unique,
      user_code text not null unique,
      device_name text not null,
      status text not null default 'pending' check (status in ('pending','approved','denied','consumed')),
      user_id uuid references users(id) on delete cascade,
      tenant_id uuid references tenants(id) on delete cascade,
      session_id uuid references sessions(id) on delete set null,
      interval_s integer not null,
      last_polled_at timestamptz,
      ip text,
      user_agent text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      decided_at timestamptz
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table device_authorizations;
    alter table sessions drop column name;
    drop table connector_heartbeats;
  `.execute(db);
}

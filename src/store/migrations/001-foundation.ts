// Tenants, users, sessions, tokens, security audit, projects, service keys, wallet and ledger.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table tenants (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      baseline_provider_key text check (baseline_provider_key in ('openai','anthropic','google','mistral','deepseek')),
      created_at timestamptz not null default now()
    );

    create table users (
      id uuid primary key default gen_random_uuid(),
      email text not null,
      password_hash text not null,
      name text not null,
      timezone text not null default 'UTC',
      bio text,
      avatar_url text,
      email_verified_at timestamptz,
      platform_admin boolean not null default false,
      idle_timeout text not null default '24h' check (idle_timeout in ('15min','1h','4h','24h','never')),
      failed_logins integer not null default 0,
      locked_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));

    create table memberships (
      tenant_id uuid not null references tenants(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      role text not null check (role in ('owner','admin','member','viewer')),
      created_at timestamptz not null default now(),
      primary key (tenant_id, user_id)
    );
    create index memberships_user on memberships (user_id);

    create table sessions (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      tenant_id uuid not null references tenants(id) on delete cascade,
      refresh_jti text not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      revoke_reason text
    );
    create index sessions_user on sessions (user_id) where revoked_at is null;

    create table personal_access_tokens (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      tenant_id uuid not null references tenants(id) on delete cascade,
      name text not null,
      token_hash bytea not null unique,
      prefix text not null,
      last4 text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      expires_at timestamptz,
      revoked_at timestamptz
    );
    create index pats_user on personal_access_tokens (user_id);

    create table security_audit (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users(id) on delete cascade,
      tenant_id uuid,
      seq bigint not null,
      event text not null,
      ip text,
      user_agent text,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now(),
      prev_hash text not null,
      seal_hash text not null,
      unique (user_id, seq)
    );

    create table projects (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      name text not null,
      is_default boolean not null default false,
      monthly_budget_micros bigint check (monthly_budget_micros is null or monthly_budget_micros >= 0),
      quality_floor numeric(4,3) not null default 0.600 check (quality_floor >= 0 and quality_floor <= 1),
      benchmark_override text check (benchmark_override in ('openai','anthropic','google','mistral','deepseek')),
      integrations jsonb not null default '[]',
      stage text not null default 'onboarding' check (stage in ('onboarding','connected','live','paused')),
      region text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create index projects_tenant on projects (tenant_id) where deleted_at is null;

    create table api_keys (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid not null references projects(id) on delete cascade,
      name text not null,
      environment text not null check (environment in ('dev','staging','production')),
      key_hash bytea not null unique,
      prefix text not null,
      last4 text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz,
      expires_at timestamptz,
      revoked_at timestamptz,
      rotated_from_id uuid references api_keys(id)
    );
    create index api_keys_tenant on api_keys (tenant_id);

    -- One wallet per tenant. The row is also the per-tenant lock that serialises ledger appends
    -- (D8): the chain head (last seal, sequence) lives on it.
    create table wallets (
      tenant_id uuid primary key references tenants(id) on delete cascade,
      balance_micros bigint not null default 0 check (balance_micros >= 0),
      reserved_micros bigint not null default 0 check (reserved_micros >= 0),
      ledger_seq bigint not null default 0,
      last_seal_hash text not null default repeat('0', 64),
      auto_topup_threshold_micros bigint check (auto_topup_threshold_micros is null or auto_topup_threshold_micros >= 0),
      auto_topup_amount_micros bigint check (auto_topup_amount_micros is null or auto_topup_amount_micros > 0),
      updated_at timestamptz not null default now()
    );

    create table ledger_entries (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid references projects(id),
      seq bigint not null,
      event_type text not null check (event_type in ('WALLET_TOPUP','AI_USAGE','REFUND','ADJUSTMENT')),
      customer_label text not null,
      amount_micros bigint not null,
      balance_after_micros bigint not null,
      model_id text,
      provider_key text,
      benchmark_provider text,
      benchmark_methodology_version text,
      actual_cost_usd_micros bigint,
      baseline_cost_usd_micros bigint,
      benchmark_pricing_version text,
      call_id uuid,
      memo text,
      qa jsonb,
      seal_hash text not null,
      prev_hash text not null,
      created_at timestamptz not null,
      unique (tenant_id, seq)
    );
    create index ledger_tenant_time on ledger_entries (tenant_id, created_at, seq);
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ledger_entries, wallets, api_keys, projects, security_audit, personal_access_tokens, sessions, memberships, users, tenants`.execute(db);
}

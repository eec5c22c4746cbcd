// Real time: the event outbox, webhooks and their deliveries, per-user notification settings and
// alert state, digest bookkeeping, and the pause cause / budget-exhaustion marker on projects.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Events that must leave atomically with a database write (llm.call after settlement, stage
    -- moves) are written here in the writer's transaction and relayed to the bus and webhooks.
    create table event_outbox (
      id bigserial primary key,
      tenant_id uuid not null,
      project_id uuid not null,
      frame jsonb not null,
      tenant_wide boolean not null default false,
      created_at timestamptz not null default now(),
      published_at timestamptz
    );
    create index event_outbox_pending on event_outbox (id) where published_at is null;
    create index event_outbox_published on event_outbox (published_at) where published_at is not null;

    create table webhooks (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      url text not null,
      events text[] not null,
      description text not null default '',
      -- AES-256-GCM under a key derived from the ledger secret (core/secret-box.ts); never hashed,
      -- because deliveries must sign with it.
      secret_enc text not null,
      secret_hint text not null,
      enabled boolean not null default true,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );
    create index webhooks_tenant on webhooks (tenant_id, created_at, id);

    create table notification_settings (
      tenant_id uuid not null references tenants(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      balance_threshold_micros bigint check (balance_threshold_micros is null or balance_threshold_micros >= 0),
      runway_threshold_days integer check (runway_threshold_days is null or runway_threshold_days between 1 and 3650),
      escalation_alert boolean not null default false,
      digest_cadence text not null default 'weekly' check (digest_cadence in ('daily','weekly','off')),
      webhook_url text,
      webhook_secret_enc text,
      channel text not null default 'email' check (channel in ('email','webhook')),
      -- Threshold alerts fire once per crossing: disarmed when they fire, re-armed when the value
      -- is back at or above the threshold.
      balance_alert_armed boolean not null default true,
      runway_alert_armed boolean not null default true,
      updated_at timestamptz not null default now(),
      primary key (tenant_id, user_id)
    );

    -- One row per delivery of one event to one target: a tenant webhook, or a user's alert URL.
    create table webhook_deliveries (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      webhook_id uuid references webhooks(id) on delete cascade,
      user_id uuid references users(id) on delete cascade,
      event_type text not null,
      body text not null,
      status text not null check (status in ('pending','succeeded','failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      lease_until timestamptz,
      last_status_code integer,
      last_error text,
      signature text,
      -- A replay is one manual attempt: when it fails the delivery is failed again, not retried.
      replay_requested boolean not null default false,
      created_at timestamptz not null,
      completed_at timestamptz,
      check ((webhook_id is null) <> (user_id is null))
    );
    create index webhook_deliveries_webhook on webhook_deliveries (webhook_id, created_at desc, id desc);
    create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
    create index webhook_deliveries_created on webhook_deliveries (created_at);

    create table webhook_delivery_attempts (
      id bigserial primary key,
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      attempt integer not null,
      trigger text not null check (trigger in ('scheduled','replay')),
      started_at timestamptz not null,
      duration_ms integer not null,
      status_code integer,
      error text,
      response_excerpt text,
      succeeded boolean not null
    );
    create index webhook_delivery_attempts_delivery on webhook_delivery_attempts (delivery_id, attempt);

    -- A digest is sent once per user, cadence and period.
    create table digest_sends (
      tenant_id uuid not null references tenants(id) on delete cascade,
      user_id uuid not null references users(id) on delete cascade,
      cadence text not null check (cadence in ('daily','weekly')),
      period_start text not null, -- local date YYYY-MM-DD in the user's time zone
      sent_at timestamptz not null,
      primary key (tenant_id, user_id, cadence, period_start)
    );

    alter table projects add column paused_for text check (paused_for in ('budget','wallet'));
    alter table projects add column budget_exhausted_at timestamptz;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table projects drop column budget_exhausted_at;
    alter table projects drop column paused_for;
    drop table digest_sends, webhook_delivery_attempts, webhook_deliveries, notification_settings, webhooks, event_outbox;
  `.execute(db);
}

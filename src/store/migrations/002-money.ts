// The money path (D7, D8, D11): reservations, per-project monthly spend, call logs, the learning
// outbox, top-ups through a payment processor, saved payment methods and invoices. Also the one
// function the hot path calls to reserve (see sb_reserve below for why it is a function).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    -- Auto-top-up fires once per crossing below the threshold: a settlement that leaves the
    -- balance below it disarms the rule and enqueues the charge; a credit that brings the balance
    -- back to or above the threshold re-arms it (ledger.ts).
    alter table wallets add column auto_topup_armed boolean not null default true;

    -- A worst-case hold on the wallet for one call attempt (id = the call id). The hold ends once:
    -- settled (debited), released (failed call) or swept (the call never came back).
    create table reservations (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid not null references projects(id),
      amount_micros bigint not null check (amount_micros >= 0),
      status text not null default 'reserved' check (status in ('reserved','settled','released','swept')),
      created_at timestamptz not null,
      settled_at timestamptz,
      -- When the hold on the wallet ended without a settlement (release or sweep). A settlement that
      -- arrives after a sweep still debits, but releases nothing a second time.
      released_at timestamptz,
      swept_at timestamptz,
      sweep_reason text
    );
    create index reservations_open on reservations (created_at) where status = 'reserved';
    create index reservations_project_open on reservations (project_id) include (amount_micros) where status = 'reserved';
    create index reservations_swept on reservations (tenant_id, swept_at) where swept_at is not null;

    -- Real spend per project per calendar month (UTC), maintained by settlement under the wallet
    -- lock so the budget check (D8) never sums the ledger on the hot path.
    create table project_spend (
      project_id uuid not null references projects(id) on delete cascade,
      month date not null,
      tenant_id uuid not null references tenants(id) on delete cascade,
      spent_micros bigint not null default 0 check (spent_micros >= 0),
      primary key (project_id, month)
    );

    -- No call is ever charged twice: at most one AI_USAGE entry per call id.
    create unique index ledger_ai_usage_call on ledger_entries (call_id) where event_type = 'AI_USAGE' and call_id is not null;
    -- Running balances are summed over seq ranges; this keeps that an index-only scan.
    create index ledger_tenant_seq_amount on ledger_entries (tenant_id, seq) include (amount_micros);

    -- One row per call attempt (spec §2 call log row + D12 routing record).
    create table call_logs (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid not null references projects(id),
      key_id uuid references api_keys(id),
      parent_call_id uuid,
      attempt smallint not null default 1 check (attempt >= 1),
      escalated boolean not null default false,
      status text not null check (status in ('succeeded','failed')),
      error_code text,
      channel text not null,
      client_shape text,
      stream boolean not null default false,
      conversation_id text,
      task_family text,
      complexity text,
      model_class text,
      routing_table_version text,
      routing_features jsonb,
      routing_rules jsonb not null default '[]',
      provider_key text,
      model_id text,
      region text,
      benchmark_provider text,
      benchmark_methodology_version text,
      actual_cost_usd_micros bigint,
      baseline_cost_usd_micros bigint,
      benchmark_pricing_version text,
      debited_micros bigint not null default 0,
      uncollected_micros bigint not null default 0,
      input_tokens integer not null default 0,
      output_tokens integer not null default 0,
      cached_input_tokens integer,
      latency_ms integer,
      qa jsonb,
      qa_scored_at timestamptz,
      prompt_excerpt text not null default '',
      ledger_entry_id uuid references ledger_entries(id),
      created_at timestamptz not null
    );
    create index call_logs_tenant_time on call_logs (tenant_id, created_at desc);
    create index call_logs_project_time on call_logs (project_id, created_at desc);
    create index call_logs_parent on call_logs (parent_call_id) where parent_call_id is not null;

    -- spec §2 LearningOutboxEvent: one row per completed dispatch, consumed by the learning plane.
    create table learning_outbox (
      id bigint generated always as identity primary key,
      call_id uuid not null unique,
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid not null references projects(id),
      provider_key text,
      model_id text not null,
      model_class text,
      request jsonb not null,
      response jsonb,
      input_tokens integer not null,
      output_tokens integer not null,
      quality_score jsonb,
      latency_ms integer,
      created_at timestamptz not null,
      consumed_at timestamptz
    );
    create index learning_outbox_pending on learning_outbox (id) where consumed_at is null;

    -- The card (or sandbox card) saved by the last completed checkout: auto-top-up charges it.
    -- The service never sees card data, only the processor's references.
    create table payment_methods (
      tenant_id uuid primary key references tenants(id) on delete cascade,
      processor text not null check (processor in ('sandbox','stripe')),
      customer_ref text,
      method_ref text,
      label text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    );

    -- spec §3 Wallet top-up: checkout_started → (payment confirmed) → credited.
    create table topups (
      id uuid primary key,
      tenant_id uuid not null references tenants(id) on delete cascade,
      kind text not null check (kind in ('checkout','auto')),
      amount_micros bigint not null check (amount_micros > 0),
      processor text not null check (processor in ('sandbox','stripe')),
      processor_ref text,
      status text not null default 'checkout_started' check (status in ('checkout_started','credited','failed')),
      failure_reason text,
      created_by uuid references users(id) on delete set null,
      created_at timestamptz not null,
      credited_at timestamptz,
      ledger_entry_id uuid unique references ledger_entries(id),
      unique (processor, processor_ref)
    );
    create index topups_tenant on topups (tenant_id, created_at desc);

    -- Processor webhook events already handled: a replayed event is acknowledged and ignored.
    create table processor_events (
      processor text not null,
      event_id text not null,
      event_type text not null,
      received_at timestamptz not null,
      primary key (processor, event_id)
    );

    create sequence invoice_number_seq;
    create table invoices (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      topup_id uuid not null unique references topups(id),
      number text not null unique,
      amount_micros bigint not null check (amount_micros > 0),
      currency text not null default 'USD',
      billed_to text not null,
      description text not null,
      payment_ref text,
      issued_at timestamptz not null
    );
    create index invoices_tenant on invoices (tenant_id, issued_at desc, id);

    -- reserve() in one round trip (D8). Why a function and not one statement with CTEs: every CTE
    -- of a statement reads the same snapshot, taken before the wallet row lock is granted, so a
    -- budget check written as a CTE could miss a reservation or settlement committed while it
    -- waited for the lock and over-admit. A VOLATILE function takes a fresh snapshot per
    -- statement: once the conditional UPDATE holds the wallet row (the per-tenant lock every
    -- reservation, release, sweep and settlement also takes), the budget read sees everything
    -- committed before it. Refusing the budget undoes the hold inside the same statement.
    create function sb_reserve(p_id uuid, p_tenant uuid, p_project uuid, p_amount bigint, p_at timestamptz, p_month date)
    returns text language plpgsql volatile as $fn$
    declare
      v_budget bigint;
      v_used bigint;
    begin
      update wallets set reserved_micros = reserved_micros + p_amount
       where tenant_id = p_tenant and balance_micros - reserved_micros >= p_amount;
      if not found then
        return 'insufficient_balance';
      end if;
      select monthly_budget_micros into v_budget
        from projects where id = p_project and tenant_id = p_tenant and deleted_at is null;
      if not found then
        update wallets set reserved_micros = reserved_micros - p_amount where tenant_id = p_tenant;
        return 'project_not_found';
      end if;
      if v_budget is not null then
        select coalesce((select spent_micros from project_spend where project_id = p_project and month = p_month), 0)
             + coalesce((select sum(amount_micros) from reservations where project_id = p_project and status = 'reserved'), 0)
          into v_used;
        if v_used + p_amount > v_budget then
          update wallets set reserved_micros = reserved_micros - p_amount where tenant_id = p_tenant;
          return 'budget_exceeded';
        end if;
      end if;
      insert into reservations (id, tenant_id, project_id, amount_micros, status, created_at)
      values (p_id, p_tenant, p_project, p_amount, 'reserved', p_at);
      return 'ok';
    end
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop function sb_reserve(uuid, uuid, uuid, bigint, timestamptz, date);
    drop table invoices, processor_events, topups, payment_methods, learning_outbox, call_logs, project_spend, reservations;
    drop sequence invoice_number_seq;
    drop index ledger_ai_usage_call, ledger_tenant_seq_amount;
    alter table wallets drop column auto_topup_armed;
  `.execute(db);
}

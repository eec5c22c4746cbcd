// Advisory imports (D14 tier 6): an uploaded history of calls and, per row, what Layer 1 and the
// price book say Switchboard would have done. Rows are written as the upload streams in (so the
// body is never held whole), then a worker job fills the decision columns in batches. Nothing
// here touches the wallet or the ledger: an advisory import is read-only by design.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table advisory_imports (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null references tenants(id) on delete cascade,
      project_id uuid not null,
      -- Who uploaded: a user (token or session) or a service key.
      user_id uuid references users(id) on delete set null,
      key_id uuid references api_keys(id) on delete set null,
      filename text,
      format text not null check (format in ('ndjson','csv')),
      status text not null check (status in ('receiving','queued','processing','done','failed')),
      total_rows integer not null default 0,
      processed_rows integer not null default 0,
      malformed_rows integer not null default 0,
      -- Frozen when the upload completes: a later change of benchmark does not rewrite a report.
      benchmark_provider text,
      quality_floor double precision not null,
      region text,
      pricing_version text not null,
      routing_table_version text,
      classifier_version text,
      error text,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz,
      foreign key (project_id, tenant_id) references projects (id, tenant_id) on delete cascade
    );
    create index advisory_imports_tenant on advisory_imports (tenant_id, created_at desc);

    -- One line of the upload as received: usable (ok) or malformed with its reason.
    create table advisory_import_rows (
      import_id uuid not null references advisory_imports(id) on delete cascade,
      line_no integer not null,
      status text not null check (status in ('ok','malformed')),
      error text,
      occurred_at timestamptz,
      -- The canonical request as JSON: what Layer 1 reads.
      request text,
      excerpt text,
      provider text,
      model text,
      input_tokens integer,
      output_tokens integer,
      primary key (import_id, line_no)
    );

    -- The worker's decision per usable line, appended (never an update of the uploaded row, so
    -- a 100,000-row import writes each row once and its decisions once).
    create table advisory_import_results (
      import_id uuid not null references advisory_imports(id) on delete cascade,
      line_no integer not null,
      task_family text not null,
      complexity text not null,
      model_class text not null,
      would_model text not null,
      input_tokens integer not null,
      output_tokens integer not null,
      actual_cost_micros bigint not null,
      would_cost_micros bigint not null,
      baseline_cost_micros bigint,
      primary key (import_id, line_no)
    );
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop table advisory_import_results;
    drop table advisory_import_rows;
    drop table advisory_imports;
  `.execute(db);
}

// Layer 3 (D5, D12): the versioned rule sets that asynchronous QA scores feed back into routing,
// and the append-only change log that explains every rule that appeared or went away.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table layer3_rulesets (
      version bigint primary key,
      rules jsonb not null,
      rules_version text not null,
      stats_window_ms bigint not null,
      calls_considered bigint not null,
      created_at timestamptz not null
    );

    create table layer3_rule_changes (
      id bigint generated always as identity primary key,
      ruleset_version bigint not null references layer3_rulesets(version),
      change text not null check (change in ('added', 'removed', 'renewed')),
      rule_id text not null,
      rule jsonb not null,
      reason text not null,
      created_at timestamptz not null
    );
    create index layer3_rule_changes_time on layer3_rule_changes (created_at desc);

    -- Unscored successful calls, for the asynchronous QA scorer to find cheaply.
    create index call_logs_unscored on call_logs (created_at) where qa_scored_at is null and status = 'succeeded';
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index call_logs_unscored; drop table layer3_rule_changes, layer3_rulesets`.execute(db);
}

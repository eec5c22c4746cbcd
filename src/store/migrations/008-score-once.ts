// The asynchronous QA score was written three times per call: to the call log (which Layer 3 and
// the audit insights read), to the ledger entry (spec §2 "QA score … written to the ledger entry"),
// and to the learning-outbox row, where nothing read it. The outbox's copy is now a view over the
// call log: LearningOutboxEvent's quality score (spec §4) is `learning_outbox_events.quality_score`.
// One row update fewer per call (docs/performance.md, session 3).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table learning_outbox drop column quality_score;
    create view learning_outbox_events as
      select o.id, o.call_id, o.tenant_id, o.project_id, o.provider_key, o.model_id, o.model_class, o.request, o.response,
             o.input_tokens, o.output_tokens, c.qa as quality_score, o.latency_ms, o.created_at, o.consumed_at
        from learning_outbox o join call_logs c on c.id = o.call_id;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    drop view learning_outbox_events;
    alter table learning_outbox add column quality_score jsonb;
    update learning_outbox o set quality_score = c.qa from call_logs c where c.id = o.call_id and c.qa is not null;
  `.execute(db);
}

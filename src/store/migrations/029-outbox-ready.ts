// The learning plane's outbox claim touches only rows that are ready (issue 18 item 7,
// docs/learning-plane.md "Yielding to live traffic"). A row is ready when its call's QA score is
// in, or when it has waited QA_WAIT_MS without one. Calls whose settlement carried their score
// (non-streamed calls, D5a) are ready the moment they are written; the others (streamed calls, scored
// later by the worker) wait. The claim used to walk every unconsumed row in id order joined to its
// call log and skip the waiting ones, on every batch: with tens of thousands of streamed calls
// waiting for their scores, each batch re-read all of them.
//
// `qa_wait` is written once, by the settlement's own insert (true when the settlement did not
// carry the score), and never updated. The one partial index of unconsumed rows becomes two, split
// by it: an insert still adds exactly one index entry, as before. The claim takes the first rows of
// the ready index, and looks at no more than one batch of the oldest waiting rows (those become
// ready first: the scorer works oldest first, and age makes every one ready in the end).
// The plane's role (switchboard_learning) gets no privilege on the column: it only reads it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table learning_outbox add column qa_wait boolean not null default false;
    update learning_outbox o set qa_wait = true
      from call_logs c
     where o.consumed_at is null and c.id = o.call_id and c.qa_scored_at is null;
    create index learning_outbox_ready on learning_outbox (id) where consumed_at is null and not qa_wait;
    create index learning_outbox_waiting on learning_outbox (id) where consumed_at is null and qa_wait;
    drop index learning_outbox_pending;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index learning_outbox_pending on learning_outbox (id) where consumed_at is null;
    drop index learning_outbox_ready, learning_outbox_waiting;
    alter table learning_outbox drop column qa_wait;
  `.execute(db);
}

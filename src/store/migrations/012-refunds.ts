// REFUND and ADJUSTMENT get real producers (issue 14): a top-up remembers the processor's payment
// (Stripe's PaymentIntent, which its refund events name) and how much of it was refunded, so a
// refund event is booked once and never beyond what was paid.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table topups
      add column payment_ref text,
      add column refunded_micros bigint not null default 0;
    alter table topups add constraint topups_refunded_range check (refunded_micros >= 0 and refunded_micros <= amount_micros);
    create index topups_payment_ref on topups (processor, payment_ref) where payment_ref is not null;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table topups drop column payment_ref, drop column refunded_micros`.execute(db);
}

// The settlement fast path (app/settlement.ts) asserts inside its one statement that every wallet
// still had the chain head the process expected: a false check aborts the statement, so nothing of
// the batch is written and it is settled again on the locking path.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function sb_settle_check(ok boolean) returns boolean language plpgsql volatile as $fn$
    begin
      if not ok then
        raise exception 'settlement head moved' using errcode = 'SB001';
      end if;
      return true;
    end
    $fn$;
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function sb_settle_check(boolean)`.execute(db);
}

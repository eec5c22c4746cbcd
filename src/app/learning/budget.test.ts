// The learning plane's budget (spec §4 "Budget debit", §7 rule 2, D15) on real PostgreSQL:
// ensureBudgetsForWindow is idempotent, the idempotency key gives the same withdrawal, an
// over-budget debit spends nothing and writes no audit row, and many workers (separate pools, as
// separate processes would be) debiting one budget at once never overspend it by a micro.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createDb, type Db } from '../../store/db.ts';
import { migrate } from '../../store/migrations/index.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/harness.ts';
import { BudgetExceededError, debitBudget, ensureBudgetsForWindow, synthIdempotencyKey } from './budget.repo.ts';
import { APPEND_ONLY_TABLES } from '../../store/migrations/017-learning-plane.ts';

let database: TestDatabase;
let db: Db;
const pools: Db[] = [];
const NOW = new Date('2026-11-24T10:00:00Z');
const DEFAULTS = { synthgen: 1_000n, replay: 500n };

before(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 4).db;
  await migrate(db);
});
after(async () => {
  for (const p of pools) await p.destroy();
  await db.destroy();
  await database.drop();
});

const budget = async (category: string) =>
  (await sql<{ budget_micros: bigint; spent_micros: bigint }>`select budget_micros, spent_micros from learning_plane_budgets where category = ${category} and window_key = '2026-11'`.execute(db)).rows[0];
const withdrawals = async () => (await sql<{ n: number; sum: bigint | null }>`select count(*)::int as n, sum(amount_micros)::bigint as sum from learning_plane_budget_withdrawals`.execute(db)).rows[0];

describe('learning-plane budget', () => {
  test('ensureBudgetsForWindow: one row per category per month, however often it runs', async () => {
    for (let i = 0; i < 3; i++) await ensureBudgetsForWindow(db, NOW, DEFAULTS);
    const rows = (await sql<{ category: string; window_key: string; budget_micros: bigint }>`select category, window_key, budget_micros from learning_plane_budgets order by category`.execute(db)).rows;
    assert.deepEqual(rows, [
      { category: 'replay', window_key: '2026-11', budget_micros: 500n },
      { category: 'synthgen', window_key: '2026-11', budget_micros: 1000n },
    ]);
    await ensureBudgetsForWindow(db, new Date('2026-12-01T00:00:00Z'), DEFAULTS);
    assert.equal((await sql<{ n: number }>`select count(*)::int as n from learning_plane_budgets`.execute(db)).rows[0].n, 4);
  });

  test('the same idempotency key gives the same withdrawal and debits once', async () => {
    const key = synthIdempotencyKey(randomUUID(), randomUUID(), '2026-11-24');
    assert.match(key, /^synthgen:synth:[0-9a-f-]{36}:[0-9a-f-]{36}:2026-11-24$/);
    const a = await debitBudget(db, { category: 'replay', amountMicros: 100n, idempotencyKey: key, reason: 't', now: NOW });
    const b = await debitBudget(db, { category: 'replay', amountMicros: 100n, idempotencyKey: key, reason: 't', now: NOW });
    assert.equal(a.freshDebit, true);
    assert.deepEqual(b, { withdrawalId: a.withdrawalId, freshDebit: false });
    assert.equal((await budget('replay')).spent_micros, 100n);
  });

  test('a debit larger than what is left raises BudgetExceededError: no spend, no audit row', async () => {
    const before = await withdrawals();
    await assert.rejects(
      debitBudget(db, { category: 'replay', amountMicros: 401n, idempotencyKey: `k-${randomUUID()}`, reason: 't', now: NOW }),
      (e: unknown) => e instanceof BudgetExceededError && e.availableMicros === 400n && e.amountMicros === 401n,
    );
    assert.deepEqual(await withdrawals(), before);
    assert.equal((await budget('replay')).spent_micros, 100n);
    // Exactly what is left still fits.
    await debitBudget(db, { category: 'replay', amountMicros: 400n, idempotencyKey: `k-${randomUUID()}`, reason: 't', now: NOW });
    assert.equal((await budget('replay')).spent_micros, 500n);
  });

  test('many workers at once never overspend one budget by a micro', async () => {
    // Eight separate pools (eight "workers"), 120 debits of 7 micros against 1,000: 142 fit (994).
    for (let i = 0; i < 8; i++) pools.push(createDb(database.url, 3).db);
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        debitBudget(pools[i % pools.length], { category: 'synthgen', amountMicros: 7n, idempotencyKey: `c-${i}`, reason: 'concurrent', now: NOW }),
      ),
    );
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const exceeded = results.filter((r) => r.status === 'rejected' && r.reason instanceof BudgetExceededError).length;
    assert.equal(ok, 142);
    assert.equal(exceeded, 58);
    const b = await budget('synthgen');
    assert.equal(b.spent_micros, 994n);
    assert.ok(b.spent_micros <= b.budget_micros);
    const w = (await sql<{ n: number; sum: bigint }>`select count(*)::int as n, sum(amount_micros)::bigint as sum from learning_plane_budget_withdrawals where category = 'synthgen'`.execute(db)).rows[0];
    assert.deepEqual(w, { n: 142, sum: 994n });
  });

  test('the same key from many workers at once still debits once', async () => {
    await sql`update learning_plane_budgets set budget_micros = budget_micros + 1000 where category = 'synthgen' and window_key = '2026-11'`.execute(db);
    const key = `same-${randomUUID()}`;
    const rs = await Promise.all(pools.map((p) => debitBudget(p, { category: 'synthgen', amountMicros: 50n, idempotencyKey: key, reason: 'dup', now: NOW })));
    assert.equal(rs.filter((r) => r.freshDebit).length, 1);
    assert.equal(new Set(rs.map((r) => r.withdrawalId)).size, 1);
    assert.equal((await budget('synthgen')).spent_micros, 1044n);
  });

  test('withdrawals and every other append-only table refuse UPDATE, DELETE and TRUNCATE, even to the owner', async () => {
    assert.ok(APPEND_ONLY_TABLES.length >= 14);
    await assert.rejects(sql`update learning_plane_budget_withdrawals set amount_micros = 1`.execute(db), /append-only/);
    await assert.rejects(sql`delete from learning_plane_budget_withdrawals`.execute(db), /append-only/);
    for (const t of APPEND_ONLY_TABLES) {
      await assert.rejects(sql`truncate ${sql.table(t)} cascade`.execute(db), /append-only/, t);
      const triggers = (await sql<{ n: number }>`select count(*)::int as n from pg_trigger where tgrelid = ${t}::regclass and tgname like 'append_only%'`.execute(db)).rows[0].n;
      assert.equal(triggers, 2, t);
    }
  });
});

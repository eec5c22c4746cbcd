// The learning plane's monthly budget per category (spec §4 "Budget debit", D15).
//
// Serialised across concurrent workers by the budget row's lock (SELECT ... FOR UPDATE): every
// debit of one category and month waits for the one before it, then checks what is left. The
// idempotency key is checked under the same lock, so a key replayed concurrently still debits
// once. A debit that does not fit raises BudgetExceededError before anything is written: no spend,
// no withdrawal row. Amounts are bigint micros throughout (D1).
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db, Executor } from '../../store/db.ts';
import { monthKey } from './hashing.ts';
import { asLearning } from './role.ts';

export const BUDGET_CATEGORIES = ['synthgen', 'replay'] as const;
export type BudgetCategory = (typeof BUDGET_CATEGORIES)[number];

export class BudgetExceededError extends Error {
  readonly code = 'budget_exceeded';
  constructor(
    readonly category: BudgetCategory,
    readonly windowKey: string,
    readonly amountMicros: bigint,
    readonly availableMicros: bigint,
  ) {
    super(`learning budget ${category} ${windowKey}: ${amountMicros} micros requested, ${availableMicros} available`);
  }
}

/** synthgen:synth:<proposalId>:<policyId>:<windowKey> (spec §4): the same key gives the same withdrawal. */
export const synthIdempotencyKey = (proposalId: string, policyId: string, windowKey: string) =>
  `synthgen:synth:${proposalId}:${policyId}:${windowKey}`;

export interface BudgetRow {
  id: string;
  category: BudgetCategory;
  windowKey: string;
  budgetMicros: bigint;
  spentMicros: bigint;
  availableMicros: bigint;
  createdAt: Date;
  updatedAt: Date;
}

type Raw = { id: string; category: BudgetCategory; window_key: string; budget_micros: bigint; spent_micros: bigint; created_at: Date; updated_at: Date };
const toRow = (r: Raw): BudgetRow => ({
  id: r.id,
  category: r.category,
  windowKey: r.window_key,
  budgetMicros: r.budget_micros,
  spentMicros: r.spent_micros,
  availableMicros: r.budget_micros > r.spent_micros ? r.budget_micros - r.spent_micros : 0n,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Idempotent: one budget row per category for the month of `now`, at the configured default. */
export async function ensureBudgetsForWindow(ex: Executor, now: Date, defaults: Record<BudgetCategory, bigint>): Promise<void> {
  const w = monthKey(now);
  for (const c of BUDGET_CATEGORIES) {
    await sql`
      insert into learning_plane_budgets (id, category, window_key, budget_micros, created_at, updated_at)
      values (${randomUUID()}, ${c}, ${w}, ${defaults[c]}, ${now}, ${now})
      on conflict (category, window_key) do nothing`.execute(ex);
  }
}

export interface DebitInput {
  category: BudgetCategory;
  amountMicros: bigint;
  idempotencyKey: string;
  reason: string;
  proposalId?: string | null;
  policyId?: string | null;
  now: Date;
}

/** Debit in its own transaction (as the learning role), committed before the caller spends. */
export async function debitBudget(db: Db, d: DebitInput): Promise<{ withdrawalId: string; freshDebit: boolean }> {
  if (d.amountMicros <= 0n) throw new RangeError('a debit must be a positive number of micros');
  const w = monthKey(d.now);
  return asLearning(db, async (tx) => {
    const budget = (await sql<Raw>`
      select * from learning_plane_budgets where category = ${d.category} and window_key = ${w} for update`.execute(tx)).rows[0];
    if (!budget) throw new Error(`no ${d.category} budget for ${w}: ensureBudgetsForWindow has not run`);
    const prior = (await sql<{ id: string }>`
      select id from learning_plane_budget_withdrawals where idempotency_key = ${d.idempotencyKey}`.execute(tx)).rows[0];
    if (prior) return { withdrawalId: prior.id, freshDebit: false };
    const available = budget.budget_micros - budget.spent_micros;
    if (available < d.amountMicros) throw new BudgetExceededError(d.category, w, d.amountMicros, available > 0n ? available : 0n);
    const id = randomUUID();
    await sql`
      insert into learning_plane_budget_withdrawals (id, budget_id, category, window_key, amount_micros, idempotency_key, proposal_id, policy_id, reason, created_at)
      values (${id}, ${budget.id}, ${d.category}, ${w}, ${d.amountMicros}, ${d.idempotencyKey}, ${d.proposalId ?? null}, ${d.policyId ?? null}, ${d.reason}, ${d.now})`.execute(tx);
    await sql`update learning_plane_budgets set spent_micros = spent_micros + ${d.amountMicros}, updated_at = ${d.now} where id = ${budget.id}`.execute(tx);
    return { withdrawalId: id, freshDebit: true };
  });
}

/** Every window's rows, newest month first (D9 cursor over window key and category). */
export async function listBudgets(ex: Executor, limit: number, after: { windowKey: string; category: string } | null): Promise<BudgetRow[]> {
  const rows = await sql<Raw>`
    select * from learning_plane_budgets
     where ${after === null ? sql`true` : sql`(window_key, category) < (${after.windowKey}, ${after.category})`}
     order by window_key desc, category desc limit ${limit}`.execute(ex);
  return rows.rows.map(toRow);
}

export interface BudgetChange {
  id: string;
  budgetId: string;
  previousBudgetMicros: bigint;
  budgetMicros: bigint;
  changedByUserId: string;
  createdAt: Date;
}

export async function listBudgetChanges(ex: Executor, limit = 50): Promise<BudgetChange[]> {
  const rows = await sql<{ id: string; budget_id: string; previous_budget_micros: bigint; budget_micros: bigint; changed_by_user_id: string; created_at: Date }>`
    select * from learning_plane_budget_changes order by created_at desc, id desc limit ${limit}`.execute(ex);
  return rows.rows.map((r) => ({ id: r.id, budgetId: r.budget_id, previousBudgetMicros: r.previous_budget_micros, budgetMicros: r.budget_micros, changedByUserId: r.changed_by_user_id, createdAt: r.created_at }));
}

export type SetBudgetResult = { ok: true; budget: BudgetRow; change: BudgetChange } | { ok: false; code: 'not_found' | 'not_current_window' };

/** PATCH budget (D15): only the current month's row; the change and its author are recorded in the same transaction. */
export async function setBudget(db: Db, id: string, budgetMicros: bigint, userId: string, now: Date): Promise<SetBudgetResult> {
  return db.transaction().execute(async (tx) => {
    const cur = (await sql<Raw>`select * from learning_plane_budgets where id = ${id} for update`.execute(tx)).rows[0];
    if (!cur) return { ok: false, code: 'not_found' } as const;
    if (cur.window_key !== monthKey(now)) return { ok: false, code: 'not_current_window' } as const;
    const upd = (await sql<Raw>`update learning_plane_budgets set budget_micros = ${budgetMicros}, updated_at = ${now} where id = ${id} returning *`.execute(tx)).rows[0];
    const change: BudgetChange = { id: randomUUID(), budgetId: id, previousBudgetMicros: cur.budget_micros, budgetMicros, changedByUserId: userId, createdAt: now };
    await sql`
      insert into learning_plane_budget_changes (id, budget_id, previous_budget_micros, budget_micros, changed_by_user_id, created_at)
      values (${change.id}, ${id}, ${cur.budget_micros}, ${budgetMicros}, ${userId}, ${now})`.execute(tx);
    return { ok: true, budget: toRow(upd), change } as const;
  });
}

// The wallet contract the proxy pipeline relies on (D7, D8): reserve, release, settleCall, the
// budget check, the over-cost rule, idempotency and escalation, all against real PostgreSQL. The
// call rows, failed calls and the benchmark attribution are in call-records.test.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, MODEL, USAGE, callId, credit, ledgerSum, newTenant, settlement, walletRow } from '../../../test/money.ts';
import { AppError } from '../../core/errors.ts';
import { verifyLedger } from './ledger-view.ts';
import { sweepReservations } from './sweeper.ts';
import {
  PROMPT_EXCERPT_CHARS,
  recordQaScore,
  release,
  reserve,
  settleCall,
} from './wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

const s = () => srv.services;

const rejectsWith = (code: string) => (e: unknown) => e instanceof AppError && e.code === code;

describe('reserve and release', () => {
  test('a reservation holds the amount; the wallet refuses what balance − reserved cannot cover (402)', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000n);
    const r1 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 600n });
    assert.equal(r1.amountMicros, 600n);
    let w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 1_000n);
    assert.equal(w.reserved_micros, 600n);
    await assert.rejects(reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 401n }), rejectsWith('insufficient_balance'));
    const r2 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 400n });
    w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 1_000n, 'exactly the balance can be reserved');
    const row = await s().db.selectFrom('reservations').selectAll().where('id', '=', r2.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'reserved');
    assert.equal(row.project_id, t.projectId);
    assert.equal(row.amount_micros, 400n);

    await release(s(), r1);
    await release(s(), r1); // idempotent
    w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 400n);
    assert.equal(w.balance_micros, 1_000n, 'release debits nothing');
    const rr = await s().db.selectFrom('reservations').select(['status', 'released_at']).where('id', '=', r1.id).executeTakeFirstOrThrow();
    assert.equal(rr.status, 'released');
    assert.ok(rr.released_at);
    assert.equal(await s().db.selectFrom('ledger_entries').select('id').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').executeTakeFirst(), undefined);
  });

  test('a reused call id, an unknown project and another tenant\'s project are refused without holding anything', async () => {
    const t = await newTenant(s());
    const other = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const id = callId();
    await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: id, amountMicros: 100n });
    await assert.rejects(reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: id, amountMicros: 100n }), rejectsWith('conflict'));
    await assert.rejects(reserve(s(), { tenantId: t.tenantId, projectId: other.projectId, callId: callId(), amountMicros: 100n }), rejectsWith('not_found'));
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 100n, 'the refused attempts left no hold behind');
  });
});

describe('project monthly budget (D8)', () => {
  test('spend this month + in-flight + amount may reach the budget but not exceed it; a new UTC month starts again', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    const start = Date.UTC(2031, 0, 31, 23, 0, 0);
    srv.clock.set(start);
    await s().db.updateTable('projects').set({ monthly_budget_micros: 1_000n }).where('id', '=', t.projectId).execute();
    // Spend 450 this month.
    const a = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 500n });
    await settleCall(s(), settlement(t, a));
    // In flight: 300.
    const b = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 300n });
    // 450 + 300 + 251 > 1000
    await assert.rejects(reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 251n }), rejectsWith('budget_exceeded'));
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 300n, 'a budget refusal holds nothing');
    // 450 + 300 + 250 = 1000: allowed.
    const c = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 250n });
    await release(s(), c);
    await release(s(), b);
    // Next month (UTC): the spend counter starts from zero.
    srv.clock.set(start + 2 * 3_600_000);
    const d = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    await release(s(), d);
    // A null budget is unlimited.
    await s().db.updateTable('projects').set({ monthly_budget_micros: null }).where('id', '=', t.projectId).execute();
    const e = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 900_000n });
    await release(s(), e);
    srv.clock.set(Date.now());
  });

  test('concurrent reservations on one project never over-admit past its budget', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000_000n);
    await s().db.updateTable('projects').set({ monthly_budget_micros: 10_000n }).where('id', '=', t.projectId).execute();
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, () => reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n })),
    );
    const okCount = results.filter((r) => r.status === 'fulfilled').length;
    assert.equal(okCount, 10);
    assert.ok(results.every((r) => r.status === 'fulfilled' || rejectsWith('budget_exceeded')(r.reason)));
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 10_000n);
  });
});

describe('settleCall', () => {
  test('one transaction: debit, release, sealed AI_USAGE entry with every audit column, call log, learning outbox, project spend', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 100_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 2_000n });
    const longPrompt = 'x'.repeat(PROMPT_EXCERPT_CHARS + 100);
    const res = await settleCall(s(), settlement(t, r, { promptExcerpt: longPrompt, conversationId: 'conv-1' }));
    assert.equal(res.costMicros, COST);
    assert.equal(res.debitedMicros, COST);
    assert.equal(res.uncollectedMicros, 0n);
    assert.equal(res.duplicate, false);
    assert.equal(res.balanceAfterMicros, 100_000n - COST);
    // anthropic economy reference claude-3-5-haiku ($0.80 / $4.00): 800 + 2000 = 2800 micros.
    assert.deepEqual(res.savings, {
      benchmarkProvider: 'anthropic',
      baselineCostMicros: 2_800n,
      tokensSavedMicros: 2_350n,
      percentSavedBps: 8_393n,
      methodologyVersion: 'sav-v1',
      pricingVersion: 'pb-2026-11-01',
    });

    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 100_000n - COST);
    assert.equal(w.reserved_micros, 0n);

    const e = await s().db.selectFrom('ledger_entries').selectAll().where('id', '=', res.ledgerEntryId).executeTakeFirstOrThrow();
    assert.equal(e.event_type, 'AI_USAGE');
    assert.equal(e.customer_label, 'AI usage');
    assert.equal(e.amount_micros, -COST);
    assert.equal(e.project_id, t.projectId);
    assert.equal(e.call_id, r.id);
    assert.equal(e.model_id, MODEL);
    assert.equal(e.provider_key, 'openai');
    assert.equal(e.benchmark_provider, 'anthropic');
    assert.equal(e.benchmark_methodology_version, 'sav-v1');
    assert.equal(e.actual_cost_usd_micros, COST);
    assert.equal(e.baseline_cost_usd_micros, 2_800n);
    assert.equal(e.benchmark_pricing_version, 'pb-2026-11-01');

    const c = await s().db.selectFrom('call_logs').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal(c.status, 'succeeded');
    assert.equal(c.ledger_entry_id, res.ledgerEntryId);
    assert.deepEqual([c.provider_key, c.model_id, c.region], ['openai', MODEL, 'us-east'], 'approved delivery path');
    assert.equal(c.benchmark_provider, 'anthropic');
    assert.equal(c.benchmark_methodology_version, 'sav-v1');
    assert.equal(c.actual_cost_usd_micros, COST);
    assert.equal(c.baseline_cost_usd_micros, 2_800n);
    assert.equal(c.benchmark_pricing_version, 'pb-2026-11-01');
    assert.equal(c.channel, 'proxy:chat');
    assert.equal(c.client_shape, 'openai');
    assert.equal(c.model_class, 'economy');
    assert.equal(c.routing_table_version, 'rt-2026-11-01');
    assert.equal(typeof c.task_family, 'string');
    assert.equal(typeof c.complexity, 'string');
    assert.equal(typeof (c.routing_features as Record<string, unknown>).promptTokens, 'number');
    assert.deepEqual([c.input_tokens, c.output_tokens, c.latency_ms], [USAGE.inputTokens, USAGE.outputTokens, 321]);
    assert.deepEqual([c.attempt, c.escalated, c.parent_call_id], [1, false, null]);
    assert.equal(c.prompt_excerpt.length, PROMPT_EXCERPT_CHARS);
    assert.equal(c.conversation_id, 'conv-1');
    assert.equal(c.qa, null);

    const o = await s().db.selectFrom('learning_outbox').selectAll().where('call_id', '=', r.id).executeTakeFirstOrThrow();
    assert.deepEqual([o.tenant_id, o.project_id, o.model_id, o.input_tokens, o.output_tokens, o.latency_ms], [t.tenantId, t.projectId, MODEL, 1000, 500, 321]);
    assert.deepEqual(o.response, { text: 'The sea is wide.' });
    assert.ok(o.created_at instanceof Date);

    const spend = await s().db.selectFrom('project_spend').select('spent_micros').where('project_id', '=', t.projectId).executeTakeFirstOrThrow();
    assert.equal(spend.spent_micros, COST);
    assert.equal((await s().db.selectFrom('reservations').select('status').where('id', '=', r.id).executeTakeFirstOrThrow()).status, 'settled');
    assert.deepEqual(await verifyLedger(s().db, s().secrets.ledger, t.tenantId), { verified: true, firstBroken: null, checked: 2, reason: null });

    // The QA score arrives later, on the call log, the ledger entry and the outbox row.
    await recordQaScore(s(), { tenantId: t.tenantId, callId: r.id, qa: { accuracy: 0.9, structure: 1, hallucinationRisk: 0.1, instructionFidelity: 0.8 } });
    const qa = await s().db.selectFrom('call_logs').select(['qa', 'qa_scored_at']).where('id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal((qa.qa as Record<string, number>).accuracy, 0.9);
    assert.ok(qa.qa_scored_at);
    assert.deepEqual(await verifyLedger(s().db, s().secrets.ledger, t.tenantId), { verified: true, firstBroken: null, checked: 2, reason: null }, 'the QA column is not sealed');
    // A score's reasons may quote model output holding what jsonb refuses: stored with U+FFFD.
    await recordQaScore(s(), { tenantId: t.tenantId, callId: r.id, qa: { accuracy: 0.5, reasons: ['unsourced_citation: a\u0000b \udc00'] } });
    const odd = await s().db.selectFrom('ledger_entries').select('qa').where('call_id', '=', r.id).executeTakeFirstOrThrow();
    assert.deepEqual((odd.qa as { reasons: string[] }).reasons, ['unsourced_citation: a\ufffdb \ufffd']);
  });

  test('settling twice charges once and returns the first settlement', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const [a, b] = await Promise.all([settleCall(s(), settlement(t, r)), settleCall(s(), settlement(t, r))]);
    const first = a.duplicate ? b : a;
    const second = a.duplicate ? a : b;
    assert.equal(first.duplicate, false);
    assert.equal(second.duplicate, true);
    assert.equal(second.ledgerEntryId, first.ledgerEntryId);
    assert.equal(second.costMicros, COST);
    assert.deepEqual(second.savings, first.savings);
    const third = await settleCall(s(), settlement(t, r));
    assert.equal(third.duplicate, true);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 10_000n - COST);
    const n = await s().db.selectFrom('ledger_entries').select(sql<bigint>`count(*)::bigint`.as('n')).where('call_id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal(n.n, 1n);
  });

  test('without a benchmark provider the savings are null, never a fabricated 0 %', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const res = await settleCall(s(), settlement(t, r, { benchmarkProvider: null }));
    assert.equal(res.savings, null);
    const e = await s().db.selectFrom('ledger_entries').selectAll().where('id', '=', res.ledgerEntryId).executeTakeFirstOrThrow();
    assert.equal(e.benchmark_provider, null);
    assert.equal(e.baseline_cost_usd_micros, null);
    assert.equal(e.actual_cost_usd_micros, COST);
  });

  test('a failing `extra` rolls the whole settlement back: nothing debited, the hold intact', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    let sawOwnWrites = false;
    await assert.rejects(
      settleCall(
        s(),
        settlement(t, r),
        {
          extra: async (tx) => {
            // Inside the same transaction: the call-log row is visible here.
            sawOwnWrites = !!(await tx.selectFrom('call_logs').select('id').where('id', '=', r.id).executeTakeFirst());
            throw new Error('event outbox unavailable');
          },
        },
      ),
      /event outbox unavailable/,
    );
    assert.ok(sawOwnWrites);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 10_000n);
    assert.equal(w.reserved_micros, 1_000n);
    assert.equal(await s().db.selectFrom('call_logs').select('id').where('id', '=', r.id).executeTakeFirst(), undefined);
    const ok = await settleCall(s(), settlement(t, r));
    assert.equal(ok.duplicate, false, 'the retried settlement goes through');
  });

  test('quality escalation: every attempt is debited and sealed; the failed one is marked escalated', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 100_000n);
    const a1 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    await settleCall(s(), settlement(t, a1, { escalated: true }));
    const a2 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 20_000n });
    await settleCall(s(), settlement(t, a2, { attempt: 2, parentCallId: a1.id, model: 'gpt-4.1-mini', modelClass: 'standard' }));
    const rows = await s().db.selectFrom('call_logs').select(['id', 'attempt', 'escalated', 'parent_call_id', 'model_class', 'debited_micros']).where('tenant_id', '=', t.tenantId).orderBy('attempt').execute();
    assert.deepEqual(
      rows.map((r) => [r.attempt, r.escalated, r.parent_call_id, r.model_class]),
      [
        [1, true, null, 'economy'],
        [2, false, a1.id, 'standard'],
      ],
    );
    // gpt-4.1-mini ($0.40 / $1.60): 400 + 800 = 1200 micros.
    assert.equal(rows[1].debited_micros, 1_200n);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 100_000n - COST - 1_200n);
    const entries = await s().db.selectFrom('ledger_entries').select('call_id').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').execute();
    assert.equal(entries.length, 2);
  });

  test('a real cost above the reservation is debited in full when the wallet covers it', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 100n });
    const res = await settleCall(s(), settlement(t, r));
    assert.equal(res.debitedMicros, COST);
    assert.equal(res.uncollectedMicros, 0n);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 10_000n - COST);
  });

  test('when it cannot, the debit stops at what other calls have not reserved; the rest is recorded as uncollected', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 500n);
    const other = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 300n });
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 100n });
    // Real cost 450, but only 500 − 300 (other call's hold) = 200 is free to take.
    const res = await settleCall(s(), settlement(t, r));
    assert.equal(res.costMicros, COST);
    assert.equal(res.debitedMicros, 200n);
    assert.equal(res.uncollectedMicros, 250n);
    let w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 300n);
    assert.equal(w.reserved_micros, 300n, "the other call's hold is intact");
    const c = await s().db.selectFrom('call_logs').select(['debited_micros', 'uncollected_micros', 'actual_cost_usd_micros']).where('id', '=', r.id).executeTakeFirstOrThrow();
    assert.deepEqual([c.debited_micros, c.uncollected_micros, c.actual_cost_usd_micros], [200n, 250n, COST]);
    const e = await s().db.selectFrom('ledger_entries').select(['amount_micros', 'actual_cost_usd_micros']).where('call_id', '=', r.id).executeTakeFirstOrThrow();
    assert.deepEqual([e.amount_micros, e.actual_cost_usd_micros], [-200n, COST], 'the ledger shows the debit; the audit column the real cost');
    // The other call still settles in full.
    const o = await settleCall(s(), settlement(t, other, { usage: { inputTokens: 1000, outputTokens: 0 } }));
    assert.equal(o.debitedMicros, 150n);
    w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 150n);
    assert.equal(w.reserved_micros, 0n);
    assert.equal(await ledgerSum(s(), t.tenantId), w.balance_micros);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });

  test('a settlement that arrives after its hold was swept still debits, and releases nothing twice', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    srv.clock.advance(11 * 60_000);
    const swept = await sweepReservations(s());
    assert.ok(swept.swept >= 1);
    let w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 0n);
    const res = await settleCall(s(), settlement(t, r));
    assert.equal(res.debitedMicros, COST);
    w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 0n);
    assert.equal(w.balance_micros, 10_000n - COST);
    const row = await s().db.selectFrom('reservations').selectAll().where('id', '=', r.id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'settled');
    assert.ok(row.swept_at, 'the sweep stays on record for the audit tab');
    srv.clock.set(Date.now());
  });

  test('settling an unknown reservation is refused', async () => {
    const t = await newTenant(s());
    const ghost = { id: callId(), tenantId: t.tenantId, projectId: t.projectId, amountMicros: 10n, createdAt: new Date() };
    await assert.rejects(settleCall(s(), settlement(t, ghost)), rejectsWith('not_found'));
  });
});

// Admission against wallet leases and group-committed settlement (D8, docs/decisions.md
// "Admission and group commit"), against real PostgreSQL: what the wallet holds, when a call is
// refused, what a lease becomes after settlements, failures, context changes, idleness and a sweep,
// and that concurrent settlements share transactions while one bad settlement fails alone.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, callId, credit, ledgerSum, newTenant, settlement, waitFor, walletRow, type Tenant } from '../../../test/money.ts';
import { AppError } from '../../core/errors.ts';
import { verifyLedger } from './ledger-view.ts';
import { sweepReservations } from './sweeper.ts';
import { createProject } from '../projects/projects.ts';
import { Admission, LEASE_CALLS, LEASE_IDLE_MS } from './admission.ts';
import { FAST_PAUSE_MS } from './settlement.ts';
import { llmCallFrame } from '../events/events.ts';
import { invalidateCallContext, recordFailedCall, reserve, settleCall, type Reservation } from './wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());
const s = () => srv.services;

const refusedWith = (code: string) => (e: unknown) => e instanceof AppError && e.code === code;

/** What reserveCall (call/accounting.ts) does: admit in memory, return the call's reservation. */
async function admit(t: { tenantId: string; projectId: string }, amount: bigint, adm: Admission = s().admission): Promise<Reservation> {
  const admitted = await adm.admit(t.tenantId, t.projectId, amount);
  return { id: callId(), tenantId: t.tenantId, projectId: t.projectId, amountMicros: amount, createdAt: s().clock.now(), admitted };
}

async function leaseRows(tenantId: string) {
  return s().db.selectFrom('reservations').selectAll().where('tenant_id', '=', tenantId).where('kind', '=', 'lease').orderBy('created_at').execute();
}

/** Admit calls of `amount` until the wallet refuses; returns the admitted ones and the refusal. */
async function admitUntilRefused(t: { tenantId: string; projectId: string }, amount: bigint, max = 50) {
  const admitted: Reservation[] = [];
  for (let i = 0; i < max; i++) {
    try {
      admitted.push(await admit(t, amount));
    } catch (e) {
      return { admitted, refusal: e };
    }
  }
  throw new Error(`no refusal after ${max} calls`);
}

describe('admission leases', () => {
  test('calls are admitted in memory against one lease; settlements consume what the calls cost; an idle lease is released', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    const calls = await Promise.all(Array.from({ length: 10 }, () => admit(t, 1_000n)));
    const [lease] = await leaseRows(t.tenantId);
    assert.equal((await leaseRows(t.tenantId)).length, 1, 'one database round trip for ten calls');
    assert.equal(lease.amount_micros, 1_000n * LEASE_CALLS);
    assert.equal(lease.status, 'reserved');
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 1_000n * LEASE_CALLS, 'the lease is held like any reservation');

    const settled = await Promise.all(calls.map((r) => settleCall(s(), settlement(t, r))));
    assert.ok(settled.every((x) => x.debitedMicros === COST && !x.duplicate));
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 1_000_000n - 10n * COST);
    const used = 10n * (COST < 1_000n ? COST : 1_000n);
    assert.equal(w.reserved_micros, 1_000n * LEASE_CALLS - used, 'each settlement released what its call used from the lease');
    assert.equal((await leaseRows(t.tenantId))[0].amount_micros, 1_000n * LEASE_CALLS - used);
    assert.equal(w.balance_micros, await ledgerSum(s(), t.tenantId));
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);

    // Nothing in flight for LEASE_IDLE_MS: the lease goes back to the wallet.
    await waitFor('the idle lease to be released', async () => (await leaseRows(t.tenantId))[0].status === 'released', LEASE_IDLE_MS + 5_000);
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 0n);
    assert.equal(s().admission.leases().filter((l) => l.tenantId === t.tenantId).length, 0);
  });

  test('one replica refuses (402) exactly when balance minus in-flight worst cases cannot cover the call', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const { admitted, refusal } = await admitUntilRefused(t, 3_000n);
    assert.equal(admitted.length, 3, '3 × 3,000 fit in 10,000, a fourth does not');
    assert.ok(refusedWith('insufficient_balance')(refusal));
    const w = await walletRow(s(), t.tenantId);
    assert.ok(w.reserved_micros >= 9_000n && w.reserved_micros <= w.balance_micros, `holds cover the in-flight calls (${w.reserved_micros})`);

    // A failed call frees its worst case at once (once: a second release gives nothing back): the
    // next call fits again, the one after does not.
    await recordFailedCall(s(), { ...settlement(t, admitted[0]), reservation: admitted[0], errorCode: 'upstream_failed' });
    s().admission.released(admitted[0].admitted!);
    const again = await admit(t, 3_000n);
    await assert.rejects(admit(t, 3_000n), refusedWith('insufficient_balance'));
    for (const r of [...admitted.slice(1), again]) await settleCall(s(), settlement(t, r));
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 10_000n - 3n * COST);
  });

  test("another project's idle lease does not make the wallet refuse a call it can cover", async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const other = await createProject(s().db, t.tenantId, { name: 'Other' });
    const o = { tenantId: t.tenantId, projectId: other.id };
    await settleCall(s(), settlement(o, await admit(o, 1_000n))); // leaves Other with an idle lease
    assert.ok((await walletRow(s(), t.tenantId)).reserved_micros > 0n, 'Other still holds its lease');
    const { admitted, refusal } = await admitUntilRefused(t, 3_000n);
    assert.equal(admitted.length, Number((10_000n - COST) / 3_000n));
    assert.ok(refusedWith('insufficient_balance')(refusal));
    for (const r of admitted) await settleCall(s(), settlement(t, r));
  });

  test("a project's monthly budget bounds its leases: spend + in flight + the call may reach it, not exceed it", async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    await s().db.updateTable('projects').set({ monthly_budget_micros: 5_000n }).where('id', '=', t.projectId).execute();
    const first = await admitUntilRefused(t, 2_000n);
    assert.equal(first.admitted.length, 2);
    assert.ok(refusedWith('budget_exceeded')(first.refusal));
    for (const r of first.admitted) await settleCall(s(), settlement(t, r));
    // Spent 2 × COST; 5,000 − 2 × COST leaves room for one more call of 2,000.
    const second = await admitUntilRefused(t, 2_000n);
    assert.equal(second.admitted.length, Number((5_000n - 2n * COST) / 2_000n));
    assert.ok(refusedWith('budget_exceeded')(second.refusal));
    for (const r of second.admitted) await settleCall(s(), settlement(t, r));
  });

  test('a changed call context retires the leases: the next call takes a new one under the new settings', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    await settleCall(s(), settlement(t, await admit(t, 1_000n)));
    await s().db.updateTable('projects').set({ monthly_budget_micros: 1_500n }).where('id', '=', t.projectId).execute();
    invalidateCallContext(s(), t.tenantId);
    await waitFor('the old lease to be released', async () => (await leaseRows(t.tenantId))[0].status === 'released');
    const r = await admit(t, 1_000n);
    const rows = await leaseRows(t.tenantId);
    assert.equal(rows.length, 2);
    assert.equal(rows[1].amount_micros, 1_500n - COST, 'the new lease is bounded by the new budget');
    await assert.rejects(admit(t, 1_000n), refusedWith('budget_exceeded'));
    await settleCall(s(), settlement(t, r));
  });

  test("a dead replica's lease is swept; a late settlement still debits, releases nothing twice, and the replica takes a new lease", async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    const replica = new Admission(s()); // never started: no idle release, like a process that stopped
    const late = await admit(t, 1_000n, replica);
    srv.clock.advance(11 * 60_000);
    const swept = await sweepReservations(s());
    assert.ok(swept.swept >= 1);
    assert.equal((await leaseRows(t.tenantId))[0].status, 'swept');
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 0n);

    // The replica was only paused: its settlement arrives after the sweep.
    const res = await replicaSettle(replica, t, late);
    assert.equal(res.debitedMicros, COST);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 0n, 'the swept lease is not released a second time');
    assert.equal(w.balance_micros, 1_000_000n - COST);
    assert.equal(late.admitted!.lease.dead, true);
    const next = await admit(t, 1_000n, replica);
    assert.notEqual(next.admitted!.lease.id, late.admitted!.lease.id);
    await replicaSettle(replica, t, next);
    await replica.close();
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 0n, 'close released the new lease');
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });
});

/** Settle through the shared settler; the lease bookkeeping goes to the reservation's own replica. */
async function replicaSettle(replica: Admission, t: Tenant, r: Reservation) {
  const own = s().admission;
  (s() as { admission: Admission }).admission = replica;
  try {
    return await settleCall(s(), settlement(t, r));
  } finally {
    (s() as { admission: Admission }).admission = own;
  }
}

describe('group commit', () => {
  test("one tenant's concurrent settlements share transactions, in chain order, each debited once", async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000_000n);
    const calls = await Promise.all(Array.from({ length: 60 }, () => admit(t, 1_000n)));
    // Each call its own documents (with characters JSON and array literals escape), so a row
    // that took another call's request, response or event frame would show.
    const doc = (i: number) => `answer ${i}: "quoted", back\\slash, {brace}, ü, 🌊`;
    const settled = await Promise.all(
      calls.map((r, i) =>
        settleCall(
          s(),
          settlement(t, r, {
            request: { messages: [{ role: 'user', content: `question ${i} "with quotes"` }] },
            response: { text: doc(i) },
            events: [{ tenantWide: false, frame: llmCallFrame({ tenantId: t.tenantId, projectId: t.projectId, at: s().clock.now(), call: { callId: r.id, modelClass: 'economy', taskFamily: 'conversation', complexity: 'low', inputTokens: i, outputTokens: 1, costMicros: COST, savingsTokens: null, escalated: false, latencyMs: 1, channel: 'proxy' } }) }],
          }),
        ),
      ),
    );
    assert.equal(new Set(settled.map((x) => x.ledgerEntryId)).size, 60);
    const outbox = await s().db.selectFrom('learning_outbox').select(['call_id', 'request', 'response']).where('tenant_id', '=', t.tenantId).execute();
    const frames = await s().db.selectFrom('event_outbox').select(['frame']).where('tenant_id', '=', t.tenantId).execute();
    assert.equal(outbox.length, 60);
    assert.equal(frames.length, 60);
    calls.forEach((r, i) => {
      const o = outbox.find((x) => x.call_id === r.id);
      assert.deepEqual(o?.response, { text: doc(i) });
      assert.deepEqual(o?.request, { messages: [{ role: 'user', content: `question ${i} "with quotes"` }] });
      const f = frames.find((x) => (x.frame as { payload: { callId: string } }).payload.callId === r.id);
      assert.equal((f?.frame as { payload: { inputTokens: number } }).payload.inputTokens, i);
    });
    const tx = await sql<{ entries: bigint; transactions: bigint }>`
      select count(*)::bigint as entries, count(distinct xmin::text)::bigint as transactions
        from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(s().db);
    assert.equal(tx.rows[0].entries, 60n);
    assert.ok(tx.rows[0].transactions < 60n, `60 settlements in ${tx.rows[0].transactions} transactions`);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 10_000_000n - 60n * COST);
    assert.equal(w.balance_micros, await ledgerSum(s(), t.tenantId));
    const v = await verifyLedger(s().db, s().secrets.ledger, t.tenantId);
    assert.equal(v.verified, true);
    assert.equal(v.checked, 61);
    // balance_after follows the chain: each entry is the previous one minus its debit.
    const rows = await s().db.selectFrom('ledger_entries').select(['seq', 'amount_micros', 'balance_after_micros']).where('tenant_id', '=', t.tenantId).orderBy('seq').execute();
    for (let i = 1; i < rows.length; i++) assert.equal(rows[i].balance_after_micros, rows[i - 1].balance_after_micros + rows[i].amount_micros);
  });

  test('a known chain head settles in one statement; a head moved by another writer falls back to the locking path, and the chain stays whole', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    const stats = s().settler.stats;
    await settleCall(s(), settlement(t, await admit(t, 1_000n))); // first: the head is not known yet
    const before = { ...stats };
    await settleCall(s(), settlement(t, await admit(t, 1_000n)));
    assert.equal(stats.fast - before.fast, 1, 'the head this process wrote is the one it expects');
    assert.equal(stats.locked - before.locked, 0);

    await credit(s(), t.tenantId, 5_000n); // another writer appends: the cached head is stale
    const mid = { ...stats };
    await settleCall(s(), settlement(t, await admit(t, 1_000n)));
    assert.equal(stats.fellBack - mid.fellBack, 1, 'the stale head is refused inside the statement');
    assert.equal(stats.locked - mid.locked, 1);
    await settleCall(s(), settlement(t, await admit(t, 1_000n)));
    assert.equal(stats.locked - mid.locked, 2, 'the tenant stays on the locking path for a while (another replica may be writing)');
    await new Promise((r) => setTimeout(r, FAST_PAUSE_MS + 50));
    await settleCall(s(), settlement(t, await admit(t, 1_000n)));
    assert.equal(stats.fast - mid.fast, 1, 'then its batches are fast again');

    // A per-call hold settled twice concurrently: the duplicate is found, the debit taken once.
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const [x, y] = await Promise.all([settleCall(s(), settlement(t, r)), settleCall(s(), settlement(t, r))]);
    assert.deepEqual([x.duplicate, y.duplicate].sort(), [false, true]);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 1_005_000n - 6n * COST);
    assert.equal(w.balance_micros, await ledgerSum(s(), t.tenantId));
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });

  test('a wallet too short to cover a batch without its releases goes the locking path, which caps the debit', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000n);
    const first = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 100n });
    await settleCall(s(), settlement(t, first, { usage: { inputTokens: 100, outputTokens: 0 } })); // head now known
    const w0 = await walletRow(s(), t.tenantId);
    // A hold of everything that is left, then a call costing more than the wallet has free.
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: w0.balance_micros });
    const before = { ...s().settler.stats };
    const res = await settleCall(s(), settlement(t, r, { usage: { inputTokens: 1_000_000, outputTokens: 0 } }));
    assert.equal(s().settler.stats.fellBack - before.fellBack, 1);
    assert.equal(res.debitedMicros, w0.balance_micros, 'capped at what the wallet holds');
    assert.ok(res.uncollectedMicros > 0n);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 0n);
    assert.equal(w.reserved_micros, 0n);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });

  test('a settlement that fails in a shared batch fails alone: the others commit, its hold stays', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 1_000_000n);
    const holds = await Promise.all(Array.from({ length: 6 }, () => reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n })));
    const results = await Promise.allSettled(
      holds.map((r, i) =>
        settleCall(
          s(),
          settlement(t, r),
          i === 3 ? { extra: async () => { throw new Error('boom'); } } : {},
        ),
      ),
    );
    assert.deepEqual(results.map((x) => x.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const failed = await s().db.selectFrom('reservations').select('status').where('id', '=', holds[3].id).executeTakeFirstOrThrow();
    assert.equal(failed.status, 'reserved');
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 1_000_000n - 5n * COST);
    assert.equal(w.reserved_micros, 1_000n);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });
});

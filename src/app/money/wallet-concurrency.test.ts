// Concurrency on real PostgreSQL (D8): hundreds of parallel reserve+settle on a wallet that can
// pay for only some never take it below zero and keep the chain valid; one tenant's settlement
// holding its wallet lock does not stop another tenant's calls.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, callId, credit, ledgerSum, newTenant, settlement, walletRow } from '../../../test/money.ts';
import { AppError } from '../../core/errors.ts';
import { verifyLedger } from './ledger-view.ts';
import { reserve, settleCall } from './wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());
const s = () => srv.services;

test('300 parallel reserve+settle on a wallet that covers only some: never below zero, no double charge, chain valid', async () => {
  const t = await newTenant(s());
  const BALANCE = 50_000n;
  const RESERVE = 1_000n; // worst case; the real cost is COST (450)
  await credit(s(), t.tenantId, BALANCE);
  const N = 300;
  const outcomes = await Promise.allSettled(
    Array.from({ length: N }, async () => {
      const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: RESERVE });
      return settleCall(s(), settlement(t, r));
    }),
  );
  const settled = outcomes.filter((o) => o.status === 'fulfilled');
  const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
  for (const r of refused) assert.ok(r.reason instanceof AppError && r.reason.code === 'insufficient_balance', String(r.reason));
  // At least BALANCE / RESERVE calls fit even if all reserved at once; at most BALANCE / COST.
  assert.ok(settled.length >= Number(BALANCE / RESERVE), `only ${settled.length} settled`);
  assert.ok(settled.length <= Number(BALANCE / COST), `${settled.length} settled`);
  assert.ok(refused.length > 0, 'the wallet could not pay for every call');

  const w = await walletRow(s(), t.tenantId);
  assert.equal(w.reserved_micros, 0n);
  assert.ok(w.balance_micros >= 0n);
  assert.equal(w.balance_micros, BALANCE - BigInt(settled.length) * COST);
  assert.equal(await ledgerSum(s(), t.tenantId), w.balance_micros);
  const usage = await sql<{ n: bigint; calls: bigint }>`
    select count(*)::bigint as n, count(distinct call_id)::bigint as calls from ledger_entries where tenant_id = ${t.tenantId} and event_type = 'AI_USAGE'`.execute(s().db);
  assert.equal(usage.rows[0].n, BigInt(settled.length));
  assert.equal(usage.rows[0].calls, BigInt(settled.length));
  const v = await verifyLedger(s().db, s().secrets.ledger, t.tenantId);
  assert.deepEqual(v, { verified: true, firstBroken: null, checked: settled.length + 1, reason: null });
  // The sealed balances form a strictly sequential chain: seq 1..n with no gap.
  const seqs = await s().db.selectFrom('ledger_entries').select('seq').where('tenant_id', '=', t.tenantId).orderBy('seq').execute();
  assert.deepEqual(seqs.map((r) => r.seq), seqs.map((_r, i) => BigInt(i + 1)));
});

test('the CHECK constraint is the last line: the balance column itself can never go negative', async () => {
  const t = await newTenant(s());
  await assert.rejects(
    s().db.updateTable('wallets').set({ balance_micros: -1n }).where('tenant_id', '=', t.tenantId).execute(),
    /check constraint/,
  );
});

test('the money rules the settlement path checks through domains (migration 010) refuse what the table CHECKs refused', async () => {
  const t = await newTenant(s());
  await credit(s(), t.tenantId, 1_000n);
  const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 10n });
  const db = s().db;
  const refused = async (q: { execute(): Promise<unknown> }, why: string) => assert.rejects(q.execute(), /violates check constraint/, why);
  await refused(db.updateTable('wallets').set({ reserved_micros: -1n }).where('tenant_id', '=', t.tenantId), 'reserved below zero');
  await refused(db.updateTable('wallets').set({ auto_topup_amount_micros: 0n }).where('tenant_id', '=', t.tenantId), 'a top-up of nothing');
  await refused(db.updateTable('wallets').set({ auto_topup_threshold_micros: -5n }).where('tenant_id', '=', t.tenantId), 'a negative threshold');
  await refused(db.updateTable('reservations').set({ amount_micros: -1n }).where('id', '=', r.id), 'a negative hold');
  await refused(db.updateTable('reservations').set({ status: 'spent' as never }).where('id', '=', r.id), 'an unknown status');
  await refused(db.updateTable('reservations').set({ kind: 'loan' as never }).where('id', '=', r.id), 'an unknown kind');
  await refused(
    db.insertInto('project_spend').values({ project_id: t.projectId, tenant_id: t.tenantId, month: '2026-11-01', spent_micros: -1n }),
    'negative spend',
  );
  // What the rules allow still goes through, and reads back as the column's base type.
  await db.updateTable('wallets').set({ auto_topup_amount_micros: 1n, auto_topup_threshold_micros: 0n }).where('tenant_id', '=', t.tenantId).execute();
  const w = await walletRow(s(), t.tenantId);
  assert.equal(typeof w.balance_micros, 'bigint');
  assert.equal(w.reserved_micros, 10n);
});

test("two tenants' settlements do not serialise: B settles while A's settlement holds A's wallet lock", async () => {
  const a = await newTenant(s(), 'a');
  const b = await newTenant(s(), 'b');
  await credit(s(), a.tenantId, 100_000n);
  await credit(s(), b.tenantId, 100_000n);
  const ra = await reserve(s(), { tenantId: a.tenantId, projectId: a.projectId, callId: callId(), amountMicros: 1_000n });

  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let inside!: () => void;
  const holding = new Promise<void>((resolve) => (inside = resolve));
  let aDone = false;
  // A's settlement waits inside its transaction, after its debit: it holds A's wallet row lock.
  const aSettle = settleCall(s(), settlement(a, ra), { extra: async () => { inside(); await gate; } }).then((r) => {
    aDone = true;
    return r;
  });
  await holding;

  // Another call of tenant A must wait for that lock...
  let aReserveDone = false;
  const aReserve = reserve(s(), { tenantId: a.tenantId, projectId: a.projectId, callId: callId(), amountMicros: 1_000n }).then((r) => {
    aReserveDone = true;
    return r;
  });
  // ...while tenant B reserves, settles and reserves again meanwhile.
  const started = Date.now();
  const rb = await reserve(s(), { tenantId: b.tenantId, projectId: b.projectId, callId: callId(), amountMicros: 1_000n });
  const sb = await settleCall(s(), settlement(b, rb));
  await credit(s(), b.tenantId, 5_000n);
  const elapsed = Date.now() - started;
  assert.equal(sb.duplicate, false);
  assert.equal(aDone, false, "A's settlement is still open");
  assert.ok(elapsed < 5_000, `B took ${elapsed} ms`);

  // Show from PostgreSQL itself that A's second call is waiting on a lock, not B.
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(aReserveDone, false, "A's next reservation waits for A's lock");
  const waiting = await sql<{ n: bigint }>`
    select count(*)::bigint as n from pg_stat_activity
     where datname = current_database() and wait_event_type = 'Lock' and query like '%sb_reserve%'`.execute(s().db);
  assert.equal(waiting.rows[0].n, 1n);

  open();
  const [sa] = await Promise.all([aSettle, aReserve]);
  assert.equal(sa.debitedMicros, COST);
  assert.equal(aReserveDone, true);
  assert.equal((await verifyLedger(s().db, s().secrets.ledger, a.tenantId)).verified, true);
  assert.equal((await verifyLedger(s().db, s().secrets.ledger, b.tenantId)).verified, true);
});

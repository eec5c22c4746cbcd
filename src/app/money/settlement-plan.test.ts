// The settlement plan is plain data (D8, issue 14): its event rows and its follow-ups for other
// domains are written in the settlement's own transaction, through the one follow-up writer the
// settler was built with, and a follow-up that fails takes the whole settlement back with it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, callId, credit, newTenant, settlement, walletRow } from '../../../test/money.ts';
import { priceSettlement } from './settlement.ts';
import { reserve, settleCall } from './wallet.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(() => srv.close());

const s = () => srv.services;

test('a billed call of a project not live yet moves its stage in the settlement transaction; the answer says so', async () => {
  const t = await newTenant(s());
  await credit(s(), t.tenantId, 10_000n);
  const before = await s().db.selectFrom('projects').select('stage').where('id', '=', t.projectId).executeTakeFirstOrThrow();
  assert.notEqual(before.stage, 'live');
  const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
  const plan = settlement(t, r, { followUps: [{ kind: 'stage.billed_call', projectId: t.projectId }] });
  const done = await settleCall(s(), plan);
  assert.equal(done.debitedMicros, COST);
  assert.equal(done.followedUp?.projectStage, 'live');
  const p = await s().db.selectFrom('projects').select('stage').where('id', '=', t.projectId).executeTakeFirstOrThrow();
  assert.equal(p.stage, 'live');
  const events = await s().db.selectFrom('event_outbox').select('frame').where('tenant_id', '=', t.tenantId).execute();
  assert.ok(events.some((e) => (e.frame as { type: string }).type === 'stage.changed'));
  // A live project's next billed call has nothing to move: the same follow-up reports no stage.
  const r2 = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
  const again = await settleCall(s(), settlement(t, r2, { followUps: [{ kind: 'stage.billed_call', projectId: t.projectId }] }));
  assert.equal(again.followedUp?.projectStage, null);
});

test('a follow-up that fails rolls the whole settlement back: nothing debited, the hold intact, no rows', async () => {
  const t = await newTenant(s());
  await credit(s(), t.tenantId, 10_000n);
  const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
  // attempt 7 is outside the routing.escalated payload's schema (1..2): its event cannot be built.
  const bad = settlement(t, r, {
    followUps: [{ kind: 'routing.escalated', tenantId: t.tenantId, projectId: t.projectId, payload: { callId: r.id, fromClass: 'economy', toClass: 'standard', attempt: 7, reason: 'below the floor', qualityScore: 0.2 } }],
  });
  await assert.rejects(settleCall(s(), bad));
  const w = await walletRow(s(), t.tenantId);
  assert.equal(w.balance_micros, 10_000n);
  assert.equal(w.reserved_micros, 1_000n);
  assert.equal(await s().db.selectFrom('call_logs').select('id').where('id', '=', r.id).executeTakeFirst(), undefined);
  // The same plan with a valid follow-up settles, and its escalation event is written with it.
  const ok = await settleCall(s(), settlement(t, r, {
    followUps: [{ kind: 'routing.escalated', tenantId: t.tenantId, projectId: t.projectId, payload: { callId: r.id, fromClass: 'economy', toClass: 'standard', attempt: 1, reason: 'below the floor', qualityScore: 0.2 } }],
  }));
  assert.equal(ok.duplicate, false);
  const events = await s().db.selectFrom('event_outbox').select('frame').where('tenant_id', '=', t.tenantId).execute();
  assert.ok(events.some((e) => (e.frame as { type: string; payload: { callId?: string } }).type === 'routing.escalated' && (e.frame as { payload: { callId?: string } }).payload.callId === r.id));
});

test('a plan priced by the caller is settled at that price, not priced again', async () => {
  const t = await newTenant(s());
  await credit(s(), t.tenantId, 10_000n);
  const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
  const plan = settlement(t, r);
  plan.priced = priceSettlement(plan);
  assert.equal(plan.priced.sv.actualCostMicros, COST);
  const done = await settleCall(s(), plan);
  assert.equal(done.costMicros, COST);
  assert.equal(done.savings?.tokensSavedMicros, plan.priced.sv.tokensSavedMicros);
});

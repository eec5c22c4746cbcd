// The reservation sweeper (D8): holds left by calls that never settled are released after the
// timeout and recorded, by a direct call or through its pg-boss queue.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../test/harness.ts';
import { COST, callId, credit, newTenant, settlement, waitFor, walletRow } from '../../../test/money.ts';
import { SWEEP_QUEUE, sweepReservations } from './sweeper.ts';
import { release, reserve, settleCall } from './wallet.ts';
import sweepJob from '../../jobs/reservation-sweep.job.ts';

let srv: TestServer;
before(async () => {
  // No worker at first: the direct sweeps below must not race a scheduled one.
  srv = await startTestServer({ worker: false, env: { RESERVATION_TIMEOUT_MS: '300000' } });
});
after(() => srv.close());
const s = () => srv.services;
const MIN = 60_000;

describe('sweepReservations', () => {
  test('releases only holds older than the timeout, records when and why, and is a no-op the second time', async () => {
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 100_000n);
    const old = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const oldSettled = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    const oldReleased = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    await settleCall(s(), settlement(t, oldSettled));
    await release(s(), oldReleased);
    srv.clock.advance(4 * MIN);
    const young = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 2_000n });
    srv.clock.advance(MIN + 1_000); // old is 5 min + 1 s old, young 1 min + 1 s: timeout 5 min
    const r = await sweepReservations(s());
    assert.equal(r.ran, true);
    assert.ok(r.swept >= 1);
    const rows = await s().db.selectFrom('reservations').selectAll().where('tenant_id', '=', t.tenantId).execute();
    const by = new Map(rows.map((x) => [x.id, x]));
    assert.equal(by.get(old.id)!.status, 'swept');
    assert.equal(by.get(old.id)!.sweep_reason, 'no settlement within 300s');
    assert.equal(by.get(old.id)!.swept_at?.getTime(), srv.clock.now().getTime());
    assert.equal(by.get(old.id)!.released_at?.getTime(), srv.clock.now().getTime());
    assert.equal(by.get(oldSettled.id)!.status, 'settled');
    assert.equal(by.get(oldReleased.id)!.status, 'released');
    assert.equal(by.get(young.id)!.status, 'reserved');
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.reserved_micros, 2_000n, 'only the young hold remains');
    assert.equal(w.balance_micros, 100_000n - COST, 'sweeping debits nothing');
    const again = await sweepReservations(s());
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 2_000n);
    assert.equal(again.swept, 0);
    await release(s(), young);
    srv.clock.set(Date.now());
  });

  test('the scheduled job also runs on demand through the queue', async () => {
    await sweepJob.register(s().boss, s());
    const t = await newTenant(s());
    await credit(s(), t.tenantId, 10_000n);
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
    srv.clock.advance(6 * MIN);
    await s().boss.send(SWEEP_QUEUE, {});
    await waitFor('the queued sweep', async () => (await s().db.selectFrom('reservations').select('status').where('id', '=', r.id).executeTakeFirstOrThrow()).status === 'swept');
    assert.equal((await walletRow(s(), t.tenantId)).reserved_micros, 0n);
    srv.clock.set(Date.now());
  });
});

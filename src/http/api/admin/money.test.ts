// Every ledger event type has a real producer (issue 14): ADJUSTMENT from an audited platform-admin
// endpoint with a required reason, REFUND from the sandbox processor's refund action. (Stripe's
// refund events are in billing/stripe.test.ts.)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { makePlatformAdmin, newTenant, walletRow, type Tenant } from '../../../../test/money.ts';
import { verifyLedger } from '../../../app/money/ledger-view.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());
const s = () => srv.services;

async function entries(tenantId: string) {
  return s().db.selectFrom('ledger_entries').select(['event_type', 'amount_micros', 'memo']).where('tenant_id', '=', tenantId).orderBy('seq').execute();
}
async function auditOf(userId: string) {
  return s().db.selectFrom('security_audit').select(['event', 'tenant_id', 'detail']).where('user_id', '=', userId).orderBy('seq').execute();
}
async function admin(): Promise<Tenant> {
  const a = await newTenant(s(), 'admin');
  await makePlatformAdmin(s(), a.userId);
  return a;
}

test('ADJUSTMENT: platform admins only, a reason required, sealed and audited; a debit never overdraws', async () => {
  const t = await newTenant(s());
  const a = await admin();
  const path = `/api/admin/tenants/${t.tenantId}/adjustments`;
  assert.equal((await srv.api('POST', path, { body: { amountMicros: '5000000', reason: 'goodwill credit' } })).status, 401);
  assert.equal((await srv.api('POST', path, { token: t.accessToken, body: { amountMicros: '5000000', reason: 'goodwill credit' } })).status, 403, 'a tenant owner is not a platform admin');
  for (const body of [{ amountMicros: '5000000' }, { amountMicros: '5000000', reason: ' ' }, { amountMicros: '0', reason: 'nothing at all' }]) {
    const r = await srv.api('POST', path, { token: a.accessToken, body });
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.success, false);
  }
  const ok = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '5000000', reason: 'goodwill credit for the outage' } });
  assert.equal(ok.status, 201, JSON.stringify(ok.body));
  assert.equal(ok.body.data.balanceAfterMicros, '5000000');
  const debit = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: -2000000, reason: 'duplicate credit reversed' } });
  assert.equal(debit.status, 201);
  const over = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '-3000001', reason: 'too much' } });
  assert.equal(over.status, 402, 'an adjustment never overdraws the wallet');
  assert.equal((await srv.api('POST', `/api/admin/tenants/00000000-0000-4000-8000-000000000000/adjustments`, { token: a.accessToken, body: { amountMicros: '1', reason: 'no such tenant' } })).status, 404);

  assert.deepEqual(
    (await entries(t.tenantId)).map((e) => [e.event_type, e.amount_micros, e.memo]),
    [
      ['ADJUSTMENT', 5_000_000n, 'Adjustment: goodwill credit for the outage'],
      ['ADJUSTMENT', -2_000_000n, 'Adjustment: duplicate credit reversed'],
    ],
  );
  assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 3_000_000n);
  assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  const trail = (await auditOf(a.userId)).filter((x) => x.event === 'ledger_adjusted');
  assert.equal(trail.length, 2);
  assert.equal(trail[0]!.tenant_id, t.tenantId);
  assert.deepEqual([(trail[0]!.detail as { reason: string }).reason, (trail[0]!.detail as { amountMicros: string }).amountMicros], ['goodwill credit for the outage', '5000000']);
  // The customer sees it in the ledger under its label.
  const ledger = await srv.api('GET', '/api/tenant/ledger?type=ADJUSTMENT', { token: t.accessToken });
  assert.equal(ledger.status, 200);
  assert.ok(ledger.body.data.items.every((i: { customerLabel: string }) => i.customerLabel === 'Adjustment'));
});

test('REFUND: the sandbox refund action returns part of a paid top-up, once, never beyond what was paid or what the wallet holds', async () => {
  const t = await newTenant(s());
  const a = await admin();
  const r = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '10000000' } });
  assert.equal(r.status, 201);
  assert.equal((await fetch(`${r.body.data.checkoutUrl}/confirm`, { method: 'POST' })).status, 200);
  const topupId: string = r.body.data.topupId;
  const path = `/api/admin/topups/${topupId}/refund`;
  assert.equal((await srv.api('POST', path, { token: t.accessToken, body: { amountMicros: '3000000', reason: 'customer asked' } })).status, 403);
  assert.equal((await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '3000000' } })).status, 400, 'a reason is required');

  const first = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '3000000', reason: 'customer asked for part back' } });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  assert.deepEqual([first.body.data.refundedMicros, first.body.data.debitedMicros], ['3000000', '3000000']);
  const beyond = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '7000001', reason: 'more than was paid' } });
  assert.equal(beyond.status, 409);
  assert.match(beyond.body.error, /7000000/);
  const rest = await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '7000000', reason: 'the rest' } });
  assert.equal(rest.status, 201);
  assert.equal((await srv.api('POST', path, { token: a.accessToken, body: { amountMicros: '1', reason: 'nothing left' } })).status, 409);

  const refunds = (await entries(t.tenantId)).filter((e) => e.event_type === 'REFUND');
  assert.deepEqual(refunds.map((e) => e.amount_micros), [-3_000_000n, -7_000_000n]);
  assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
  assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  assert.equal((await auditOf(a.userId)).filter((x) => x.event === 'topup_refunded').length, 2);
  const ledger = await srv.api('GET', '/api/tenant/ledger?type=REFUND', { token: t.accessToken });
  assert.equal(ledger.body.data.items.length, 2);
  assert.equal(ledger.body.data.items[0].customerLabel, 'Refund');
});

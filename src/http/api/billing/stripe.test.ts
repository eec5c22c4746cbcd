// Stripe as the payment processor (D11), with no network call to Stripe: the real `stripe` client
// talks to a small Stripe stand-in on 127.0.0.1 (STRIPE_API_BASE), and webhooks are signed with
// stripe.webhooks.generateTestHeaderString and verified by the route with constructEvent.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { callId, newTenant, settlement, waitFor, walletRow, type Tenant } from '../../../../test/money.ts';
import { reserve, settleCall } from '../../../app/money/wallet.ts';

const WEBHOOK_SECRET = 'whsec_test_switchboard_secret';
const signer = new Stripe('sk_test_signer_only');

interface Seen {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
  auth: string | undefined;
}

/** The parts of the Stripe API Switchboard calls, answered locally. */
class FakeStripe {
  seen: Seen[] = [];
  mode: 'ok' | 'decline' | 'down' = 'ok';
  private server: Server;
  private n = 0;
  constructor() {
    this.server = createServer(async (req, res) => {
      const body = await read(req);
      const url = new URL(req.url ?? '/', 'http://x');
      const form = new URLSearchParams(req.method === 'GET' ? url.search : body);
      this.seen.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey: req.headers['idempotency-key'] as string | undefined, auth: req.headers.authorization });
      const send = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.n}` });
        res.end(JSON.stringify(v));
      };
      if (this.mode === 'down') return send(500, { error: { type: 'api_error', message: 'Stripe is down' } });
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const id = `cs_test_${++this.n}`;
        return send(200, { id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}`, payment_status: 'unpaid', metadata: { topupId: form.get('metadata[topupId]') } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_methods') {
        return send(200, { object: 'list', url: '/v1/payment_methods', has_more: false, data: [{ id: 'pm_card_visa_saved', object: 'payment_method', customer: form.get('customer') }] });
      }
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const id = `pi_test_${++this.n}`;
        if (this.mode === 'decline') {
          return send(402, { error: { type: 'card_error', code: 'authentication_required', message: 'Your card requires authentication.', payment_intent: { id, object: 'payment_intent', status: 'requires_payment_method' } } });
        }
        return send(200, { id, object: 'payment_intent', status: 'succeeded', amount: Number.parseInt(String(form.get('amount')), 10), metadata: { topupId: form.get('metadata[topupId]'), kind: 'auto' } });
      }
      send(404, { error: { type: 'invalid_request_error', message: `no route ${req.method} ${url.pathname}` } });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  close() {
    return new Promise((r) => this.server.close(r));
  }
}

const read = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = '';
    req.on('data', (c) => (b += c));
    req.on('end', () => resolve(b));
  });

let srv: TestServer;
let fake: FakeStripe;
before(async () => {
  fake = new FakeStripe();
  const base = await fake.start();
  srv = await startTestServer({ env: { STRIPE_SECRET_KEY: 'sk_test_switchboard', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: base } });
});
after(async () => {
  await srv.close();
  await fake.close();
});
const s = () => srv.services;

function event(id: string, type: string, object: Record<string, unknown>) {
  return JSON.stringify({ id, object: 'event', api_version: '2026-02-25.clover', created: Math.floor(Date.now() / 1000), type, data: { object } });
}

async function deliver(payload: string, opts: { secret?: string; timestamp?: number; signature?: string | null } = {}) {
  const header =
    opts.signature === null
      ? undefined
      : (opts.signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? WEBHOOK_SECRET, timestamp: opts.timestamp }));
  const res = await fetch(`${srv.url}/api/billing/stripe/webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(header ? { 'stripe-signature': header } : {}) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; data?: { handled: string }; error?: string } };
}

async function checkout(t: Tenant, amountMicros: string) {
  const r = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros } });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  return r.body.data as { topupId: string; checkoutId: string; checkoutUrl: string };
}

const completed = (c: { topupId: string; checkoutId: string }, extra: Record<string, unknown> = {}) => ({
  id: c.checkoutId,
  object: 'checkout.session',
  payment_status: 'paid',
  client_reference_id: c.topupId,
  customer: 'cus_test_123',
  metadata: { topupId: c.topupId },
  ...extra,
});

describe('Stripe checkout', () => {
  test('a top-up opens a Checkout Session for whole cents that saves the card; the sandbox page is not served', async () => {
    const t = await newTenant(s());
    fake.seen = [];
    const c = await checkout(t, '25000000');
    assert.match(c.checkoutId, /^cs_test_/);
    assert.equal(c.checkoutUrl, `https://checkout.stripe.test/c/pay/${c.checkoutId}`);
    const call = fake.seen.find((x) => x.path === '/v1/checkout/sessions')!;
    assert.equal(call.auth, 'Bearer sk_test_switchboard');
    assert.equal(call.idempotencyKey, `checkout-${c.topupId}`);
    assert.equal(call.form.get('mode'), 'payment');
    assert.equal(call.form.get('line_items[0][price_data][unit_amount]'), '2500');
    assert.equal(call.form.get('line_items[0][price_data][currency]'), 'usd');
    assert.equal(call.form.get('payment_intent_data[setup_future_usage]'), 'off_session');
    assert.equal(call.form.get('customer_creation'), 'always');
    assert.equal(call.form.get('metadata[topupId]'), c.topupId);
    assert.equal(call.form.get('client_reference_id'), c.topupId);
    const row = await s().db.selectFrom('topups').selectAll().where('id', '=', c.topupId).executeTakeFirstOrThrow();
    assert.deepEqual([row.processor, row.processor_ref, row.status], ['stripe', c.checkoutId, 'checkout_started']);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
    assert.equal((await fetch(`${srv.url}/api/billing/sandbox/checkout/cs_sandbox_${'A'.repeat(24)}`)).status, 404);
  });

  test('Stripe being down answers 502 and marks the top-up failed', async () => {
    const t = await newTenant(s());
    fake.mode = 'down';
    try {
      const r = await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '5000000' } });
      assert.equal(r.status, 502);
      assert.equal(r.body.code, 'payment_processor_failed');
    } finally {
      fake.mode = 'ok';
    }
    const row = await s().db.selectFrom('topups').select('status').where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.equal(row.status, 'failed');
  });
});

describe('POST /api/billing/stripe/webhook', () => {
  test('a signed checkout.session.completed credits the wallet once, however often it is replayed', async () => {
    const t = await newTenant(s());
    const c = await checkout(t, '25000000');
    const payload = event('evt_completed_1', 'checkout.session.completed', completed(c));
    const results = await Promise.all(Array.from({ length: 6 }, () => deliver(payload)));
    assert.ok(results.every((r) => r.status === 200 && r.body.success));
    assert.equal(results.filter((r) => r.body.data?.handled === 'credited').length, 1);
    // The same payment announced by another event id (e.g. async_payment_succeeded) credits nothing more.
    const other = await deliver(event('evt_async_1', 'checkout.session.async_payment_succeeded', completed(c)));
    assert.equal(other.body.data?.handled, 'already handled');

    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 25_000_000n);
    const entries = await s().db.selectFrom('ledger_entries').select(['event_type', 'amount_micros']).where('tenant_id', '=', t.tenantId).execute();
    assert.deepEqual(entries, [{ event_type: 'WALLET_TOPUP', amount_micros: 25_000_000n }]);
    const inv = await srv.api('GET', '/api/tenant/invoices', { token: t.accessToken });
    assert.equal(inv.body.data.items.length, 1);
    assert.equal(inv.body.data.items[0].processor, 'stripe');
    const pm = await s().db.selectFrom('payment_methods').selectAll().where('tenant_id', '=', t.tenantId).executeTakeFirstOrThrow();
    assert.deepEqual([pm.processor, pm.customer_ref], ['stripe', 'cus_test_123']);
    // The next checkout reuses the saved Stripe customer.
    fake.seen = [];
    await checkout(t, '1000000');
    assert.equal(fake.seen[0].form.get('customer'), 'cus_test_123');
  });

  test('charge.refunded books a REFUND once per refunded amount, found by the checkout\'s PaymentIntent', async () => {
    const t = await newTenant(s());
    const c = await checkout(t, '20000000');
    const pi = `pi_refund_${c.topupId.slice(0, 8)}`;
    assert.equal((await deliver(event(`evt_paid_${pi}`, 'checkout.session.completed', completed(c, { payment_intent: pi })))).body.data?.handled, 'credited');
    // Stripe's charge names the PaymentIntent; amount_refunded is cumulative, in cents.
    const charge = (cents: number) => ({ id: `ch_${pi}`, object: 'charge', payment_intent: pi, amount: 2000, amount_refunded: cents, metadata: {} });
    const first = await deliver(event(`evt_ref1_${pi}`, 'charge.refunded', charge(500)));
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.data?.handled, 'refunded');
    assert.equal((await deliver(event(`evt_ref1_${pi}`, 'charge.refunded', charge(500)))).body.data?.handled, 'already handled', 'a replayed event books nothing');
    assert.equal((await deliver(event(`evt_ref1b_${pi}`, 'charge.refunded', charge(500)))).body.data?.handled, 'already handled', 'the same total under another id books nothing');
    assert.equal((await deliver(event(`evt_ref2_${pi}`, 'charge.refunded', charge(1200)))).body.data?.handled, 'refunded');
    const refunds = await s().db.selectFrom('ledger_entries').select('amount_micros').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'REFUND').orderBy('seq').execute();
    assert.deepEqual(refunds.map((r) => r.amount_micros), [-5_000_000n, -7_000_000n]);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 8_000_000n);
    const unknown = await deliver(event('evt_ref_unknown', 'charge.refunded', { ...charge(100), payment_intent: 'pi_nobody' }));
    assert.equal(unknown.status, 200);
    assert.equal(unknown.body.data?.handled, 'refund of an unknown payment');
  });

  test('bad, missing, foreign or stale signatures are refused and credit nothing', async () => {
    const t = await newTenant(s());
    const c = await checkout(t, '3000000');
    const payload = event('evt_forged', 'checkout.session.completed', completed(c));
    const otherBody = event('evt_other', 'checkout.session.completed', completed(c, { customer: 'cus_attacker' }));
    const cases = [
      await deliver(payload, { secret: 'whsec_not_the_right_one' }),
      await deliver(payload, { signature: null }),
      await deliver(payload, { signature: signer.webhooks.generateTestHeaderString({ payload: otherBody, secret: WEBHOOK_SECRET }) }),
      await deliver(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      await deliver(payload, { signature: 'garbage' }),
    ];
    for (const r of cases) {
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.success, false);
    }
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
    // The raw bytes are what is signed: re-serialising the JSON would break it, so they are kept.
    const spaced = payload.replace('{', '{ ');
    assert.equal((await deliver(spaced, { signature: signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) })).status, 400);
    assert.equal((await deliver(spaced)).status, 200, 'the same content, signed as sent, is accepted');
  });

  test('unpaid completions and unrelated events are acknowledged without crediting', async () => {
    const t = await newTenant(s());
    const c = await checkout(t, '3000000');
    const unpaid = await deliver(event('evt_unpaid', 'checkout.session.completed', completed(c, { payment_status: 'unpaid' })));
    assert.equal(unpaid.status, 200);
    const other = await deliver(event('evt_customer', 'customer.created', { id: 'cus_x', object: 'customer' }));
    assert.deepEqual([other.status, other.body.data?.handled], [200, 'ignored']);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
  });
});

describe('Stripe auto-top-up', () => {
  async function armed() {
    const t = await newTenant(s());
    const c = await checkout(t, '6000000');
    await deliver(event(`evt_${c.topupId}`, 'checkout.session.completed', completed(c)));
    const rule = await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: { thresholdMicros: '5000000', amountMicros: '10000000' } });
    assert.equal(rule.status, 200);
    return t;
  }
  const crossThreshold = async (t: Tenant) => {
    const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_200_000n });
    await settleCall(s(), settlement(t, r, { usage: { inputTokens: 0, outputTokens: 2_000_000 } }));
  };

  test('the worker charges the saved card off-session, idempotently; the later webhook does not credit again', async () => {
    const t = await armed();
    fake.seen = [];
    await crossThreshold(t);
    const top = await waitFor('the Stripe auto top-up', async () =>
      s().db.selectFrom('topups').selectAll().where('tenant_id', '=', t.tenantId).where('kind', '=', 'auto').where('status', '=', 'credited').executeTakeFirst(),
    );
    const list = fake.seen.find((x) => x.path === '/v1/payment_methods')!;
    assert.equal(list.form.get('customer'), 'cus_test_123');
    const pi = fake.seen.find((x) => x.path === '/v1/payment_intents')!;
    assert.equal(pi.form.get('amount'), '1000');
    assert.equal(pi.form.get('currency'), 'usd');
    assert.equal(pi.form.get('customer'), 'cus_test_123');
    assert.equal(pi.form.get('payment_method'), 'pm_card_visa_saved');
    assert.equal(pi.form.get('off_session'), 'true');
    assert.equal(pi.form.get('confirm'), 'true');
    assert.equal(pi.idempotencyKey, `auto-topup-${top.id}`);
    assert.match(top.processor_ref ?? '', /^pi_test_/);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 6_000_000n - 1_200_000n + 10_000_000n);

    const late = await deliver(event('evt_pi_late', 'payment_intent.succeeded', { id: top.processor_ref, object: 'payment_intent', metadata: { topupId: top.id, kind: 'auto' } }));
    assert.deepEqual([late.status, late.body.data?.handled], [200, 'already handled']);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 14_800_000n);
  });

  test('a declined off-session charge fails the top-up and credits nothing', async () => {
    const t = await armed();
    fake.mode = 'decline';
    try {
      await crossThreshold(t);
      const failed = await waitFor('the declined Stripe top-up', async () =>
        s().db.selectFrom('topups').selectAll().where('tenant_id', '=', t.tenantId).where('kind', '=', 'auto').where('status', '=', 'failed').executeTakeFirst(),
      );
      assert.match(failed.failure_reason ?? '', /requires authentication/);
    } finally {
      fake.mode = 'ok';
    }
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 4_800_000n);
  });
});

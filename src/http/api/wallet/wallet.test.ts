// The wallet surface (spec §2 Wallet, §3 top-up, §4, D11): the wallet view and its windows, top-up
// bounds, the sandbox checkout and its idempotent confirmation, invoices with PDFs, and the
// auto-top-up rule charged once per crossing by the worker.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../../../../test/harness.ts';
import { callId, credit, ledgerSum, memberOf, newTenant, settlement, waitFor, walletRow, type Tenant } from '../../../../test/money.ts';
import { reserve, settleCall } from '../../../app/money/wallet.ts';
import { verifyLedger } from '../../../app/money/ledger-view.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());
const s = () => srv.services;
const DAY = 86_400_000;

/** Text drawn on the pages of an uncompressed pdfkit document (hex-encoded TJ strings). */
function pdfText(pdf: Buffer): string {
  const src = pdf.toString('latin1');
  const out: string[] = [];
  for (const tj of src.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    out.push([...tj[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1')).join(''));
  }
  // WinAnsiEncoding puts the em dash at 0x97.
  return out.join('\n').replace(/\x97/g, '—');
}

async function topup(t: Tenant, amountMicros: string | number) {
  return srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros } });
}

/** A paid sandbox top-up: checkout then confirm, as the sandbox page's button does. */
async function paidTopup(t: Tenant, amountMicros: string) {
  const r = await topup(t, amountMicros);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const c = await fetch(`${r.body.data.checkoutUrl}/confirm`, { method: 'POST' });
  assert.equal(c.status, 200);
  return r.body.data as { topupId: string; checkoutId: string; checkoutUrl: string };
}

describe('GET /api/tenant/wallet', () => {
  test('a new wallet is empty: zero amounts as strings, no runway, no rule', async () => {
    const t = await newTenant(s());
    const r = await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.data, {
      balance: '0',
      reserved: '0',
      available: '0',
      debited: { h24: '0', d7: '0', d30: '0' },
      runway: null,
      usdEquivalent: '0.00',
      autoTopup: null,
      paymentMethod: null,
    });
  });

  test('debited windows (24 h / 7 d / 30 d), runway from the 7-day burn, reserved and available, USD equivalent', async () => {
    const t = await newTenant(s());
    const now = srv.clock.now().getTime();
    srv.clock.set(now - 40 * DAY);
    await credit(s(), t.tenantId, 10_002_250n);
    for (const ago of [35 * DAY, 20 * DAY, 3 * DAY, 3_600_000]) {
      srv.clock.set(now - ago);
      const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_000n });
      await settleCall(s(), settlement(t, r));
    }
    srv.clock.set(now);
    await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 5_000n });
    const w = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data;
    assert.equal(w.balance, '10000450');
    assert.equal(w.reserved, '5000');
    assert.equal(w.available, '9995450');
    assert.deepEqual(w.debited, { h24: '450', d7: '900', d30: '1350' });
    // 10,000,450 / (900 / 7) = 77,781.2 days
    assert.equal(w.runway, 77_781.2);
    assert.equal(w.usdEquivalent, '10.00', 'two decimals, truncated');
    const viewer = await memberOf(s(), t.tenantId, 'viewer');
    assert.equal((await srv.api('GET', '/api/tenant/wallet', { token: viewer.accessToken })).body.data.balance, '10000450');
  });
});

describe('POST /api/tenant/wallet/topup', () => {
  test('amount bounds: $1 and $10,000 inclusive, whole cents, string or integer', async () => {
    const t = await newTenant(s());
    const cases: Array<[string | number, number]> = [
      ['999999', 400],
      [999_999, 400],
      ['1000000', 201],
      [1_000_000, 201],
      ['10000000000', 201],
      [10_000_000_000, 201],
      ['10000010000', 400],
      ['1000001', 400],
      ['-1000000', 400],
      [1_500_000.5, 400],
      ['12abc', 400],
    ];
    for (const [amount, status] of cases) {
      const r = await topup(t, amount);
      assert.equal(r.status, status, `${amount} → ${r.status} ${JSON.stringify(r.body)}`);
      if (status === 400) assert.equal(r.body.field, 'amountMicros');
    }
    assert.equal((await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: {} })).status, 400);
    assert.equal((await srv.api('POST', '/api/tenant/wallet/topup', { token: t.accessToken, body: { amountMicros: '1000000', extra: 1 } })).status, 400);
    // Starting a checkout credits nothing.
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
  });

  test('only admins and owners start a top-up', async () => {
    const t = await newTenant(s());
    for (const role of ['viewer', 'member'] as const) {
      const m = await memberOf(s(), t.tenantId, role);
      assert.equal((await topup(m, '5000000')).status, 403, role);
    }
    const admin = await memberOf(s(), t.tenantId, 'admin');
    assert.equal((await topup(admin, '5000000')).status, 201);
  });

  test('sandbox checkout: page → confirm → WALLET_TOPUP entry and invoice; replays credit once', async () => {
    const t = await newTenant(s());
    const r = await topup(t, '25000000');
    assert.equal(r.status, 201);
    const { checkoutId, checkoutUrl, topupId, amountMicros } = r.body.data;
    assert.match(checkoutId, /^cs_sandbox_[0-9A-Za-z]{24}$/);
    assert.equal(checkoutUrl, `${srv.url}/api/billing/sandbox/checkout/${checkoutId}`);
    assert.equal(amountMicros, '25000000');
    const row = await s().db.selectFrom('topups').selectAll().where('id', '=', topupId).executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.kind, row.processor, row.processor_ref], ['checkout_started', 'checkout', 'sandbox', checkoutId]);

    const page = await fetch(checkoutUrl);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    const html = await page.text();
    assert.match(html, /Sandbox payment — no real money/);
    assert.match(html, /\$25\.00/);
    assert.match(html, /<form method="post"/);

    // Ten concurrent confirmations (a replayed webhook): one credit.
    const results = await Promise.all(Array.from({ length: 10 }, () => fetch(`${checkoutUrl}/confirm`, { method: 'POST' }).then((x) => x.json())));
    assert.equal(results.filter((x) => x.data.credited).length, 1);
    assert.ok(results.every((x) => x.success && x.data.status === 'credited' && x.data.topupId === topupId));
    const again = await fetch(`${checkoutUrl}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    assert.equal(again.status, 303, "the page's own form goes back to the page");
    assert.equal(again.headers.get('location'), `/api/billing/sandbox/checkout/${checkoutId}`);
    assert.match(await (await fetch(checkoutUrl)).text(), /Paid\./);

    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 25_000_000n);
    const entries = await s().db.selectFrom('ledger_entries').selectAll().where('tenant_id', '=', t.tenantId).execute();
    assert.equal(entries.length, 1);
    assert.deepEqual([entries[0].event_type, entries[0].customer_label, entries[0].amount_micros, entries[0].project_id], ['WALLET_TOPUP', 'Top-up', 25_000_000n, null]);
    const done = await s().db.selectFrom('topups').selectAll().where('id', '=', topupId).executeTakeFirstOrThrow();
    assert.deepEqual([done.status, done.ledger_entry_id], ['credited', entries[0].id]);
    assert.equal((await s().db.selectFrom('invoices').select('id').where('topup_id', '=', topupId).execute()).length, 1);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
    const ledger = await srv.api('GET', '/api/tenant/ledger', { token: t.accessToken });
    assert.equal(ledger.body.data.items[0].customerLabel, 'Top-up');
    // The card used is saved for auto-top-up.
    const view = await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken });
    assert.deepEqual(view.body.data.paymentMethod, { processor: 'sandbox', label: 'Sandbox card •••• 4242' });

    assert.equal((await fetch(`${srv.url}/api/billing/sandbox/checkout/cs_sandbox_${'A'.repeat(24)}`)).status, 404);
    assert.equal((await fetch(`${srv.url}/api/billing/sandbox/checkout/not-a-checkout`)).status, 400);
    assert.equal((await fetch(`${srv.url}/api/billing/sandbox/checkout/cs_sandbox_${'A'.repeat(24)}/confirm`, { method: 'POST' })).status, 404);
  });

  test('a checkout left unpaid for a day can no longer be confirmed', async () => {
    const t = await newTenant(s());
    const r = await topup(t, '2000000');
    srv.clock.advance(DAY + 1_000);
    const c = await fetch(`${r.body.data.checkoutUrl}/confirm`, { method: 'POST' });
    assert.equal(c.status, 409);
    assert.match(await (await fetch(r.body.data.checkoutUrl)).text(), /can no longer be paid/);
    assert.equal((await walletRow(s(), t.tenantId)).balance_micros, 0n);
    srv.clock.set(Date.now());
  });
});

describe('invoices', () => {
  test('one invoice per top-up, newest first, with a PDF that carries the amount; tenants see only their own', async () => {
    const t = await newTenant(s());
    await paidTopup(t, '1230000');
    srv.clock.advance(1_000);
    await paidTopup(t, '4560000');
    const list = await srv.api('GET', '/api/tenant/invoices', { token: t.accessToken });
    assert.equal(list.status, 200);
    const items = list.body.data.items;
    assert.equal(items.length, 2);
    assert.deepEqual(items.map((i: { amountMicros: string }) => i.amountMicros), ['4560000', '1230000']);
    assert.match(items[0].number, /^INV-\d{6}$/);
    assert.notEqual(items[0].number, items[1].number);
    assert.equal(items[0].processor, 'sandbox');
    assert.equal(items[0].pdfUrl, `/api/tenant/invoices/${items[0].id}/pdf`);
    const p1 = await srv.api('GET', '/api/tenant/invoices?limit=1', { token: t.accessToken });
    const p2 = await srv.api('GET', `/api/tenant/invoices?limit=1&cursor=${p1.body.data.nextCursor}`, { token: t.accessToken });
    assert.equal(p2.body.data.items[0].id, items[1].id);
    assert.equal(p2.body.data.nextCursor, null);

    const res = await fetch(`${srv.url}${items[0].pdfUrl}`, { headers: { authorization: `Bearer ${t.accessToken}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`${items[0].number}\\.pdf`));
    const pdf = Buffer.from(await res.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    const text = pdfText(pdf);
    assert.match(text, /Total paid: USD 4\.56/);
    assert.match(text, new RegExp(`Invoice ${items[0].number}`));
    assert.match(text, /Sandbox payment — no real money/);
    assert.match(pdf.toString('latin1'), /USD 4\.56\)/, 'also in the document metadata');

    const other = await newTenant(s());
    assert.equal((await srv.api('GET', items[0].pdfUrl, { token: other.accessToken })).status, 404);
    assert.equal((await srv.api('GET', '/api/tenant/invoices', { token: other.accessToken })).body.data.items.length, 0);
  });
});

describe('auto-top-up', () => {
  test('the rule needs a saved card, admin rights and payment bounds; DELETE removes it', async () => {
    const t = await newTenant(s());
    const rule = { thresholdMicros: '5000000', amountMicros: '10000000' };
    const none = await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: rule });
    assert.equal(none.status, 409);
    await paidTopup(t, '1000000');
    const viewer = await memberOf(s(), t.tenantId, 'viewer');
    assert.equal((await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: viewer.accessToken, body: rule })).status, 403);
    assert.equal((await srv.api('DELETE', '/api/tenant/wallet/auto-topup', { token: viewer.accessToken })).status, 403);
    for (const bad of [
      { thresholdMicros: '5000000', amountMicros: '999999' },
      { thresholdMicros: '5000000', amountMicros: '10000010000' },
      { thresholdMicros: '-1', amountMicros: '10000000' },
      { thresholdMicros: '10000000001', amountMicros: '10000000' },
      { thresholdMicros: '5000000' },
    ]) {
      assert.equal((await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: bad })).status, 400, JSON.stringify(bad));
    }
    const ok = await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: { thresholdMicros: 5_000_000, amountMicros: '10000000' } });
    assert.equal(ok.status, 200);
    assert.deepEqual(ok.body.data.autoTopup, rule);
    assert.equal((await srv.api('GET', '/api/tenant/wallet', { token: viewer.accessToken })).body.data.autoTopup.amountMicros, '10000000');
    const del = await srv.api('DELETE', '/api/tenant/wallet/auto-topup', { token: t.accessToken });
    assert.equal(del.status, 200);
    assert.equal(del.body.data.autoTopup, null);
  });

  test('a settlement that crosses the threshold enqueues one charge; the worker credits it; re-armed above the threshold', async () => {
    const t = await newTenant(s());
    await paidTopup(t, '6000000');
    assert.equal((await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: { thresholdMicros: '5000000', amountMicros: '10000000' } })).status, 200);
    // gpt-4o-mini output at $0.60/MTok: 2,000,000 tokens = 1,200,000 micros.
    const big = { usage: { inputTokens: 0, outputTokens: 2_000_000 } };
    const spend = async () => {
      const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_200_000n });
      return settleCall(s(), settlement(t, r, big));
    };
    const autoTopups = () => s().db.selectFrom('topups').selectAll().where('tenant_id', '=', t.tenantId).where('kind', '=', 'auto').execute();

    const first = await spend(); // 6.0 → 4.8: crosses
    assert.equal(first.balanceAfterMicros, 4_800_000n, 'the settlement returns before any charge: not in the request path');
    await spend(); // 4.8 → 3.6: still below, no second job
    await spend(); // 3.6 → 2.4
    await waitFor('the auto top-up', async () => (await autoTopups()).find((x) => x.status === 'credited'));
    await new Promise((r) => setTimeout(r, 1_500)); // room for a (wrong) second job to run
    let tops = await autoTopups();
    assert.equal(tops.length, 1, 'one charge per crossing');
    assert.equal(tops[0].amount_micros, 10_000_000n);
    let w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 12_400_000n);
    assert.equal(w.auto_topup_armed, true, 'a credit that lands above the threshold re-arms the rule');
    const entry = await s().db.selectFrom('ledger_entries').select(['event_type', 'memo']).where('id', '=', tops[0].ledger_entry_id!).executeTakeFirstOrThrow();
    assert.deepEqual([entry.event_type, entry.memo], ['WALLET_TOPUP', 'Auto top-up']);
    assert.equal((await s().db.selectFrom('invoices').select('id').where('topup_id', '=', tops[0].id).execute()).length, 1);

    // Down again: 12.4 → … → 4.0 crosses a second time.
    for (let i = 0; i < 7; i++) await spend();
    await waitFor('the second auto top-up', async () => (await autoTopups()).filter((x) => x.status === 'credited').length === 2);
    tops = await autoTopups();
    assert.equal(tops.length, 2);
    w = await walletRow(s(), t.tenantId);
    assert.equal(w.balance_micros, 14_000_000n);
    assert.equal(await ledgerSum(s(), t.tenantId), w.balance_micros);
    assert.equal((await verifyLedger(s().db, s().secrets.ledger, t.tenantId)).verified, true);
  });

  test('a declined card fails the top-up and leaves the rule disarmed: no charge loop', async () => {
    const t = await newTenant(s());
    await paidTopup(t, '6000000');
    await srv.api('PUT', '/api/tenant/wallet/auto-topup', { token: t.accessToken, body: { thresholdMicros: '5000000', amountMicros: '10000000' } });
    await sql`update payment_methods set method_ref = 'pm_declined' where tenant_id = ${t.tenantId}`.execute(s().db);
    const big = { usage: { inputTokens: 0, outputTokens: 2_000_000 } };
    for (let i = 0; i < 2; i++) {
      const r = await reserve(s(), { tenantId: t.tenantId, projectId: t.projectId, callId: callId(), amountMicros: 1_200_000n });
      await settleCall(s(), settlement(t, r, big));
    }
    const failed = await waitFor('the declined top-up', async () =>
      s().db.selectFrom('topups').selectAll().where('tenant_id', '=', t.tenantId).where('kind', '=', 'auto').where('status', '=', 'failed').executeTakeFirst(),
    );
    assert.match(failed.failure_reason ?? '', /no sandbox payment method/);
    await new Promise((r) => setTimeout(r, 1_500));
    assert.equal((await s().db.selectFrom('topups').select('id').where('tenant_id', '=', t.tenantId).where('kind', '=', 'auto').execute()).length, 1);
    const w = await walletRow(s(), t.tenantId);
    assert.equal(w.auto_topup_armed, false);
    assert.equal(w.balance_micros, 3_600_000n);
  });
});

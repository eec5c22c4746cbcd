// A call the wallet cannot cover is refused with 402 in the vendor's own error shape, and the
// message says where to top up (issue 14).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

test('402 names the billing page to top up at, on the chat-completions and messages shapes', async () => {
  const t = await tenantWithKey(srv, { micros: 1n });
  const openaiErr = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions
    .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] })
    .then(() => null, (e: unknown) => e);
  assert.ok(openaiErr instanceof OpenAI.APIError, String(openaiErr));
  assert.equal(openaiErr.status, 402);
  assert.ok(openaiErr.message.includes(`Top up at ${srv.services.publicUrl}/billing`), openaiErr.message);

  const anthropicErr = await new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 }).messages
    .create({ model: 'claude-3-5-haiku-latest', max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] })
    .then(() => null, (e: unknown) => e);
  assert.ok(anthropicErr instanceof Anthropic.APIError, String(anthropicErr));
  assert.equal(anthropicErr.status, 402);
  assert.ok(anthropicErr.message.includes(`${srv.services.publicUrl}/billing`), anthropicErr.message);
});

// A provider's 4xx refuses the client's own request (docs/decisions.md, "Failover" and "A request
// the provider refuses"): the client gets a 400 in its vendor's shape, the attempt has a failed
// call-log row (status failed, error code validation) and nothing is debited or left reserved.
async function moneyOf(t: { tenantId: string; accessToken: string }) {
  const w = (await srv.api('GET', '/api/tenant/wallet', { token: t.accessToken })).body.data;
  const usage = await srv.services.db.selectFrom('ledger_entries').select('id').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').execute();
  return { balance: w.balance as string, usageEntries: usage.length };
}
const rowsOf = (tenantId: string) =>
  srv.services.db.selectFrom('call_logs').select(['status', 'error_code', 'attempt', 'parent_call_id']).where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('attempt').execute();

test('an upstream 4xx (the request refused by the vendor): a 400 with its message, a failed call-log row, no charge, no hold left', async () => {
  const t = await tenantWithKey(srv, { micros: 5_000_000n });
  const before = await moneyOf(t);
  const [rule] = srv.sim.faults.add({ promptIncludes: 'VENDOR-REFUSES-THIS', status: 400, errorMessage: 'Invalid value for temperature' });
  try {
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    for (const stream of [false, true]) {
      const err = await client.chat.completions
        .create({ model: 'gpt-4o-mini', stream, messages: [{ role: 'user', content: 'VENDOR-REFUSES-THIS please' }] } as never)
        .then(() => null, (e: unknown) => e);
      assert.ok(err instanceof OpenAI.APIError, String(err));
      assert.equal(err.status, 400, `stream=${stream}`);
      assert.match(err.message, /Upstream rejected the request: Invalid value for temperature/);
    }
  } finally {
    srv.sim.faults.remove(rule);
  }
  const rows = await rowsOf(t.tenantId);
  assert.deepEqual(rows.map((r) => [r.status, r.error_code]), [['failed', 'validation'], ['failed', 'validation']], 'one failed row per refused call');
  const after = await moneyOf(t);
  assert.equal(after.balance, before.balance, 'nothing debited');
  assert.equal(after.usageEntries, 0, 'no AI usage in the ledger');
});

test('an escalation the vendor refuses (4xx): the client still gets the answer it paid for, and the refused attempt costs nothing', async () => {
  const t = await tenantWithKey(srv, { micros: 5_000_000n });
  const before = await moneyOf(t);
  // The first attempt answers with a refusal (below the floor: it escalates); the vendor refuses the escalation.
  const rules = srv.sim.faults.add({ promptIncludes: 'ESCALATION-REFUSED', answer: 'refusal', times: 1 }, { promptIncludes: 'ESCALATION-REFUSED', status: 400, errorMessage: 'context too long for this model' });
  let res;
  try {
    res = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ESCALATION-REFUSED: what is the capital of France?' }] })
      .withResponse();
  } finally {
    for (const r of rules) srv.sim.faults.remove(r);
  }
  assert.equal(res.response.status, 200);
  const rows = await rowsOf(t.tenantId);
  assert.deepEqual(rows.map((r) => [r.attempt, r.status, r.error_code]), [[1, 'succeeded', null], [2, 'failed', 'validation']]);
  assert.equal(res.response.headers.get('x-service-call-id') !== null, true);
  const after = await moneyOf(t);
  assert.equal(after.usageEntries, 1, 'only the delivered attempt is in the ledger');
  const entry = await srv.services.db.selectFrom('ledger_entries').select('amount_micros').where('tenant_id', '=', t.tenantId).where('event_type', '=', 'AI_USAGE').executeTakeFirstOrThrow();
  assert.equal(BigInt(before.balance) + BigInt(entry.amount_micros), BigInt(after.balance), 'the wallet moved by that one entry');
  assert.ok(res.data.choices[0].message.content, 'the paid answer was delivered');
});

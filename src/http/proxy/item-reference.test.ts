// D19, session 9: Responses API `item_reference` input items (`{type:'item_reference', id}`, or the
// SDK's bare `{id}`) are looked up in the tenant's stored responses (kept 30 days with `store`) and
// replaced by the item they name; an id that names no live item of this tenant is OpenAI's own 404
// ("Item with id '…' not found.", param `input`). The official SDK drives the real server; the
// simulated upstream shows what the provider received.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let a: OpenAI;
let b: OpenAI;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000' } });
  a = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: (await tenantWithKey(srv)).key, maxRetries: 0 });
  b = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: (await tenantWithKey(srv)).key, maxRetries: 0 });
});
after(() => srv.close());

/** The id and text of a stored response's answer message. */
function answerOf(r: OpenAI.Responses.Response): { id: string; text: string } {
  const msg = r.output.find((i): i is OpenAI.Responses.ResponseOutputMessage => i.type === 'message');
  assert.ok(msg, 'the response has a message item');
  assert.ok(msg.id.length > 0);
  return { id: msg.id, text: r.output_text };
}

const upstreamText = () => JSON.stringify(srv.sim.stats.last?.body);

const notFound = (id: string) => (e: unknown) =>
  e instanceof OpenAI.NotFoundError && e.status === 404 && e.message.includes(`Item with id '${id}' not found.`) && e.param === 'input';

describe('item_reference input items', () => {
  test('a reference to an item of a stored response is replaced by that item, typed or bare', async () => {
    const first = answerOf(await a.responses.create({ model: 'gpt-4.1', input: 'Write one sentence about lighthouses.' }));
    for (const ref of [{ type: 'item_reference' as const, id: first.id }, { id: first.id }]) {
      const next = await a.responses.create({
        model: 'gpt-4.1',
        input: [{ role: 'user', content: 'Write one sentence about lighthouses.' }, ref, { role: 'user', content: 'Now make it shorter.' }],
      });
      assert.equal(next.status, 'completed');
      assert.ok(upstreamText().includes(JSON.stringify(first.text)), 'the referenced answer went upstream as the assistant turn');
      assert.ok(!upstreamText().includes(first.id), 'the reference itself never leaves');
    }
  });

  test('an unknown id, another tenant’s item and an item of a response not stored are the vendor’s 404', async () => {
    await assert.rejects(a.responses.create({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: 'msg_nope' }, { role: 'user', content: 'Hi.' }] }), notFound('msg_nope'));

    const mine = answerOf(await a.responses.create({ model: 'gpt-4.1', input: 'Name a colour.' }));
    await assert.rejects(b.responses.create({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: mine.id }, { role: 'user', content: 'And another?' }] }), notFound(mine.id));

    const unstored = answerOf(await a.responses.create({ model: 'gpt-4.1', input: 'Name a fruit.', store: false }));
    await assert.rejects(a.responses.create({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: unstored.id }, { role: 'user', content: 'And another?' }] }), notFound(unstored.id));

    // Deleted with its response: gone at once.
    const gone = await a.responses.create({ model: 'gpt-4.1', input: 'Name a tree.' });
    await a.responses.delete(gone.id);
    const goneId = answerOf(gone).id;
    await assert.rejects(a.responses.create({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: goneId }, { role: 'user', content: 'Another?' }] }), notFound(goneId));
  });

  test('a reference without an id is a 400 naming it; an id that cannot be stored is refused too', async () => {
    const res = await fetch(`${srv.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${a.apiKey}` },
      body: JSON.stringify({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: 7 }, { role: 'user', content: 'Hi.' }] }),
    });
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { param: string; type: string } };
    assert.equal(body.error.param, 'input[0].id');
    assert.equal(body.error.type, 'invalid_request_error');
    // An id PostgreSQL cannot even hold (NUL) is refused in the vendor's shape, never a 500.
    const nul = await fetch(`${srv.url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${a.apiKey}` },
      body: JSON.stringify({ model: 'gpt-4.1', input: [{ type: 'item_reference', id: 'msg_\u0000' }, { role: 'user', content: 'Hi.' }] }),
    });
    assert.ok(nul.status === 400 || nul.status === 404, String(nul.status));
    assert.equal(((await nul.json()) as { error: { type: string } }).error.type, 'invalid_request_error');
  });
});

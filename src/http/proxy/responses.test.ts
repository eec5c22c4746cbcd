// The OpenAI Responses API (D19) driven by the official `openai` SDK's client.responses.create and
// client.responses.stream, on the generic route and the vendor-prefixed one: answers, event
// streams, function calls and their outputs, reasoning items in the input, previous_response_id
// over stored responses, GET by id, store:false, errors in the SDK's own classes, and the ledger.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const client = (base = '/v1', key = t.key) => new OpenAI({ baseURL: srv.url + base, apiKey: key, maxRetries: 0 });

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

async function usageEntries(): Promise<number> {
  const r = await srv.services.db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', t.tenantId)
    .where('event_type', '=', 'AI_USAGE')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

for (const [name, base] of [['generic /v1', '/v1'], ['vendor-prefixed /v1/chat-proxy/v1', '/v1/chat-proxy/v1']] as const) {
  describe(`Responses API, ${name}`, () => {
    test('create: a response object with output text, usage, the D6 headers and a ledger entry', async () => {
      const before = await usageEntries();
      const { data, response } = await client(base)
        .responses.create({ model: 'gpt-5.1', instructions: 'Be brief.', input: 'Name three colours.' })
        .withResponse();
      assert.equal(data.object, 'response');
      assert.equal(data.status, 'completed');
      assert.equal(data.model, 'gpt-5.1');
      assert.match(data.id, /^resp_/);
      assert.match(data.output_text, /Name three colours/);
      assert.equal(data.output[0].type, 'message');
      assert.ok(data.usage!.input_tokens > 0 && data.usage!.output_tokens > 0);
      assert.match(response.headers.get('x-service-call-id')!, /^[0-9a-f-]{36}$/);
      assert.equal(response.headers.get('x-service-simulated'), 'true');
      assert.equal((await usageEntries()) - before, 1);
    });

    test('stream: Responses event types from created to completed, text deltas adding up', async () => {
      const before = await usageEntries();
      const stream = client(base).responses.stream({ model: 'gpt-5.1', input: [{ role: 'user', content: 'Write two sentences about rivers.' }] });
      const types: string[] = [];
      let text = '';
      for await (const ev of stream) {
        types.push(ev.type);
        if (ev.type === 'response.output_text.delta') text += ev.delta;
      }
      const final = await stream.finalResponse();
      assert.equal(types[0], 'response.created');
      assert.equal(types[1], 'response.in_progress');
      assert.equal(types.at(-1), 'response.completed');
      for (const ty of ['response.output_item.added', 'response.content_part.added', 'response.output_text.done', 'response.output_item.done']) {
        assert.ok(types.includes(ty), `${ty} in ${types.join(',')}`);
      }
      assert.ok(text.length > 10);
      assert.equal(final.output_text, text);
      assert.ok(final.usage!.output_tokens > 0);
      assert.equal((await usageEntries()) - before, 1);
    });

    test('function calls: the tool is called, its output goes back as an input item, the answer uses it', async () => {
      const c = client(base);
      const first = await c.responses.create({ model: 'gpt-5.1', input: 'Use get_weather for Paris.', tools: [weather], store: false });
      const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call');
      assert.ok(call, JSON.stringify(first.output));
      assert.equal(call.name, 'get_weather');
      assert.equal(typeof JSON.parse(call.arguments).city, 'string');
      const second = await c.responses.create({
        model: 'gpt-5.1',
        tools: [weather],
        store: false,
        input: [
          { role: 'user', content: 'Use get_weather for Paris.' },
          { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'I should look it up.' }] },
          call,
          { type: 'function_call_output', call_id: call.call_id, output: '18 degrees and sunny' },
        ],
      });
      assert.match(second.output_text, /get_weather tool returned: 18 degrees and sunny/);
    });

    test('stream: a function call arrives as function_call_arguments events', async () => {
      const stream = client(base).responses.stream({ model: 'gpt-5.1', input: 'Use get_weather for Oslo.', tools: [weather] });
      const types = new Set<string>();
      for await (const ev of stream) types.add(ev.type);
      const final = await stream.finalResponse();
      assert.ok(types.has('response.function_call_arguments.delta'));
      assert.ok(types.has('response.function_call_arguments.done'));
      assert.equal(final.output[0].type, 'function_call');
    });

    test('previous_response_id continues a stored conversation; GET reads it back; store:false keeps nothing', async () => {
      const c = client(base);
      const first = await c.responses.create({ model: 'gpt-5.1', input: 'Remember the word lighthouse.' });
      assert.equal((first as typeof first & { store?: boolean }).store, true);
      const got = await c.responses.retrieve(first.id);
      assert.equal(got.id, first.id);
      assert.equal(got.output_text, first.output_text);

      const next = await c.responses.create({ model: 'gpt-5.1', input: 'What word was it?', previous_response_id: first.id });
      assert.equal(next.previous_response_id, first.id);
      // The whole conversation went upstream: the earlier turn and its answer, then the new one.
      const sent = JSON.stringify(srv.sim.stats.last!.body);
      assert.match(sent, /Remember the word lighthouse/);
      assert.match(sent, /What word was it/);

      const streamed = client(base).responses.stream({ model: 'gpt-5.1', input: 'And again?', previous_response_id: next.id });
      const final = await streamed.finalResponse();
      assert.equal((await c.responses.retrieve(final.id)).output_text, final.output_text, 'a streamed response is stored too');

      const unstored = await c.responses.create({ model: 'gpt-5.1', input: 'Forget this.', store: false });
      assert.equal((unstored as typeof unstored & { store?: boolean }).store, false);
      await assert.rejects(c.responses.retrieve(unstored.id), OpenAI.NotFoundError);
      await assert.rejects(c.responses.create({ model: 'gpt-5.1', input: 'x', previous_response_id: unstored.id }), OpenAI.NotFoundError);
    });
  });
}

describe('Responses API errors and isolation', () => {
  test('another tenant cannot read or continue a stored response', async () => {
    const first = await client().responses.create({ model: 'gpt-5.1', input: 'A private note.' });
    const other = await tenantWithKey(srv);
    await assert.rejects(client('/v1', other.key).responses.retrieve(first.id), OpenAI.NotFoundError);
    await assert.rejects(client('/v1', other.key).responses.create({ model: 'm', input: 'x', previous_response_id: first.id }), OpenAI.NotFoundError);
  });

  test('a bad key and a bad body get the SDK’s own error classes, naming the field', async () => {
    await assert.rejects(client('/v1', 'svc_dev_nope').responses.create({ model: 'm', input: 'x' }), OpenAI.AuthenticationError);
    const e = await client()
      .responses.create({ model: 'm', input: [{ role: 'user', content: 'x' }], max_output_tokens: -1 })
      .catch((x: unknown) => x);
    assert.ok(e instanceof OpenAI.BadRequestError);
    assert.match(e.message, /max_output_tokens/);
  });

  test('text.format json_schema gets JSON that fits the schema', async () => {
    const r = await client().responses.create({
      model: 'gpt-5.1',
      input: 'Give me a city.',
      text: { format: { type: 'json_schema', name: 'city', schema: { type: 'object', properties: { name: { type: 'string' }, population: { type: 'integer' } }, required: ['name', 'population'], additionalProperties: false }, strict: true } },
    });
    const v = JSON.parse(r.output_text) as { name: unknown; population: unknown };
    assert.equal(typeof v.name, 'string');
    assert.ok(Number.isInteger(v.population));
  });
});

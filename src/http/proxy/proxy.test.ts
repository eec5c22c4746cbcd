// The drop-in proxy driven by the official SDKs (issue 3): each SDK pointed at Switchboard with
// only its base URL and key changed — completions, streams, the D6 headers and typed errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { openStream } from '../../../test/sse-client.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const openai = (base = '/v1', key = t.key) => new OpenAI({ baseURL: srv.url + base, apiKey: key, maxRetries: 0 });
const anthropic = (base = '', key = t.key) => new Anthropic({ baseURL: srv.url + base, apiKey: key, maxRetries: 0 });
const gemini = (base = '/v1/generate', key = t.key) => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: srv.url + base } });

describe('x-service-tokens-saved on every answer (D6, D7)', () => {
  test('a figure with a benchmark provider; "null" without one; "pending" on a stream whose savings are settled at its end', async () => {
    const plain = { model: 'x', messages: [{ role: 'user' as const, content: 'Name two rivers.' }] };
    const none = await openai().chat.completions.create(plain).withResponse();
    assert.equal(none.response.headers.get('x-service-tokens-saved'), 'null', 'no benchmark provider: savings are null, never 0');
    const noneStream = await openai().chat.completions.create({ ...plain, stream: true }).withResponse();
    for await (const _ of noneStream.data) void _;
    assert.equal(noneStream.response.headers.get('x-service-tokens-saved'), 'null');

    const b = await tenantWithKey(srv);
    await srv.services.db.updateTable('tenants').set({ baseline_provider_key: 'openai' }).where('id', '=', b.tenantId).execute();
    const priced = await openai('/v1', b.key).chat.completions.create(plain).withResponse();
    const saved = priced.response.headers.get('x-service-tokens-saved');
    assert.match(saved ?? '', /^-?\d+$/);
    const row = await srv.services.db.selectFrom('call_logs').select(['baseline_cost_usd_micros', 'actual_cost_usd_micros']).where('id', '=', priced.response.headers.get('x-service-call-id')!).executeTakeFirstOrThrow();
    assert.equal(BigInt(saved!), row.baseline_cost_usd_micros! - row.actual_cost_usd_micros!, 'the figure is the call log\'s baseline − actual');
    const pricedStream = await openai('/v1', b.key).chat.completions.create({ ...plain, stream: true }).withResponse();
    for await (const _ of pricedStream.data) void _;
    assert.equal(pricedStream.response.headers.get('x-service-tokens-saved'), 'pending');
  });
});

describe('chat-completions shape', () => {
  for (const [name, base] of [['generic /v1', '/v1'], ['vendor-prefixed /v1/chat-proxy/v1', '/v1/chat-proxy/v1']] as const) {
    test(`${name}: a completion echoes the client's model and carries usage and the D6 headers`, async () => {
      const { data, response } = await openai(base)
        .chat.completions.create({ model: 'my-model-hint', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Name three colours.' }] })
        .withResponse();
      assert.equal(data.object, 'chat.completion');
      assert.equal(data.model, 'my-model-hint');
      assert.ok(data.choices[0].message.content!.length > 0);
      assert.equal(data.choices[0].finish_reason, 'stop');
      assert.ok(data.usage!.prompt_tokens > 0 && data.usage!.completion_tokens > 0);
      assert.match(response.headers.get('x-service-call-id')!, /^[0-9a-f-]{36}$/);
      assert.match(response.headers.get('x-service-model-class')!, /^(economy|standard|premium|frontier)$/);
      assert.equal(response.headers.get('x-service-simulated'), 'true', 'answers of the simulated upstream are labelled');
    });

    test(`${name}: a stream yields text deltas then a usage chunk`, async () => {
      const stream = await openai(base).chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Write two sentences about rivers.' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = '';
      let usage: OpenAI.CompletionUsage | undefined;
      let finish: string | null = null;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
        if (chunk.usage) usage = chunk.usage;
      }
      assert.ok(text.length > 10);
      assert.equal(finish, 'stop');
      assert.ok(usage && usage.completion_tokens > 0);
    });
  }

  test('the generic route echoes the client’s model in every stream chunk (D6)', async () => {
    const stream = await openai().chat.completions.create({ model: 'my-hint', stream: true, messages: [{ role: 'user', content: 'Say something short.' }] });
    const models = new Set<string>();
    for await (const chunk of stream) models.add(chunk.model);
    assert.deepEqual([...models], ['my-hint']);
  });

  test('a stream without include_usage carries no usage-only chunk, on both routes', async () => {
    for (const base of ['/v1', '/v1/chat-proxy/v1']) {
      const stream = await openai(base).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Count to three.' }], stream: true });
      const chunks = [];
      for await (const c of stream) chunks.push(c);
      assert.ok(chunks.length > 1);
      assert.equal(chunks.some((c) => c.choices.length === 0 || c.usage), false, base);
    }
  });

  test('tool calls come back as tool_calls, streamed as argument deltas', async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      { type: 'function', function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
    ];
    const r = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Use get_weather for Paris.' }], tools });
    const call = r.choices[0].message.tool_calls?.[0];
    assert.ok(call && call.type === 'function');
    assert.equal(call.function.name, 'get_weather');
    assert.equal(typeof JSON.parse(call.function.arguments).city, 'string');
    assert.equal(r.choices[0].finish_reason, 'tool_calls');

    const stream = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Use get_weather for Oslo.' }], tools, stream: true });
    let args = '';
    let name = '';
    for await (const chunk of stream) {
      const tc = chunk.choices[0]?.delta?.tool_calls?.[0];
      if (tc?.function?.name) name = tc.function.name;
      args += tc?.function?.arguments ?? '';
    }
    assert.equal(name, 'get_weather');
    assert.doesNotThrow(() => JSON.parse(args));
  });
});

describe('messages shape', () => {
  for (const [name, base] of [['generic /v1/messages', ''], ['vendor-prefixed /v1/messages-proxy', '/v1/messages-proxy']] as const) {
    test(`${name}: a message and a stream`, async () => {
      const msg = await anthropic(base).messages.create({ model: 'claude-hint', max_tokens: 200, system: 'Be brief.', messages: [{ role: 'user', content: 'Say hello.' }] });
      assert.equal(msg.type, 'message');
      assert.equal(msg.model, 'claude-hint');
      assert.equal(msg.content[0].type, 'text');
      assert.ok(msg.usage.input_tokens > 0 && msg.usage.output_tokens > 0);
      assert.equal(msg.stop_reason, 'end_turn');

      const stream = anthropic(base).messages.stream({ model: 'claude-hint', max_tokens: 200, messages: [{ role: 'user', content: 'Describe a cat in two sentences.' }] });
      let text = '';
      stream.on('text', (d) => (text += d));
      const final = await stream.finalMessage();
      assert.ok(text.length > 10);
      assert.equal(final.stop_reason, 'end_turn');
      assert.ok(final.usage.output_tokens > 0);
    });
  }
});

describe('generate-content shape', () => {
  for (const [name, base] of [['generic /v1/generate', '/v1/generate'], ['vendor-prefixed /v1/generate-proxy', '/v1/generate-proxy']] as const) {
    test(`${name}: generateContent and generateContentStream`, async () => {
      const ai = gemini(base);
      const r = await ai.models.generateContent({ model: 'gemini-hint', contents: 'Name a planet.' });
      assert.ok(r.text && r.text.length > 0);
      assert.ok((r.usageMetadata?.candidatesTokenCount ?? 0) > 0);
      let text = '';
      let usage = 0;
      for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-hint', contents: 'Write a sentence about the sea.' })) {
        text += chunk.text ?? '';
        usage = chunk.usageMetadata?.candidatesTokenCount ?? usage;
      }
      assert.ok(text.length > 5);
      assert.ok(usage > 0);
    });
  }
});

describe('errors in each vendor shape', () => {
  test('keys are accepted in every header spec §5 lists for each shape, and only there', async () => {
    const chat = { model: 'x', messages: [{ role: 'user', content: 'hi' }] };
    const gen = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    const cases: Array<[string, Record<string, string>, unknown, number]> = [
      ['/v1/chat/completions', { authorization: `Bearer ${t.key}` }, chat, 200],
      ['/v1/chat/completions', { 'x-api-key': t.key }, chat, 200],
      ['/v1/chat/completions', { 'x-goog-api-key': t.key }, chat, 401],
      ['/v1/chat-proxy/v1/chat/completions', { 'x-api-key': t.key }, chat, 200],
      ['/v1/messages', { 'x-api-key': t.key, 'anthropic-version': '2023-06-01' }, { ...chat, max_tokens: 5 }, 200],
      ['/v1/messages-proxy/v1/messages', { authorization: `Bearer ${t.key}` }, { ...chat, max_tokens: 5 }, 200],
      ['/v1/messages', { 'x-goog-api-key': t.key }, { ...chat, max_tokens: 5 }, 401],
      ['/v1/generate-proxy/v1beta/models/m:generateContent', { 'x-goog-api-key': t.key }, gen, 200],
      ['/v1/generate-proxy/v1beta/models/m:generateContent', { 'x-api-key': t.key }, gen, 200],
      ['/v1/generate/generateContent', { authorization: `Bearer ${t.key}` }, gen, 200],
    ];
    for (const [path, headers, body, status] of cases) {
      const r = await fetch(srv.url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      assert.equal(r.status, status, `${path} with ${Object.keys(headers).join('+')}`);
    }
  });

  test('a bad key raises each SDK’s authentication error', async () => {
    await assert.rejects(openai('/v1', 'svc_dev_wrong').chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.AuthenticationError);
    await assert.rejects(anthropic('', 'svc_dev_wrong').messages.create({ model: 'x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }), Anthropic.AuthenticationError);
    await assert.rejects(gemini('/v1/generate', 'svc_dev_wrong').models.generateContent({ model: 'x', contents: 'hi' }), (e: { status?: number }) => e.status === 401);
  });

  test('a malformed body raises BadRequestError and never a 500', async () => {
    await assert.rejects(openai().chat.completions.create({ model: 'x', messages: 'nope' as never }), OpenAI.BadRequestError);
    await assert.rejects(anthropic().messages.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] } as never), Anthropic.BadRequestError);
    const raw = await fetch(`${srv.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: '{"model":' });
    assert.equal(raw.status, 400);
    assert.equal((await raw.json()).error.type, 'invalid_request_error');
    const unknown = await fetch(`${srv.url}/v1/nowhere`, { headers: { authorization: `Bearer ${t.key}` } });
    assert.equal(unknown.status, 404);
    assert.ok((await unknown.json()).error.message);
  });

  test('an upstream that keeps failing gives 502 after failover; one failing endpoint is failed over', async () => {
    const [id] = srv.sim.faults.add({ status: 500 });
    await assert.rejects(openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi there' }] }), (e: InstanceType<typeof OpenAI.APIError>) => e.status === 502);
    srv.sim.faults.remove(id);
    srv.sim.faults.add({ status: 503, times: 1 });
    const ok = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi again' }] });
    assert.ok(ok.choices[0].message.content);
    srv.sim.faults.clear();
  });

  test('a body over the limit is refused with 413 in the vendor shape, never a 500', async () => {
    const huge = 'x'.repeat(srv.services.config.BODY_LIMIT_BYTES + 1);
    const err = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: huge }] }).then(() => null, (e: unknown) => e);
    assert.ok(err instanceof OpenAI.APIError);
    assert.equal(err.status, 413);
    const a = await anthropic().messages.create({ model: 'x', max_tokens: 5, messages: [{ role: 'user', content: huge }] }).then(() => null, (e: unknown) => e);
    assert.ok(a instanceof Anthropic.APIError);
    assert.equal(a.status, 413);
    assert.equal((a.error as { error?: { type?: string } }).error?.type, 'request_too_large');
  });

  test('a prompt with a NUL character or a lone surrogate is answered and settled, never a 500', async () => {
    // JSON allows both (\u0000, \ud800); PostgreSQL's text and jsonb do not. The call must still be
    // delivered, debited and sealed: the stored copies carry U+FFFD in their place. The third case
    // also has an escaped backslash before "u0000", which is text and must stay as it is.
    const cases = [String.raw`before\u0000after`, String.raw`lone \ud800 surrogate`, String.raw`escaped \\u0000 text and a real \u0000`];
    for (const content of cases) {
      for (const stream of [false, true]) {
        const res = await fetch(`${srv.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
          body: `{"model":"x","stream":${stream},"messages":[{"role":"user","content":"${content}"}]}`,
        });
        const body = await res.text();
        assert.equal(res.status, 200, `${content} (stream ${stream}): ${body.slice(0, 300)}`);
        const callId = res.headers.get('x-service-call-id')!;
        const entry = await srv.services.db.selectFrom('ledger_entries').select('id').where('call_id', '=', callId).executeTakeFirst();
        assert.ok(entry, `${content} (stream ${stream}): sealed`);
        const log = await srv.services.db.selectFrom('learning_outbox').select('request').where('call_id', '=', callId).executeTakeFirstOrThrow();
        const stored = JSON.stringify(log.request);
        assert.ok(stored.includes('\ufffd'), `${content}: the character is replaced, not dropped: ${stored}`);
        if (content.startsWith('escaped')) assert.ok(stored.includes(String.raw`escaped \\u0000 text`), stored);
      }
    }
    // A call that fails upstream is recorded too (its call-log row carries the excerpt): 502, not 500.
    const [fault] = srv.sim.faults.add({ status: 500 });
    const failed = await fetch(`${srv.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: String.raw`{"model":"x","messages":[{"role":"user","content":"fails \u0000 upstream"}]}`,
    });
    srv.sim.faults.remove(fault);
    assert.equal(failed.status, 502, await failed.text());
    const rows = await srv.services.db.selectFrom('call_logs').select(['status']).where('prompt_excerpt', 'like', 'fails \ufffd upstream%').execute();
    assert.ok(rows.length > 0 && rows.every((r) => r.status === 'failed'), JSON.stringify(rows));
  });

  test('a stream’s last frame leaves only after its debit is durable (D8)', async () => {
    for (const [base, shape] of [['/v1', 'generic'], ['/v1/chat-proxy/v1', 'pass-through']] as const) {
      const res = await fetch(`${srv.url}${base}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Count from one to five.' }] }),
      });
      const callId = res.headers.get('x-service-call-id')!;
      const reader = res.body!.getReader();
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        if (text.includes('[DONE]')) {
          // Checked the moment the last frame arrives: the sealed entry is already there.
          const entry = await srv.services.db.selectFrom('ledger_entries').select('id').where('call_id', '=', callId).executeTakeFirst();
          assert.ok(entry, `${shape}: the AI_USAGE entry exists when [DONE] arrives`);
        }
      }
      assert.ok(text.includes('[DONE]'));
    }
  });

  test('GET /v1/models lists the routable catalogue for the key', async () => {
    const list = await openai().models.list();
    const ids = list.data.map((m) => m.id);
    assert.ok(ids.length >= 10);
    const chatOnly = await openai('/v1/chat-proxy/v1').models.list();
    assert.ok(chatOnly.data.length > 0 && chatOnly.data.length < ids.length);
    const h = await fetch(`${srv.url}/v1/generate-proxy/health`);
    assert.deepEqual(await h.json(), { status: 'ok', upstream: 'configured', simulated: true });
  });
});

describe('channel attribution (D14)', () => {
  test('x-service-channel names the connector on the call log and in llm.call; none means proxy', async () => {
    const stream = await openStream(`${srv.url}/api/service/projects/${t.defaultProjectId}/events`, { token: t.accessToken });
    try {
      await stream.next('connected');
      const viaMcp = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hello from a tool.' }] }, { headers: { 'x-service-channel': 'mcp' } }).withResponse();
      const viaAnthropic = await anthropic().messages.create({ model: 'x', max_tokens: 32, messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'x-service-channel': 'Bridge' } }).withResponse();
      const plain = await openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hello.' }] }).withResponse();
      const ids = [viaMcp, viaAnthropic, plain].map((r) => r.response.headers.get('x-service-call-id')!);
      const rows = await srv.services.db.selectFrom('call_logs').select(['id', 'channel']).where('id', 'in', ids).execute();
      const byId = new Map(rows.map((r) => [r.id, r.channel]));
      assert.deepEqual(ids.map((id) => byId.get(id)), ['mcp:chat', 'bridge:messages', 'proxy:chat']);
      const events = new Map<string, string>();
      while (events.size < 3) {
        const rec = await stream.next('llm.call');
        const p = JSON.parse(rec.data).payload;
        if (ids.includes(p.callId)) events.set(p.callId, p.channel);
      }
      assert.deepEqual(ids.map((id) => events.get(id)), ['mcp', 'bridge', 'proxy']);
    } finally {
      stream.close();
    }
  });

  test('an unknown channel is refused in the vendor shape, naming the allowed values', async () => {
    await assert.rejects(
      openai().chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'x-service-channel': 'fax' } }),
      (e: unknown) => e instanceof OpenAI.BadRequestError && /x-service-channel 'fax'.*mcp/.test(e.message),
    );
    await assert.rejects(
      anthropic().messages.create({ model: 'x', max_tokens: 8, messages: [{ role: 'user', content: 'Hi' }] }, { headers: { 'x-service-channel': 'fax' } }),
      (e: unknown) => e instanceof Anthropic.BadRequestError,
    );
  });
});

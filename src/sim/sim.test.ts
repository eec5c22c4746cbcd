// The simulated upstream, driven by the official vendor SDKs pointed straight at it: proof that it
// (and the wire renderers it shares with the gateway) speaks each vendor's real wire format, and
// that fault injection surfaces as each SDK's own typed errors.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError, GoogleGenAI, Type } from '@google/genai';
import OpenAI from 'openai';
import { startSim, type SimHandle } from './index.ts';

let sim: SimHandle;
const openai = (prefix = '', opts: { timeout?: number } = {}) =>
  new OpenAI({ apiKey: 'sk-sim', baseURL: `${sim.url}${prefix}/v1`, maxRetries: 0, ...opts });
const anthropic = (prefix = '') => new Anthropic({ apiKey: 'sk-ant-sim', baseURL: `${sim.url}${prefix}`, maxRetries: 0 });
const gemini = (prefix = '') => new GoogleGenAI({ apiKey: 'sim-key', httpOptions: { baseUrl: `${sim.url}${prefix}` } });

const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
    required: ['city', 'unit'],
  },
};
const personSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'age', 'tags'],
  additionalProperties: false,
};

before(async () => {
  sim = await startSim({});
});
after(async () => {
  await sim.close();
});
beforeEach(() => {
  sim.faults.clear();
  sim.stats.reset();
});

describe('sim speaks the chat-completions wire (openai SDK)', () => {
  const ask = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Explain how tides work near Lisbon harbour' }] };

  it('answers non-streamed with vendor fields, echoing the model and labelling itself simulated', async () => {
    const res = await openai().chat.completions.create(ask);
    assert.match(res.id, /^chatcmpl-/);
    assert.equal(res.object, 'chat.completion');
    assert.equal(res.model, 'gpt-4o-mini');
    assert.equal(res.system_fingerprint, 'switchboard-sim');
    assert.equal(res.choices[0].finish_reason, 'stop');
    assert.ok((res.choices[0].message.content ?? '').includes('tides'));
    assert.equal(res.usage!.total_tokens, res.usage!.prompt_tokens + res.usage!.completion_tokens);
    assert.ok(res.usage!.prompt_tokens > 0 && res.usage!.completion_tokens > 0);
  });

  it('is deterministic, and the stream carries the same text plus a usage chunk when asked', async () => {
    const whole = await openai().chat.completions.create(ask);
    const chunks = [];
    for await (const c of await openai().chat.completions.create({ ...ask, stream: true, stream_options: { include_usage: true } })) {
      chunks.push(c);
    }
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, whole.choices[0].message.content);
    assert.ok(chunks.length > 4, 'answer is split into several deltas');
    const finish = chunks.find((c) => c.choices[0]?.finish_reason);
    assert.equal(finish?.choices[0].finish_reason, 'stop');
    const last = chunks[chunks.length - 1];
    assert.deepEqual(last.choices, []);
    assert.deepEqual(last.usage, whole.usage);
    const res = await openai().chat.completions.create({ ...ask, stream: true });
    let usageSeen = false;
    for await (const c of res) if (c.usage) usageSeen = true;
    assert.equal(usageSeen, false, 'no usage chunk unless include_usage');
  });

  it('calls a tool the prompt names, streamed and not, and replies to its result', async () => {
    const tools = [{ type: 'function' as const, function: weatherTool }];
    const messages = [{ role: 'user' as const, content: 'Use get_weather to check Porto, please' }];
    const res = await openai().chat.completions.create({ model: 'gpt-4o', messages, tools });
    assert.equal(res.choices[0].finish_reason, 'tool_calls');
    const call = res.choices[0].message.tool_calls![0];
    assert.equal(call.type, 'function');
    if (call.type !== 'function') return;
    assert.equal(call.function.name, 'get_weather');
    const args = JSON.parse(call.function.arguments);
    assert.equal(args.city, 'Porto');
    assert.equal(args.unit, 'celsius');

    const stream = openai().chat.completions.stream({ model: 'gpt-4o', messages, tools });
    const final = await stream.finalChatCompletion();
    const streamed = final.choices[0].message.tool_calls![0];
    assert.equal(final.choices[0].finish_reason, 'tool_calls');
    assert.ok(streamed.type === 'function' && streamed.function.arguments === call.function.arguments);

    const reply = await openai().chat.completions.create({
      model: 'gpt-4o',
      tools,
      messages: [
        ...messages,
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: call.id, content: '{"temp":21}' },
      ],
    });
    assert.equal(reply.choices[0].finish_reason, 'stop');
    assert.match(reply.choices[0].message.content ?? '', /get_weather tool returned: \{"temp":21\}/);
  });

  it('answers JSON mode and JSON schema with valid JSON', async () => {
    const j = await openai().chat.completions.create({ ...ask, response_format: { type: 'json_object' } });
    assert.equal(typeof JSON.parse(j.choices[0].message.content!), 'object');
    const s = await openai().chat.completions.create({
      ...ask,
      response_format: { type: 'json_schema', json_schema: { name: 'person', schema: personSchema, strict: true } },
    });
    const v = JSON.parse(s.choices[0].message.content!);
    assert.equal(typeof v.name, 'string');
    assert.equal(typeof v.age, 'number');
    assert.ok(Array.isArray(v.tags));
  });

  it('honours max_tokens (finish length) and stop sequences', async () => {
    const short = await openai().chat.completions.create({ ...ask, max_tokens: 5 });
    assert.equal(short.choices[0].finish_reason, 'length');
    assert.equal(short.usage!.completion_tokens, 5);
    const stopped = await openai().chat.completions.create({ ...ask, stop: ['simulated'] });
    assert.equal(stopped.choices[0].message.content, 'Here is a ');
    assert.equal(stopped.choices[0].finish_reason, 'stop');
  });

  it('serves each provider under its own prefix and records what it was sent', async () => {
    await openai('/mistral').chat.completions.create({ ...ask, model: 'mistral-small-latest', temperature: 0.3 });
    await openai('/deepseek').chat.completions.create({ ...ask, model: 'deepseek-chat' });
    assert.equal(sim.stats.byProvider.mistral, 1);
    assert.equal(sim.stats.byProvider.deepseek, 1);
    assert.equal(sim.stats.byRoute['POST /v1/chat/completions'], 2);
    assert.equal(sim.stats.byModel['mistral-small-latest'], 1);
    assert.equal((sim.stats.lastByProvider.mistral!.body as { temperature: number }).temperature, 0.3);
    assert.equal(sim.stats.lastByProvider.mistral!.headers.authorization, 'Bearer sk-sim');
    const models = await openai('/mistral').models.list();
    assert.ok(models.data.some((m) => m.id === 'mistral-small-latest'));
  });

  it('turns fault rules into the SDK typed errors', async () => {
    sim.faults.add(
      { model: 'auth', status: 401 },
      { model: 'rate', status: 429, retryAfterSeconds: 7 },
      { model: 'bad', status: 400 },
      { model: 'boom', status: 500 },
      { model: 'gone', status: 503 },
    );
    const call = (model: string) => openai().chat.completions.create({ ...ask, model });
    await assert.rejects(call('auth'), OpenAI.AuthenticationError);
    await assert.rejects(call('rate'), (e: unknown) => e instanceof OpenAI.RateLimitError && e.headers.get('retry-after') === '7');
    await assert.rejects(call('bad'), OpenAI.BadRequestError);
    await assert.rejects(call('boom'), OpenAI.InternalServerError);
    await assert.rejects(call('gone'), (e: unknown) => e instanceof OpenAI.InternalServerError && e.status === 503);
  });

  it('applies rules by provider, prompt substring and times', async () => {
    sim.faults.add({ provider: 'mistral', promptIncludes: 'Lisbon', status: 500, times: 1 });
    await openai('/deepseek').chat.completions.create(ask);
    await assert.rejects(openai('/mistral').chat.completions.create(ask), OpenAI.InternalServerError);
    await openai('/mistral').chat.completions.create(ask);
    assert.deepEqual(sim.faults.list(), []);
  });

  it('hangs until the client times out, delays, and breaks streams', async () => {
    sim.faults.add({ model: 'hang', hang: true });
    await assert.rejects(openai('', { timeout: 200 }).chat.completions.create({ ...ask, model: 'hang' }), OpenAI.APIConnectionTimeoutError);

    sim.faults.add({ model: 'slow', delayMs: 150, times: 1 });
    const t0 = Date.now();
    await openai().chat.completions.create({ ...ask, model: 'slow' });
    assert.ok(Date.now() - t0 >= 140);

    sim.faults.add({ model: 'broken', breakStreamAfter: 3 });
    const seen: string[] = [];
    await assert.rejects(async () => {
      for await (const c of await openai().chat.completions.create({ ...ask, model: 'broken', stream: true })) {
        seen.push(c.choices[0]?.delta.content ?? '');
      }
    });
    assert.equal(seen.length, 3);
  });

  it('gives bad answers on request, for quality escalation', async () => {
    const bad = async (answer: 'empty' | 'refusal' | 'truncated' | 'bad_json' | 'wrong_language' | 'hallucination') => {
      sim.faults.add({ answer, times: 1 });
      return (await openai().chat.completions.create(ask)).choices[0];
    };
    assert.equal((await bad('empty')).message.content, '');
    assert.match((await bad('refusal')).message.content!, /can't help/);
    assert.equal((await bad('truncated')).finish_reason, 'length');
    const bj = await bad('bad_json');
    assert.throws(() => JSON.parse(bj.message.content!));
    assert.match((await bad('wrong_language')).message.content!, /Dies ist eine simulierte Antwort/);
    assert.match((await bad('hallucination')).message.content!, /Treaty of Atlantis/);
  });

  it('rejects a missing key with a 401 in the vendor shape', async () => {
    const r = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify(ask) });
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('x-switchboard-simulated'), 'true');
    const body = (await r.json()) as { error: { type: string } };
    assert.equal(body.error.type, 'authentication_error');
  });

  it('is controlled over HTTP as well', async () => {
    const post = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ rules: [{ status: 429, times: 1 }] }) });
    assert.equal(post.status, 201);
    await assert.rejects(openai().chat.completions.create(ask), OpenAI.RateLimitError);
    const badRule = await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ status: 'x' }) });
    assert.equal(badRule.status, 400);
    await fetch(`${sim.url}/__sim/faults`, { method: 'POST', body: JSON.stringify({ status: 500 }) });
    await fetch(`${sim.url}/__sim/faults`, { method: 'DELETE' });
    await openai().chat.completions.create(ask);
    const stats = (await (await fetch(`${sim.url}/__sim/stats`)).json()) as { total: number };
    assert.equal(stats.total, 2);
  });
});

describe('sim speaks the messages wire (anthropic SDK)', () => {
  const ask = {
    model: 'claude-haiku-4-5',
    max_tokens: 400,
    system: 'You are terse.',
    messages: [{ role: 'user' as const, content: 'Describe the migration of arctic terns' }],
  };

  it('answers non-streamed', async () => {
    const msg = await anthropic().messages.create(ask);
    assert.match(msg.id, /^msg_/);
    assert.equal(msg.type, 'message');
    assert.equal(msg.model, 'claude-haiku-4-5');
    assert.equal(msg.stop_reason, 'end_turn');
    assert.equal(msg.content[0].type, 'text');
    assert.ok(msg.usage.input_tokens > 0 && msg.usage.output_tokens > 0);
  });

  it('streams the vendor event sequence with the same text and usage', async () => {
    const whole = await anthropic().messages.create(ask);
    const types: string[] = [];
    for await (const ev of await anthropic().messages.create({ ...ask, stream: true })) types.push(ev.type);
    assert.equal(types[0], 'message_start');
    assert.equal(types[1], 'content_block_start');
    assert.ok(types.filter((t) => t === 'content_block_delta').length > 3);
    assert.deepEqual(types.slice(-3), ['content_block_stop', 'message_delta', 'message_stop']);

    const final = await anthropic().messages.stream(ask).finalMessage();
    assert.deepEqual(final.content, whole.content);
    assert.equal(final.stop_reason, 'end_turn');
    assert.equal(final.usage.output_tokens, whole.usage.output_tokens);
    assert.equal(final.usage.input_tokens, whole.usage.input_tokens);
  });

  it('calls a tool, streamed input_json_delta assembling into the same input', async () => {
    const req = {
      ...ask,
      tools: [{ name: weatherTool.name, description: weatherTool.description, input_schema: weatherTool.parameters as Anthropic.Tool.InputSchema }],
      messages: [{ role: 'user' as const, content: 'Please call get_weather for Oslo' }],
    };
    const msg = await anthropic().messages.create(req);
    assert.equal(msg.stop_reason, 'tool_use');
    const use = msg.content.find((b) => b.type === 'tool_use');
    assert.ok(use && use.type === 'tool_use');
    assert.deepEqual(use.input, { city: 'Oslo', unit: 'celsius' });
    const final = await anthropic().messages.stream(req).finalMessage();
    const shape = (c: Anthropic.ContentBlock[]) => c.map((b) => (b.type === 'tool_use' ? [b.name, b.input] : b.type));
    assert.deepEqual(shape(final.content), shape(msg.content));
    assert.match(final.content[0].type === 'tool_use' ? final.content[0].id : '', /^[a-zA-Z0-9_-]+$/);

    const reply = await anthropic().messages.create({
      ...req,
      messages: [
        ...req.messages,
        { role: 'assistant', content: msg.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'sunny' }] },
      ],
    });
    assert.equal(reply.stop_reason, 'end_turn');
    assert.ok(reply.content[0].type === 'text' && reply.content[0].text.includes('get_weather tool returned: sunny'));
  });

  it('answers structured output with schema-valid JSON, and reports stop sequences', async () => {
    const msg = await anthropic().messages.create({
      ...ask,
      output_config: { format: { type: 'json_schema', schema: personSchema } },
    });
    const v = JSON.parse(msg.content[0].type === 'text' ? msg.content[0].text : '');
    assert.deepEqual(Object.keys(v).sort(), ['age', 'name', 'tags']);
    const stopped = await anthropic().messages.create({ ...ask, stop_sequences: ['answer'] });
    assert.equal(stopped.stop_reason, 'stop_sequence');
    assert.equal(stopped.stop_sequence, 'answer');
    const short = await anthropic().messages.create({ ...ask, max_tokens: 3 });
    assert.equal(short.stop_reason, 'max_tokens');
  });

  it('turns fault rules into the SDK typed errors', async () => {
    sim.faults.add(
      { model: 'auth', status: 401 },
      { model: 'pay', status: 402 },
      { model: 'rate', status: 429 },
      { model: 'over', status: 529 },
      { model: 'big', status: 413 },
    );
    const call = (model: string) => anthropic().messages.create({ ...ask, model });
    await assert.rejects(call('auth'), (e: unknown) => e instanceof Anthropic.AuthenticationError && e.type === 'authentication_error');
    await assert.rejects(call('pay'), (e: unknown) => e instanceof Anthropic.APIError && e.status === 402 && e.type === 'billing_error');
    await assert.rejects(call('rate'), Anthropic.RateLimitError);
    await assert.rejects(call('over'), (e: unknown) => e instanceof Anthropic.InternalServerError && e.type === 'overloaded_error');
    await assert.rejects(call('big'), (e: unknown) => e instanceof Anthropic.APIError && e.status === 413 && String(e.type) === 'request_too_large');
  });

  it('requires the version header and a key, like the vendor', async () => {
    const noVersion = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'k' }, body: JSON.stringify(ask) });
    assert.equal(noVersion.status, 400);
    const noKey = await fetch(`${sim.url}/anthropic/v1/messages`, { method: 'POST', body: JSON.stringify(ask) });
    assert.equal(noKey.status, 401);
    assert.deepEqual(await noKey.json(), {
      type: 'error',
      error: { type: 'authentication_error', message: 'No API key provided (simulated upstream).' },
    });
  });

  it('validates the body and names the field', async () => {
    await assert.rejects(
      anthropic().messages.create({ ...ask, max_tokens: 'many' as unknown as number }),
      (e: unknown) => e instanceof Anthropic.BadRequestError && /max_tokens/.test(e.message),
    );
  });
});

describe('sim speaks the generateContent wire (google genai SDK)', () => {
  const contents = 'Summarise the history of the printing press';

  it('answers non-streamed', async () => {
    const res = await gemini().models.generateContent({ model: 'gemini-2.5-flash', contents });
    assert.ok(res.text && res.text.includes('printing'));
    assert.equal(res.candidates![0].finishReason, 'STOP');
    assert.equal(res.modelVersion, 'gemini-2.5-flash');
    const u = res.usageMetadata!;
    assert.equal(u.totalTokenCount, u.promptTokenCount! + u.candidatesTokenCount!);
    assert.equal(sim.stats.last!.route, 'POST /v1beta/models/:model:generateContent');
    assert.equal(sim.stats.last!.headers['x-goog-api-key'], 'sim-key');
  });

  it('streams chunks whose text adds up to the same answer, usage on the last', async () => {
    const whole = await gemini().models.generateContent({ model: 'gemini-2.5-flash', contents });
    let text = '';
    let last;
    let n = 0;
    for await (const c of await gemini('/google').models.generateContentStream({ model: 'gemini-2.5-flash', contents })) {
      text += c.text ?? '';
      last = c;
      n++;
    }
    assert.ok(n > 3);
    assert.equal(text, whole.text);
    assert.equal(last!.candidates![0].finishReason, 'STOP');
    assert.deepEqual(last!.usageMetadata, whole.usageMetadata);
    assert.equal(sim.stats.lastByProvider.google!.route, 'POST /v1beta/models/:model:streamGenerateContent');
  });

  it('calls a function, streamed and not', async () => {
    const config = {
      tools: [{ functionDeclarations: [{ name: weatherTool.name, description: weatherTool.description, parametersJsonSchema: weatherTool.parameters }] }],
    };
    const req = { model: 'gemini-2.5-pro', contents: 'Run get_weather for Madrid now', config };
    const res = await gemini().models.generateContent(req);
    assert.deepEqual(res.functionCalls!.map((f) => [f.name, f.args]), [['get_weather', { city: 'Madrid', unit: 'celsius' }]]);
    const calls = [];
    for await (const c of await gemini().models.generateContentStream(req)) calls.push(...(c.functionCalls ?? []));
    assert.deepEqual(calls.map((f) => f.args), [{ city: 'Madrid', unit: 'celsius' }]);

    const reply = await gemini().models.generateContent({
      ...req,
      contents: [
        { role: 'user', parts: [{ text: 'Run get_weather for Madrid now' }] },
        { role: 'model', parts: [{ functionCall: res.functionCalls![0] }] },
        { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 30 } } }] },
      ],
    });
    assert.match(reply.text ?? '', /get_weather tool returned: \{"temp":30\}/);
  });

  it('answers JSON with responseSchema and respects maxOutputTokens', async () => {
    const res = await gemini().models.generateContent({
      model: 'gemini-2.5-flash',
      contents,
      config: {
        responseMimeType: 'application/json',
        responseSchema: { type: Type.OBJECT, properties: { title: { type: Type.STRING }, year: { type: Type.INTEGER } }, required: ['title', 'year'] },
      },
    });
    const v = JSON.parse(res.text!);
    assert.equal(typeof v.title, 'string');
    assert.equal(v.year, 42);
    const short = await gemini().models.generateContent({ model: 'gemini-2.5-flash', contents, config: { maxOutputTokens: 4 } });
    assert.equal(short.candidates![0].finishReason, 'MAX_TOKENS');
  });

  it('turns fault rules into ApiError with the status', async () => {
    sim.faults.add({ model: 'auth', status: 401 }, { model: 'rate', status: 429 }, { model: 'boom', status: 500 });
    for (const [model, status] of [['auth', 401], ['rate', 429], ['boom', 500]] as const) {
      await assert.rejects(gemini().models.generateContent({ model, contents }), (e: unknown) => e instanceof ApiError && e.status === status);
    }
    const r = await fetch(`${sim.url}/v1beta/models/x:generateContent`, { method: 'POST', body: JSON.stringify({ contents: [] }) });
    assert.equal(r.status, 401);
    assert.equal(((await r.json()) as { error: { status: string } }).error.status, 'UNAUTHENTICATED');
  });
});

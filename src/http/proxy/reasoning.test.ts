// Issue 23: thinking and reasoning carried end to end through Switchboard's translating routes.
// One simulated upstream; one gateway per provider (only that provider configured, so the route's
// translation is known): OpenAI answers Responses calls in the Responses API (reasoning items with
// summaries and encrypted_content, sent back on the next turn), Anthropic's thinking blocks and
// Gemini's thoughts reach clients of the other shapes in their own form, and a signature only goes
// back to the vendor that made it (the simulated vendors refuse a foreign one, as real ones do).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { startSim, type SimHandle } from '../../sim/index.ts';

let sim: SimHandle;
const servers: Record<'openai' | 'anthropic' | 'google', { srv: TestServer; key: string; tenantId: string }> = {} as never;

before(async () => {
  sim = await startSim({ port: 0, host: '127.0.0.1' });
  const limits = { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' };
  for (const p of ['openai', 'anthropic', 'google'] as const) {
    const up = p.toUpperCase();
    const srv = await startTestServer({ sim, env: { ...limits, [`${up}_BASE_URL`]: `${sim.url}/${p}`, [`${up}_API_KEY`]: 'sk-test' } });
    const t = await tenantWithKey(srv);
    servers[p] = { srv, key: t.key, tenantId: t.tenantId };
  }
});
after(async () => {
  for (const s of Object.values(servers)) await s.srv.close();
  await sim.close();
});

const openai = (p: keyof typeof servers, base = '/v1') => new OpenAI({ baseURL: servers[p].srv.url + base, apiKey: servers[p].key, maxRetries: 0 });
const anthropic = (p: keyof typeof servers) => new Anthropic({ baseURL: servers[p].srv.url, apiKey: servers[p].key, maxRetries: 0 });
const gemini = (p: keyof typeof servers) => new GoogleGenAI({ apiKey: servers[p].key, httpOptions: { baseUrl: `${servers[p].srv.url}/v1/generate`, timeout: 20_000 } });

/** The output tokens a call was billed for, from its call-log row (and that it reached the ledger). */
async function billedOutput(p: keyof typeof servers, callId: string | null): Promise<number> {
  assert.ok(callId, 'the answer names its call');
  const row = await servers[p].srv.services.db
    .selectFrom('call_logs')
    .select(['output_tokens', 'ledger_entry_id'])
    .where('tenant_id', '=', servers[p].tenantId)
    .where('id', '=', callId)
    .executeTakeFirstOrThrow();
  assert.ok(row.ledger_entry_id, 'the call is in the ledger');
  return row.output_tokens;
}

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
  strict: true,
};

describe('Responses API → OpenAI in the Responses API: reasoning items end to end', { timeout: 120_000 }, () => {
  for (const base of ['/v1', '/v1/chat-proxy/v1']) {
    test(`${base}: plain, a reasoning item with its summary and encrypted_content (include), billed as output`, async () => {
      sim.stats.reset();
      const { data, response } = await openai('openai', base)
        .responses.create({
          model: 'gpt-5.1',
          input: 'Compare two sorting algorithms.',
          reasoning: { effort: 'medium', summary: 'auto' },
          include: ['reasoning.encrypted_content'],
          store: false,
        })
        .withResponse();
      // The sim was spoken to in the Responses API, asked for reasoning and its encrypted form.
      assert.equal(sim.stats.last?.route, 'POST /v1/responses');
      const sent = sim.stats.last?.body as { reasoning?: unknown; include?: unknown; store?: unknown };
      assert.deepEqual(sent.reasoning, { effort: 'medium', summary: 'auto' });
      assert.deepEqual(sent.include, ['reasoning.encrypted_content']);
      assert.equal(data.output[0].type, 'reasoning');
      const item = data.output[0] as OpenAI.Responses.ResponseReasoningItem;
      assert.match(item.id, /^rs_/);
      assert.equal(item.summary[0].type, 'summary_text');
      assert.match(item.summary[0].text, /sorting algorithms/);
      assert.equal(typeof item.encrypted_content, 'string');
      assert.ok(item.encrypted_content!.length > 20);
      assert.equal(data.output[1].type, 'message');
      const reasoningTokens = data.usage!.output_tokens_details.reasoning_tokens;
      assert.ok(reasoningTokens > 0);
      assert.equal(await billedOutput('openai', response.headers.get('x-service-call-id')), data.usage!.output_tokens, 'reasoning billed as output');
    });
  }

  test('without include: the reasoning item carries no encrypted_content; without a summary asked, an empty summary', async () => {
    const r = await openai('openai').responses.create({ model: 'gpt-5.1', input: 'Compare two sorting algorithms.', reasoning: { effort: 'low' }, store: false });
    const item = r.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.equal(item.type, 'reasoning');
    assert.deepEqual(item.summary, []);
    assert.equal(item.encrypted_content, undefined);
  });

  test('streamed: reasoning item and summary events in the vendor order, encrypted_content on output_item.done', async () => {
    const s = openai('openai').responses.stream({
      model: 'gpt-5.1',
      input: 'Explain recursion briefly.',
      reasoning: { effort: 'high', summary: 'detailed' },
      include: ['reasoning.encrypted_content'],
    });
    const types: string[] = [];
    let summary = '';
    let doneItem: OpenAI.Responses.ResponseReasoningItem | undefined;
    for await (const ev of s) {
      types.push(ev.type);
      if (ev.type === 'response.reasoning_summary_text.delta') summary += ev.delta;
      if (ev.type === 'response.output_item.done' && ev.item.type === 'reasoning') doneItem = ev.item;
    }
    const final = await s.finalResponse();
    const at = (t: string) => types.indexOf(t);
    assert.ok(at('response.output_item.added') < at('response.reasoning_summary_part.added'));
    assert.ok(at('response.reasoning_summary_part.added') < at('response.reasoning_summary_text.delta'));
    assert.ok(at('response.reasoning_summary_text.done') < at('response.reasoning_summary_part.done'));
    assert.ok(at('response.reasoning_summary_part.done') < at('response.output_text.delta'));
    assert.match(summary, /recursion/);
    assert.ok(doneItem && typeof doneItem.encrypted_content === 'string' && doneItem.encrypted_content.length > 20);
    const item = final.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.equal(item.summary[0].text, summary);
    assert.equal(item.encrypted_content, doneItem!.encrypted_content);
    assert.ok(final.usage!.output_tokens_details.reasoning_tokens > 0);
  });

  test('a tool loop with store:false (as Codex runs it): the reasoning item goes back as an input item, to the vendor, as it came', async () => {
    const c = openai('openai');
    const first = await c.responses.create({
      model: 'gpt-5.1',
      input: 'Use the get_weather tool for Paris.',
      tools: [weather],
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    const reasoning = first.output.find((o) => o.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    assert.ok(reasoning && call, 'reasoning then a function call');
    sim.stats.reset();
    const second = await c.responses.create({
      model: 'gpt-5.1',
      input: [
        { role: 'user', content: 'Use the get_weather tool for Paris.' },
        reasoning,
        call,
        { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":21}' },
      ],
      tools: [weather],
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    assert.equal(second.status, 'completed');
    assert.match(second.output_text, /21/);
    const sent = (sim.stats.last?.body as { input: Array<Record<string, unknown>> }).input;
    const back = sent.find((i) => i.type === 'reasoning');
    assert.ok(back, 'the reasoning item went upstream');
    assert.equal(back.encrypted_content, reasoning.encrypted_content, 'unchanged');
    assert.deepEqual(back.summary, reasoning.summary);
  });

  test('previous_response_id: the stored response’s reasoning (encrypted, even if the client never saw it) goes back upstream', async () => {
    const c = openai('openai');
    const first = await c.responses.create({ model: 'gpt-5.1', input: 'Use the get_weather tool for Rome.', tools: [weather], reasoning: { effort: 'low' } });
    const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    assert.equal((first.output[0] as OpenAI.Responses.ResponseReasoningItem).encrypted_content, undefined, 'not shown without include');
    sim.stats.reset();
    const second = await c.responses.create({
      model: 'gpt-5.1',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":19}' }],
      tools: [weather],
      reasoning: { effort: 'low' },
    });
    assert.match(second.output_text, /19/);
    const sent = (sim.stats.last?.body as { input: Array<Record<string, unknown>> }).input;
    const back = sent.find((i) => i.type === 'reasoning');
    assert.ok(back && typeof back.encrypted_content === 'string' && back.encrypted_content !== '', 'the signature was kept with the stored response');
  });

  test('an input of only items nothing here keeps answers 400 naming input and the way through; reasoning plus a user turn is served', async () => {
    const c = openai('openai');
    await assert.rejects(
      c.responses.create({ model: 'gpt-5.1', input: [{ type: 'compaction', encrypted_content: 'gAAAA-opaque' }] }),
      (e: unknown) => e instanceof OpenAI.BadRequestError && /input/.test(e.message) && /previous_response_id/.test(e.message),
    );
    await assert.rejects(
      c.responses.create({ model: 'gpt-5.1', input: [{ type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'thinking' }] }] }),
      (e: unknown) => e instanceof OpenAI.BadRequestError && /nothing to answer/.test(e.message),
    );
    // A user message with no content parts is refused the same way, before any upstream call.
    await assert.rejects(
      c.responses.create({ model: 'gpt-5.1', input: [{ role: 'user', content: [] }] }),
      (e: unknown) => e instanceof OpenAI.BadRequestError && /input/.test(e.message) && !/Upstream/.test(e.message),
    );
    const ok = await c.responses.create({
      model: 'gpt-5.1',
      input: [
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Earlier thought.' }] },
        { type: 'compaction', encrypted_content: 'gAAAA-opaque' },
        { role: 'user', content: 'Say hello.' },
      ],
    });
    assert.equal(ok.status, 'completed');
  });
});

describe('thinking translated between shapes', { timeout: 120_000 }, () => {
  test('Responses client, Anthropic provider: the thinking block is a reasoning item; its signature comes back and goes to Anthropic as a thinking block', async () => {
    const c = openai('anthropic');
    sim.stats.reset();
    const first = await c.responses.create({
      model: 'gpt-5.1',
      input: 'Use the get_weather tool for Oslo.',
      tools: [weather],
      max_output_tokens: 8000,
      reasoning: { effort: 'medium', summary: 'auto' },
      include: ['reasoning.encrypted_content'],
      store: false,
    });
    assert.equal(sim.stats.last?.route, 'POST /v1/messages');
    assert.equal((sim.stats.last?.body as { thinking?: { type: string } }).thinking?.type, 'enabled');
    const reasoning = first.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.equal(reasoning.type, 'reasoning');
    assert.match(reasoning.summary[0].text, /Oslo/);
    assert.match(reasoning.encrypted_content!, /^sbr1\.anthropic\./, 'another vendor’s signature is marked with its origin');
    const call = first.output.find((o) => o.type === 'function_call') as OpenAI.Responses.ResponseFunctionToolCall;
    const second = await c.responses.create({
      model: 'gpt-5.1',
      input: [{ role: 'user', content: 'Use the get_weather tool for Oslo.' }, reasoning, call, { type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":4}' }],
      tools: [weather],
      max_output_tokens: 8000,
      reasoning: { effort: 'medium', summary: 'auto' },
      store: false,
    });
    assert.match(second.output_text, /4/);
    const msgs = (sim.stats.last?.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> | string }> }).messages;
    const assistant = msgs.find((m) => m.role === 'assistant')!;
    const blocks = assistant.content as Array<Record<string, unknown>>;
    assert.equal(blocks[0].type, 'thinking', 'the tool turn starts with its thinking, as Anthropic requires');
    assert.equal(blocks[0].thinking, reasoning.summary[0].text);
    assert.equal(`sbr1.anthropic.${String(blocks[0].signature)}`, reasoning.encrypted_content);
  });

  test('Anthropic client, Gemini provider: thoughts become a thinking block, plain and streamed; the signature is not sent to another vendor', async () => {
    const c = anthropic('google');
    const { data, response } = await c.messages
      .create({ model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'Why is the sky blue?' }] })
      .withResponse();
    assert.equal(data.content[0].type, 'thinking');
    const block = data.content[0] as Anthropic.ThinkingBlock;
    assert.match(block.thinking, /sky blue/);
    assert.match(block.signature, /^sbr1\.gemini\./);
    assert.equal(data.content[1].type, 'text');
    assert.equal(await billedOutput('google', response.headers.get('x-service-call-id')), data.usage.output_tokens, 'thoughts billed as output');

    const kinds: string[] = [];
    let thought = '';
    let signature = '';
    const stream = c.messages.stream({ model: 'claude-sonnet-4-6', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 2048 }, messages: [{ role: 'user', content: 'Explain tides briefly.' }] });
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') kinds.push(ev.content_block.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'thinking_delta') thought += ev.delta.thinking;
      if (ev.type === 'content_block_delta' && ev.delta.type === 'signature_delta') signature = ev.delta.signature;
    }
    assert.deepEqual(kinds, ['thinking', 'text']);
    assert.match(thought, /tides/);
    assert.match(signature, /^sbr1\.gemini\./);

    // Sent back through a gateway whose provider is Anthropic: not Anthropic's signature, so the
    // block is left out (Anthropic would refuse it) and the call is served.
    const next = await anthropic('anthropic').messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: 'Why is the sky blue?' },
        { role: 'assistant', content: data.content as Anthropic.ContentBlockParam[] },
        { role: 'user', content: 'And at sunset?' },
      ],
    });
    assert.equal(next.content[0].type, 'thinking');
    const sentMsgs = (sim.stats.last?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    assert.ok(!JSON.stringify(sentMsgs).includes('"thinking"'), 'no foreign thinking block went to Anthropic');
  });

  test('Gemini client, Anthropic provider: the thinking is a thought part with its (marked) signature; tokens billed', { timeout: 30_000 }, async () => {
    const c = gemini('anthropic');
    const r = await c.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Why do leaves change colour?', config: { thinkingConfig: { includeThoughts: true } } });
    const parts = r.candidates![0].content!.parts!;
    assert.equal(parts[0].thought, true);
    assert.match(parts[0].text!, /leaves change colour/);
    assert.match(parts[0].thoughtSignature!, /^sbr1\.anthropic\./);
    assert.match(r.text!, /leaves/);
    // Anthropic counts thinking inside output_tokens only: all of it is in candidatesTokenCount.
    assert.ok(r.usageMetadata!.candidatesTokenCount! > Math.ceil(r.text!.length / 4), 'the thinking is in the output billed');
  });

  test('chat completions client: the thinking is billed but the wire has no field for its text', { timeout: 30_000 }, async () => {
    const { data, response } = await openai('anthropic')
      .chat.completions.create({ model: 'gpt-5.1', reasoning_effort: 'high', max_completion_tokens: 8000, messages: [{ role: 'user', content: 'Why is the sky blue?' }] })
      .withResponse();
    assert.equal(data.choices[0].message.content?.includes('sky'), true);
    assert.ok(!('reasoning_content' in data.choices[0].message), 'no unofficial field');
    const billed = await billedOutput('anthropic', response.headers.get('x-service-call-id'));
    assert.equal(billed, data.usage!.completion_tokens);
    const textTokens = Math.ceil(data.choices[0].message.content!.length / 4);
    assert.ok(data.usage!.completion_tokens > textTokens, 'the thinking is in the output billed and reported');
  });
});

// Issue 23 item 6: the simulated upstream thinks when asked, in each vendor's own form, and the
// thinking reaches the client through Switchboard's vendor-prefixed proxies, plain and streamed,
// billed as output like the vendors bill it. Also: JSON answers satisfy a requested schema in every
// spelling the three shapes have.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

/** The call-log row of a call, the tokens it was billed for and that it reached the ledger. */
async function billed(callId: string | null) {
  assert.ok(callId, 'the answer names its call');
  const row = await srv.services.db
    .selectFrom('call_logs')
    .select(['output_tokens', 'input_tokens', 'ledger_entry_id', 'debited_micros'])
    .where('tenant_id', '=', t.tenantId)
    .where('id', '=', callId)
    .executeTakeFirstOrThrow();
  assert.ok(row.ledger_entry_id, 'the call is in the ledger');
  assert.ok(BigInt(row.debited_micros) > 0n, 'and was paid for');
  return row;
}

/** The ids of this tenant's calls so far. */
async function callIds(): Promise<Set<string>> {
  const rows = await srv.services.db.selectFrom('call_logs').select('id').where('tenant_id', '=', t.tenantId).execute();
  return new Set(rows.map((r) => r.id));
}
let known = new Set<string>();
/** The one call made since the last look (a stream's id is in headers the SDKs' iterators hide). */
async function newestCallId(): Promise<string> {
  const now = await callIds();
  const fresh = [...now].filter((id) => !known.has(id));
  known = now;
  assert.ok(fresh.length >= 1, 'a new call was logged');
  return fresh[fresh.length - 1];
}

const anthropic = () => new Anthropic({ baseURL: `${srv.url}/v1/messages-proxy`, apiKey: t.key, maxRetries: 0 });
const openai = (base = '/v1/chat-proxy/v1') => new OpenAI({ baseURL: srv.url + base, apiKey: t.key, maxRetries: 0 });
const gemini = (base = '/v1/generate-proxy') => new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: srv.url + base } });

describe('Anthropic thinking blocks through /v1/messages-proxy', () => {
  for (const thinking of [{ type: 'enabled', budget_tokens: 2048 }, { type: 'adaptive' }] as const) {
    test(`thinking ${thinking.type}: plain answer starts with a signed thinking block, billed as output`, async () => {
      const { data, response } = await anthropic()
        .messages.create({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: thinking as Anthropic.ThinkingConfigParam, messages: [{ role: 'user', content: 'Why is the sky blue?' }] })
        .withResponse();
      assert.equal(data.content[0].type, 'thinking');
      const block = data.content[0] as Anthropic.ThinkingBlock;
      assert.match(block.thinking, /Why is the sky blue/);
      assert.ok(block.signature.length > 20, 'signed');
      assert.equal(data.content[1].type, 'text');
      const row = await billed(response.headers.get('x-service-call-id'));
      assert.equal(row.output_tokens, data.usage.output_tokens, 'the output billed is what the vendor reported, thinking included');
      const textTokens = Math.ceil((data.content[1] as Anthropic.TextBlock).text.length / 4);
      assert.ok(data.usage.output_tokens > textTokens, 'thinking tokens are part of the output');
    });
  }

  test('streamed: thinking_delta and signature_delta events, then the text, billed as output', async () => {
    known = await callIds();
    const stream = anthropic().messages.stream({ model: 'claude-sonnet-4-5', max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: [{ role: 'user', content: 'Explain recursion briefly.' }] });
    const kinds: string[] = [];
    let thought = '';
    let signature = '';
    for await (const ev of stream) {
      if (ev.type === 'content_block_start') kinds.push(`start:${ev.content_block.type}`);
      if (ev.type === 'content_block_delta') {
        kinds.push(ev.delta.type);
        if (ev.delta.type === 'thinking_delta') thought += ev.delta.thinking;
        if (ev.delta.type === 'signature_delta') signature = ev.delta.signature;
      }
    }
    const final = await stream.finalMessage();
    assert.equal(kinds[0], 'start:thinking');
    assert.ok(kinds.indexOf('thinking_delta') < kinds.indexOf('signature_delta'));
    assert.ok(kinds.indexOf('signature_delta') < kinds.indexOf('start:text'));
    assert.match(thought, /Explain recursion/);
    assert.ok(signature.length > 20);
    assert.deepEqual(final.content[0], { type: 'thinking', thinking: thought, signature });
    const row = await billed(await newestCallId());
    assert.equal(row.output_tokens, final.usage.output_tokens);
  });

  test('no thinking asked, none given', async () => {
    const r = await anthropic().messages.create({ model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user', content: 'Hi there' }] });
    assert.equal(r.content[0].type, 'text');
  });
});

describe('Gemini thought parts through /v1/generate-proxy', () => {
  test('includeThoughts: a thought part first, thoughtsTokenCount reported and billed', async () => {
    known = await callIds();
    const r = await gemini().models.generateContent({ model: 'gemini-2.5-pro', contents: 'How do tides work?', config: { thinkingConfig: { includeThoughts: true, thinkingBudget: 512 } } });
    const parts = r.candidates![0].content!.parts!;
    assert.equal(parts[0].thought, true);
    assert.match(parts[0].text!, /tides/);
    assert.notEqual(parts[1].thought, true);
    const u = r.usageMetadata!;
    assert.ok(u.thoughtsTokenCount! > 0);
    const row = await billed(await newestCallId());
    assert.equal(row.output_tokens, u.candidatesTokenCount! + u.thoughtsTokenCount!, 'thoughts are billed as output');
  });

  test('streamed: the thought arrives in its own chunk before the answer', async () => {
    known = await callIds();
    const s = await gemini().models.generateContentStream({ model: 'gemini-2.5-pro', contents: 'How do tides work?', config: { thinkingConfig: { includeThoughts: true } } });
    const seen: Array<{ thought: boolean; text: string }> = [];
    let usage;
    for await (const ch of s) {
      for (const p of ch.candidates?.[0]?.content?.parts ?? []) if (p.text) seen.push({ thought: p.thought === true, text: p.text });
      if (ch.usageMetadata) usage = ch.usageMetadata;
    }
    assert.equal(seen[0].thought, true);
    assert.ok(seen.some((p) => !p.thought));
    assert.ok(seen.findIndex((p) => !p.thought) > seen.map((p) => p.thought).lastIndexOf(true), 'thoughts come first');
    const row = await billed(await newestCallId());
    assert.equal(row.output_tokens, usage!.candidatesTokenCount! + usage!.thoughtsTokenCount!);
  });

  test('a thinking budget without includeThoughts: tokens reported, no thought parts', async () => {
    const r = await gemini().models.generateContent({ model: 'gemini-2.5-pro', contents: 'How do tides work?', config: { thinkingConfig: { thinkingBudget: 256 } } });
    assert.ok(r.candidates![0].content!.parts!.every((p) => p.thought !== true));
    assert.ok(r.usageMetadata!.thoughtsTokenCount! > 0);
  });
});

describe('Chat Completions reasoning tokens through /v1/chat-proxy', () => {
  test('reasoning_effort: reasoning_tokens in the usage details, part of completion_tokens, plain and streamed', async () => {
    const { data, response } = await openai().chat.completions.create({ model: 'o4-mini', reasoning_effort: 'high', messages: [{ role: 'user', content: 'Plan a three-day trip to Lisbon.' }] }).withResponse();
    const details = data.usage!.completion_tokens_details!;
    assert.ok(details.reasoning_tokens! > 0);
    assert.ok(data.usage!.completion_tokens > details.reasoning_tokens!);
    const row = await billed(response.headers.get('x-service-call-id'));
    assert.equal(row.output_tokens, data.usage!.completion_tokens);

    known = await callIds();
    const s = await openai().chat.completions.create({ model: 'o4-mini', reasoning_effort: 'low', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'Plan a three-day trip to Lisbon.' }] });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const ch of s) if (ch.usage) usage = ch.usage;
    assert.ok(usage!.completion_tokens_details!.reasoning_tokens! > 0);
    assert.equal((await billed(await newestCallId())).output_tokens, usage!.completion_tokens);
  });
});

describe('Responses API reasoning items from the simulated upstream', () => {
  // Switchboard's Responses routes translate to the chat wire (no provider is configured as a
  // Responses upstream), so the sim's own /v1/responses is what is driven here.
  const sim = () => new OpenAI({ baseURL: `${srv.sim.url}/v1`, apiKey: 'sk-sim', maxRetries: 0 });

  test('plain: a reasoning item with its summary first, reasoning tokens in the usage', async () => {
    const r = await sim().responses.create({ model: 'o4-mini', input: 'Compare two sorting algorithms.', reasoning: { effort: 'medium', summary: 'auto' } });
    assert.equal(r.output[0].type, 'reasoning');
    const item = r.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.match(item.summary[0].text, /sorting algorithms/);
    assert.equal(r.output[1].type, 'message');
    assert.ok(r.usage!.output_tokens_details.reasoning_tokens > 0);
  });

  test('streamed: reasoning summary events before the text', async () => {
    const s = sim().responses.stream({ model: 'o4-mini', input: 'Compare two sorting algorithms.', reasoning: { effort: 'medium', summary: 'detailed' } });
    const types: string[] = [];
    for await (const ev of s) types.push(ev.type);
    const final = await s.finalResponse();
    assert.ok(types.indexOf('response.reasoning_summary_text.delta') > 0);
    assert.ok(types.indexOf('response.reasoning_summary_part.done') < types.indexOf('response.output_text.delta'));
    assert.equal(final.output[0].type, 'reasoning');
    assert.ok(final.usage!.output_tokens_details.reasoning_tokens > 0);
  });

  test('reasoning without a summary: the item is there, its summary empty', async () => {
    const r = await sim().responses.create({ model: 'o4-mini', input: 'Compare two sorting algorithms.', reasoning: { effort: 'low' } });
    assert.equal(r.output[0].type, 'reasoning');
    assert.deepEqual((r.output[0] as OpenAI.Responses.ResponseReasoningItem).summary, []);
  });
});

describe('JSON answers satisfy the requested schema in every spelling', () => {
  const schema = { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city', 'days'], additionalProperties: false };
  const check = (text: string) => {
    const v = JSON.parse(text) as { city: unknown; days: unknown };
    assert.equal(typeof v.city, 'string');
    assert.ok(Number.isInteger(v.days) && (v.days as number) >= 1);
  };

  test('chat response_format json_schema (both routes)', async () => {
    for (const base of ['/v1/chat-proxy/v1', '/v1']) {
      const r = await openai(base).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Plan a trip.' }], response_format: { type: 'json_schema', json_schema: { name: 'trip', schema, strict: true } } });
      check(r.choices[0].message.content!);
    }
  });

  test('Responses text.format json_schema', async () => {
    const r = await openai('/v1').responses.create({ model: 'gpt-4o', input: 'Plan a trip.', text: { format: { type: 'json_schema', name: 'trip', schema, strict: true } } });
    check(r.output_text);
  });

  test('Anthropic output_config.format (both routes)', async () => {
    for (const base of ['/v1/messages-proxy', '']) {
      const c = new Anthropic({ baseURL: srv.url + base, apiKey: t.key, maxRetries: 0 });
      const r = await c.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, messages: [{ role: 'user', content: 'Plan a trip.' }], output_config: { format: { type: 'json_schema', schema } } });
      check((r.content.find((b) => b.type === 'text') as Anthropic.TextBlock).text);
    }
  });

  test('Gemini responseJsonSchema and responseSchema (both routes)', async () => {
    for (const base of ['/v1/generate-proxy', '/v1/generate']) {
      const a = await gemini(base).models.generateContent({ model: 'gemini-2.5-flash', contents: 'Plan a trip.', config: { responseMimeType: 'application/json', responseJsonSchema: schema } });
      check(a.text!);
      const b = await gemini(base).models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'Plan a trip.',
        config: { responseMimeType: 'application/json', responseSchema: { type: Type.OBJECT, properties: { city: { type: Type.STRING }, days: { type: Type.INTEGER, minimum: 1 } }, required: ['city', 'days'] } },
      });
      check(b.text!);
    }
  });
});

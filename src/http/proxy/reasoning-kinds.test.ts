// D19, session 9: two kinds of thinking the translating routes lost.
// - Anthropic `redacted_thinking` blocks (encrypted thinking, no text) that a client sends back in
//   its assistant turn (Claude Code does in tool loops) reach an Anthropic provider as they came,
//   beside the signed `thinking` block, and are dropped cleanly (200, nothing of them upstream) for
//   a provider of another wire.
//   An Anthropic answer's own `redacted_thinking` reaches an Anthropic client, plain and streamed.
// - DeepSeek's `reasoning_content` (its reasoning models' thinking, plain and streamed, a field
//   OpenAI's chat wire does not have) is read, and reaches clients of the other shapes as thinking.
// One simulated upstream; one gateway per provider (only that provider configured, so the target
// is known). The official SDKs drive the gateways.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { startSim, type SimHandle } from '../../sim/index.ts';
import { REDACTED_THINKING_TRIGGER } from '../../sim/answer.ts';

type Target = 'anthropic' | 'openai' | 'google' | 'deepseek';
let sim: SimHandle;
const servers = {} as Record<Target, { srv: TestServer; key: string; token: string; projectId: string }>;

before(async () => {
  sim = await startSim({ port: 0, host: '127.0.0.1' });
  const limits = { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' };
  for (const p of ['anthropic', 'openai', 'google', 'deepseek'] as const) {
    const up = p.toUpperCase();
    const srv = await startTestServer({ sim, env: { ...limits, [`${up}_BASE_URL`]: `${sim.url}/${p}`, [`${up}_API_KEY`]: 'sk-test' } });
    const t = await tenantWithKey(srv);
    servers[p] = { srv, key: t.key, token: t.accessToken, projectId: t.defaultProjectId };
  }
});
after(async () => {
  for (const s of Object.values(servers)) await s.srv.close();
  await sim.close();
});

const anthropic = (p: Target) => new Anthropic({ baseURL: servers[p].srv.url, apiKey: servers[p].key, maxRetries: 0 });

const weather: Anthropic.Tool = { name: 'get_weather', description: 'Current weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
/** Encrypted thinking as the (simulated) Anthropic vendor makes it: opaque, naming its maker. */
const redacted: Anthropic.RedactedThinkingBlockParam = { type: 'redacted_thinking', data: Buffer.from('sim:anthropic:redacted thinking, encrypted by the vendor').toString('base64') };

describe('redacted_thinking in a tool loop', { timeout: 120_000 }, () => {
  /** Turn 1 through the Anthropic gateway (signed thinking), then the tool loop's turn 2 as Claude Code sends it. */
  const toolLoop = async (p: Target) => {
    const first = await anthropic('anthropic').messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weather],
      messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
    });
    const thinking = first.content.find((b): b is Anthropic.ThinkingBlock => b.type === 'thinking');
    assert.ok(thinking && thinking.signature.length > 20, 'turn 1 thought, signed');
    const assistant: Anthropic.ContentBlockParam[] = [
      { type: 'thinking', thinking: thinking.thinking, signature: thinking.signature },
      redacted,
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'get_weather', input: { city: 'Paris' } },
    ];
    sim.stats.reset();
    const second = await anthropic(p).messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [weather],
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        { role: 'assistant', content: assistant },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A09q90qw90lq917835lq9', content: '18 °C, light rain' }] },
      ],
    });
    assert.equal(sim.stats.total, 1, 'one upstream call');
    return { sent: sim.stats.last!.body as Record<string, unknown>, assistant, second };
  };

  test('to an Anthropic provider: the thinking and redacted_thinking blocks go as they came, in order', async () => {
    const { sent, assistant, second } = await toolLoop('anthropic');
    assert.equal(second.type, 'message');
    const messages = sent.messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    assert.equal(messages[1].role, 'assistant');
    assert.deepEqual(messages[1].content.slice(0, 2), assistant.slice(0, 2), 'both blocks unchanged, before the tool call');
    assert.equal(messages[1].content[2].type, 'tool_use');
    assert.deepEqual(sent.thinking, { type: 'enabled', budget_tokens: 2048 }, 'still thinking in the loop (its turn starts with its own signed thinking)');
  });

  for (const p of ['openai', 'google', 'deepseek'] as const) {
    test(`to a ${p} provider: dropped cleanly, 200, none of the encrypted data upstream`, async () => {
      const { sent, second } = await toolLoop(p);
      assert.equal(second.type, 'message');
      assert.ok(second.content.length > 0);
      assert.ok(!JSON.stringify(sent).includes(redacted.data), 'the redacted data never leaves for another vendor');
    });
  }
});

describe('redacted_thinking in an Anthropic answer reaches an Anthropic client', { timeout: 120_000 }, () => {
  // Anthropic's documented test trigger makes the (simulated) vendor answer with encrypted thinking.
  const asked: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'claude-sonnet-4-5',
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: `${REDACTED_THINKING_TRIGGER} What is 6 times 7?` }],
  };
  const isVendors = (data: string) => Buffer.from(data, 'base64').toString('utf8').startsWith('sim:anthropic:');

  test('plain and streamed: thinking, then the redacted_thinking block as the vendor sent it, then the text; sent back unchanged', async () => {
    const plain = await anthropic('anthropic').messages.create(asked);
    assert.deepEqual(plain.content.map((b) => b.type), ['thinking', 'redacted_thinking', 'text']);
    const block = plain.content[1] as Anthropic.RedactedThinkingBlock;
    assert.ok(isVendors(block.data), 'the vendor’s own encrypted data');

    const kinds: string[] = [];
    const stream = anthropic('anthropic').messages.stream(asked);
    for await (const ev of stream) if (ev.type === 'content_block_start') kinds.push(ev.content_block.type);
    assert.deepEqual(kinds, ['thinking', 'redacted_thinking', 'text']);
    const final = await stream.finalMessage();
    assert.equal((final.content[1] as Anthropic.RedactedThinkingBlock).data, block.data, 'the same encrypted thinking, plain or streamed');

    // The next turn sends the assistant turn back as it came: the vendor gets the blocks unchanged.
    sim.stats.reset();
    const again = await anthropic('anthropic').messages.create({
      ...asked,
      messages: [...asked.messages, { role: 'assistant', content: plain.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: 'And 7 times 8?' }],
    });
    assert.equal(again.type, 'message');
    const sent = (sim.stats.last!.body as { messages: Array<{ content: Array<Record<string, unknown>> }> }).messages[1].content;
    assert.deepEqual(sent[1], { type: 'redacted_thinking', data: block.data });
  });
});

describe('DeepSeek reasoning_content reaches the other shapes as thinking', { timeout: 120_000 }, () => {
  before(async () => {
    // A strict floor routes math to DeepSeek's reasoning models (premium and frontier rungs).
    const s = servers.deepseek;
    assert.equal((await s.srv.api('PATCH', `/api/projects/${s.projectId}`, { token: s.token, body: { qualityFloor: 0.95 } })).status, 200);
  });
  const asked: Anthropic.MessageCreateParamsNonStreaming = {
    model: 'claude-sonnet-4-5',
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 1024 },
    messages: [{ role: 'user', content: 'Prove that the square root of 2 is irrational.' }],
  };

  test('plain: an Anthropic client gets a thinking block with DeepSeek’s reasoning', async () => {
    sim.stats.reset();
    const r = await anthropic('deepseek').messages.create(asked);
    const call = sim.stats.last!;
    assert.equal(call.provider, 'deepseek');
    assert.match(call.model, /^deepseek-reasoner/);
    assert.equal(r.content[0].type, 'thinking');
    const block = r.content[0] as Anthropic.ThinkingBlock;
    assert.match(block.thinking, /square root of 2/, 'the reasoning DeepSeek returned');
    assert.equal(block.signature, '', 'unsigned: DeepSeek signs nothing');
    assert.equal(r.content[1].type, 'text');
  });

  test('streamed: thinking_delta events carry it, before the text', async () => {
    const kinds: string[] = [];
    let thought = '';
    for await (const ev of anthropic('deepseek').messages.stream(asked)) {
      if (ev.type === 'content_block_start') kinds.push(ev.content_block.type);
      if (ev.type === 'content_block_delta' && ev.delta.type === 'thinking_delta') thought += ev.delta.thinking;
    }
    assert.deepEqual(kinds, ['thinking', 'text']);
    assert.match(thought, /square root of 2/);
  });

  test('a Responses API client asking for a reasoning summary gets a reasoning item', async () => {
    const c = new OpenAI({ baseURL: `${servers.deepseek.srv.url}/v1`, apiKey: servers.deepseek.key, maxRetries: 0 });
    const r = await c.responses.create({ model: 'gpt-5.1', input: 'Prove that there are infinitely many primes.', reasoning: { effort: 'medium', summary: 'auto' }, store: false });
    assert.equal(r.output[0].type, 'reasoning');
    const item = r.output[0] as OpenAI.Responses.ResponseReasoningItem;
    assert.match(item.summary[0]?.text ?? '', /infinitely many primes/);
    assert.equal(item.encrypted_content ?? undefined, undefined, 'DeepSeek signs nothing');
  });

  test('a Gemini client with includeThoughts gets a thought part', async () => {
    const c = new GoogleGenAI({ apiKey: servers.deepseek.key, httpOptions: { baseUrl: `${servers.deepseek.srv.url}/v1/generate`, timeout: 20_000 } });
    const r = await c.models.generateContent({ model: 'gemini-2.5-flash', contents: 'Solve the equation 3x + 5 = 20 for x, step by step.', config: { thinkingConfig: { includeThoughts: true } } });
    const parts = r.candidates![0].content!.parts!;
    assert.equal(parts[0].thought, true);
    assert.match(parts[0].text!, /3x \+ 5 = 20/);
    assert.equal(parts[0].thoughtSignature, undefined);
    assert.ok(r.usageMetadata!.thoughtsTokenCount! > 0, 'DeepSeek’s reasoning tokens are reported');
  });
});

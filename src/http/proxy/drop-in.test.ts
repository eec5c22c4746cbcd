// D19 drop-in details the coding agents rely on: Claude Code's request shape on both messages
// routes (pass-through of beta headers, query and fields on the vendor-prefixed one), the token
// counter, Gemini CLI's JSON-schema spelling, and the 402 for a huge max_tokens that says what
// the wallet can afford on the class the engine chose.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const BETAS = 'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27';

/** A turn as Claude Code 2.1 sends it. */
const claudeCodeBody = (stream: boolean) => ({
  model: 'claude-opus-5-5',
  max_tokens: 128000,
  stream,
  system: [
    { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.330;' },
    { type: 'text', text: 'You are a Claude agent.', cache_control: { type: 'ephemeral' } },
  ],
  messages: [
    { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nSome context.\n</system-reminder>' }, { type: 'text', text: 'Say hello in five words.' }] },
    { role: 'system', content: [{ type: 'text', text: '# Environment\nPlatform: linux', cache_control: { type: 'ephemeral' } }], output_config: { effort: 'medium' } },
  ],
  tools: [{ name: 'Write', description: 'Write a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } }, required: ['file_path', 'content'] } }],
  metadata: { user_id: '{"device_id":"d"}' },
  thinking: { type: 'adaptive' },
  context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
  output_config: { effort: 'medium' },
});

describe("Claude Code's request shape", () => {
  for (const [name, prefix] of [['generic', ''], ['vendor-prefixed', '/v1/messages-proxy']] as const) {
    test(`${name}: /v1/messages?beta=true answers, plain and streamed`, async () => {
      for (const stream of [false, true]) {
        const res = await fetch(`${srv.url}${prefix}/v1/messages?beta=true`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': t.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETAS },
          body: JSON.stringify(claudeCodeBody(stream)),
        });
        const text = await res.text();
        assert.equal(res.status, 200, text);
        if (stream) assert.match(text, /"type":"text_delta","text":"Here is a simulated [\s\S]*event: message_stop/);
        else {
          // Thinking was asked for (adaptive): the answer's text block follows the thinking block.
          const blocks = (JSON.parse(text) as { content: Array<{ type: string; text: string }> }).content;
          assert.match(blocks.find((b) => b.type === 'text')!.text, /^Here is a simulated answer to "Say hello in five words"/);
        }
      }
    });
  }

  test('the vendor-prefixed proxy passes body fields, the query and the beta header through untouched; the generic one translates', async () => {
    const send = (path: string) =>
      fetch(srv.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': t.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': BETAS },
        body: JSON.stringify(claudeCodeBody(false)),
      });
    assert.equal((await send('/v1/messages-proxy/v1/messages?beta=true')).status, 200);
    const piped = srv.sim.stats.lastByProvider.anthropic!;
    const body = piped.body as Record<string, unknown>;
    assert.equal(piped.headers['anthropic-beta'], BETAS);
    assert.equal(piped.search, '?beta=true');
    assert.deepEqual(body.context_management, claudeCodeBody(false).context_management);
    assert.deepEqual(body.thinking, { type: 'adaptive' });
    assert.equal((body.messages as unknown[]).length, 2, 'the system turn went as it came');
    assert.notEqual(body.model, 'claude-opus-5-5', 'only the model is the engine’s choice');

    const before = srv.sim.stats.total;
    assert.equal((await send('/v1/messages?beta=true')).status, 200);
    assert.equal(srv.sim.stats.total, before + 1);
    const translated = srv.sim.stats.last!;
    assert.equal(JSON.stringify(translated.body).includes('clear_thinking'), false, 'context_management has no equivalent: dropped');
    assert.match(JSON.stringify(translated.body), /Platform: linux/, 'the system turn joined the system text');
  });
});

describe('POST /v1/messages/count_tokens', () => {
  for (const [name, base] of [['generic', ''], ['vendor-prefixed', '/v1/messages-proxy']] as const) {
    test(`${name}: the Anthropic SDK's countTokens gets {input_tokens}, more for a longer prompt`, async () => {
      const c = new Anthropic({ baseURL: srv.url + base, apiKey: t.key, maxRetries: 0 });
      const short = await c.messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hi' }] });
      const long = await c.messages.countTokens({
        model: 'claude-sonnet-4-5',
        system: 'You are terse.',
        messages: [{ role: 'user', content: 'Explain the water cycle in detail, with evaporation, condensation and precipitation.' }],
      });
      assert.ok(short.input_tokens > 0);
      assert.ok(long.input_tokens > short.input_tokens);
      await assert.rejects(new Anthropic({ baseURL: srv.url + base, apiKey: 'svc_dev_nope', maxRetries: 0 }).messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'x' }] }), Anthropic.AuthenticationError);
      await assert.rejects(c.messages.countTokens({ model: 'm', messages: [] }), Anthropic.BadRequestError);
    });
  }
});

describe("Gemini CLI's JSON router request", () => {
  for (const [name, base] of [['generic', '/v1/generate'], ['vendor-prefixed', '/v1/generate-proxy']] as const) {
    test(`${name}: responseJsonSchema with upper-case types gets an object of that schema`, async () => {
      const g = new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: srv.url + base } });
      const r = await g.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'Score the complexity of: say hello.',
        config: {
          responseMimeType: 'application/json',
          responseJsonSchema: {
            type: 'OBJECT',
            properties: { complexity_reasoning: { type: 'STRING' }, complexity_score: { type: 'INTEGER' } },
            required: ['complexity_reasoning', 'complexity_score'],
          },
        },
      });
      const v = JSON.parse(r.text!) as { complexity_reasoning: unknown; complexity_score: unknown };
      assert.equal(typeof v.complexity_reasoning, 'string');
      assert.ok(Number.isInteger(v.complexity_score));
    });
  }
});

describe('402 for a huge max_tokens', () => {
  test('judged on the chosen class, it says what the wallet affords; that max_tokens goes through', async () => {
    // 400 micros: below the worst case of 128,000 tokens on every economy endpoint, whichever the
    // failover list holds at the time (the cheapest caps output at 8,192 tokens for 819 micros),
    // and above 64 output tokens on the dearest one (256 micros).
    const poor = await tenantWithKey(srv, { micros: 400n });
    const c = new Anthropic({ baseURL: srv.url, apiKey: poor.key, maxRetries: 0 });
    // An explicit timeout: the SDK otherwise insists on streaming for so large a max_tokens.
    const ask = (max_tokens: number) => c.messages.create({ model: 'claude-opus-5-5', max_tokens, messages: [{ role: 'user', content: 'Say hello.' }] }, { timeout: 60_000 });
    const e = await ask(128_000).then(
      () => null,
      (x: unknown) => x,
    );
    assert.ok(e instanceof Anthropic.APIError, String(e));
    assert.equal(e.status, 402);
    const m = /max_tokens of 128000 on the (\w+) model class .*can afford about (\d+) output tokens\. Send a lower max_tokens \(\d+ or less\), or top up at (\S+)\/billing/.exec(e.message);
    assert.ok(m, e.message);
    assert.equal(m[3], srv.services.publicUrl);
    const affordable = Number(m[2]);
    assert.ok(affordable > 0 && affordable < 128_000);
    const ok = await ask(Math.min(affordable, 64));
    assert.equal(ok.type, 'message');
  });
});

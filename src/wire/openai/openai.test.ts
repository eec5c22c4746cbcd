// The chat-completions wire on its own: the exact SSE frames it writes, the provider variants its
// decoder must survive, its error bodies and its request validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalRequest, StreamEvent } from '../../core/canonical/types.ts';
import { parseSse } from '../sse.ts';
import { openaiWire } from './index.ts';

const req = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({ shape: 'openai', model: 'my-model', messages: [], stream: true, ...over });
const frames = (sse: string) => parseSse(sse).map((r) => (r.data === '[DONE]' ? '[DONE]' : JSON.parse(r.data)));
const decode = (sse: string): StreamEvent[] => {
  const d = openaiWire.createStreamDecoder();
  return [...parseSse(sse).flatMap((r) => d.push(r)), ...d.end()];
};

describe('chat-completions stream encoder', () => {
  it('writes role, content deltas, finish, usage (when asked) and [DONE]', () => {
    const enc = openaiWire.createStreamEncoder(req({ includeUsage: true }));
    const sse = [
      { type: 'start', id: 'abc', model: 'up', inputTokens: 9 },
      { type: 'text_delta', index: 0, text: 'Hi' },
      { type: 'text_delta', index: 0, text: ' there' },
      { type: 'block_end', index: 0 },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 9, outputTokens: 2 } },
    ]
      .map((e) => enc.encode(e as StreamEvent))
      .join('');
    assert.ok(sse.endsWith('data: [DONE]\n\n'));
    const f = frames(sse);
    const created = f[0].created;
    assert.equal(typeof created, 'number');
    const base = { id: 'chatcmpl-abc', object: 'chat.completion.chunk', created, model: 'my-model', service_tier: 'default', system_fingerprint: null };
    const choice = (delta: object, finish_reason: string | null = null) => [{ index: 0, delta, logprobs: null, finish_reason }];
    assert.deepEqual(f, [
      { ...base, choices: choice({ role: 'assistant', content: '', refusal: null }), usage: null },
      { ...base, choices: choice({ content: 'Hi' }), usage: null },
      { ...base, choices: choice({ content: ' there' }), usage: null },
      { ...base, choices: choice({}, 'stop'), usage: null },
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 9,
          completion_tokens: 2,
          total_tokens: 11,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        },
      },
      '[DONE]',
    ]);
  });

  it('numbers tool calls among tool calls only: id, type and name first, then argument fragments', () => {
    const enc = openaiWire.createStreamEncoder(req());
    const f = frames(
      [
        { type: 'start', id: 'x', model: 'up' },
        { type: 'text_delta', index: 0, text: 'ok' },
        { type: 'block_end', index: 0 },
        { type: 'tool_call_start', index: 1, id: 'call_1', name: 'f' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"a"' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: ':1}' },
        { type: 'tool_call_start', index: 2, id: 'call_2', name: 'g' },
        { type: 'finish', finishReason: 'tool_calls' },
      ]
        .map((e) => enc.encode(e as StreamEvent))
        .join(''),
    );
    assert.ok(f.every((c) => c === '[DONE]' || !('usage' in c)), 'no usage fields unless include_usage');
    assert.deepEqual(
      f.slice(2, 6).map((c) => c.choices[0].delta),
      [
        { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '' } }] },
        { tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] },
        { tool_calls: [{ index: 0, function: { arguments: ':1}' } }] },
        { tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'g', arguments: '' } }] },
      ],
    );
    assert.equal(f[6].choices[0].finish_reason, 'tool_calls');
    assert.equal(f[7], '[DONE]');
  });

  it('writes a mid-stream error as an error frame and stops', () => {
    const enc = openaiWire.createStreamEncoder(req());
    enc.encode({ type: 'start', id: 'x', model: 'm' });
    const out = enc.encode({ type: 'error', message: 'upstream broke', status: 502, code: 'upstream_error' });
    assert.deepEqual(frames(out), [{ error: { message: 'upstream broke', type: 'server_error', param: null, code: 'upstream_error' } }]);
    assert.equal(enc.encode({ type: 'finish', finishReason: 'stop' }), '');
  });
});

describe('chat-completions stream decoder', () => {
  it('takes usage from the finish chunk itself (providers that do so) and needs no [DONE]', () => {
    const sse =
      'data: {"id":"m1","model":"other-model","choices":[{"index":0,"delta":{"role":"assistant","content":"Bon"}}]}\n\n' +
      'data: {"id":"m1","choices":[{"index":0,"delta":{"content":"jour"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}\n\n';
    assert.deepEqual(decode(sse), [
      { type: 'start', id: 'm1', model: 'other-model' },
      { type: 'text_delta', index: 0, text: 'Bon' },
      { type: 'text_delta', index: 0, text: 'jour' },
      { type: 'block_end', index: 0 },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 5, outputTokens: 2 } },
    ]);
  });

  it('skips comments, empty-choice chunks and other choices; whole arguments in one chunk work', () => {
    const sse =
      ': keep-alive\n\n' +
      'data: {"id":"c","model":"m","choices":[]}\n\n' +
      'data: {"id":"c","choices":[{"index":1,"delta":{"content":"other"}}]}\n\n' +
      'data: {"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t1","type":"function","function":{"name":"f","arguments":"{\\"x\\":1}"}}]}}]}\n\n' +
      'data: {"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\n' +
      'data: {"id":"c","choices":[],"usage":{"prompt_tokens":3,"completion_tokens":4,"prompt_tokens_details":{"cached_tokens":2}}}\n\n' +
      'data: [DONE]\n\n';
    assert.deepEqual(decode(sse), [
      { type: 'start', id: 'c', model: 'm' },
      { type: 'tool_call_start', index: 0, id: 't1', name: 'f' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'block_end', index: 0 },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 3, outputTokens: 4, cachedInputTokens: 2 } },
    ]);
  });

  it('reports an error frame, and a stream cut before its finish', () => {
    assert.deepEqual(decode('data: {"error":{"message":"boom","code":"server_error"}}\n\n'), [
      { type: 'error', message: 'boom', code: 'server_error' },
    ]);
    const cut = decode('data: {"id":"c","model":"m","choices":[{"index":0,"delta":{"content":"par"}}]}\n\n');
    assert.equal(cut[cut.length - 1].type, 'error');
  });

  it('recognises the terminal frame and usage records', () => {
    assert.equal(openaiWire.isTerminal({ data: '[DONE]' }), true);
    assert.equal(openaiWire.isTerminal({ data: '{"choices":[]}' }), false);
    assert.deepEqual(openaiWire.usageFromRecord({ data: '{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens":2}}' }), {
      inputTokens: 1,
      outputTokens: 2,
    });
    assert.equal(openaiWire.usageFromRecord({ data: '{"choices":[],"usage":null}' }), undefined);
  });
});

describe('chat-completions requests and errors', () => {
  it('names the bad field', () => {
    const cases: Array<[unknown, string]> = [
      [null, 'body'],
      [{ messages: [] }, 'model'],
      [{ model: 'm', messages: [] }, 'messages'],
      [{ model: 'm', messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role'],
      [{ model: 'm', messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].tool_call_id'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], temperature: 3 }, 'temperature'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], max_tokens: 1.5 }, 'max_tokens'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], stop: [1] }, 'stop[0]'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], tools: [{ type: 'function' }] }, 'tools[0].function'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], tool_choice: 'sometimes' }, 'tool_choice'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'yaml' } }, 'response_format.type'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], n: 0 }, 'n'],
      [{ model: 'm', messages: [{ role: 'user', content: 'x' }], stream_options: { include_usage: 'yes' } }, 'stream_options.include_usage'],
    ];
    for (const [body, field] of cases) {
      const r = openaiWire.parseRequest(body);
      assert.equal(r.ok, false, JSON.stringify(body));
      if (!r.ok) {
        assert.equal(r.field, field, r.message);
        assert.equal(r.code, 'invalid_request');
        assert.ok(r.message.includes(`'${field}'`), r.message);
      }
    }
  });

  it('accepts what the vendor accepts and has no equivalent for, dropping it (D19)', () => {
    const r = openaiWire.parseRequest({
      model: 'm',
      n: 3,
      functions: [{ name: 'f', parameters: {} }],
      function_call: 'auto',
      tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [] } },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'input_audio', input_audio: { data: 'AA==', format: 'wav' } }, { type: 'file', file: { file_id: 'f1' } }] },
        { role: 'assistant', content: null, function_call: { name: 'f', arguments: '{}' }, audio: { id: 'a1' }, tool_calls: [{ id: 'c', type: 'custom', custom: { name: 'x', input: 'y' } }] },
        { role: 'function', name: 'f', content: 'r' },
        { role: 'user', content: 'again' },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.value.candidates, 3);
    assert.equal(r.value.toolChoice, 'auto');
    assert.deepEqual(r.value.messages[0].content, [{ type: 'text', text: 'hi' }]);
    assert.deepEqual(r.value.messages.map((m) => m.role), ['user', 'assistant', 'user']);
  });

  it('uses the configured output-cap field and can skip usage frames (dialects)', () => {
    const r = req({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], maxTokens: 10 });
    const a = openaiWire.buildUpstreamRequest(r, 'm', { maxTokensField: 'max_completion_tokens', streamUsage: false });
    assert.equal(a.body.max_completion_tokens, 10);
    assert.equal('max_tokens' in a.body, false);
    assert.equal('stream_options' in a.body, false);
    assert.deepEqual(openaiWire.buildUpstreamRequest(r, 'm').body.stream_options, { include_usage: true });
    assert.deepEqual(openaiWire.authHeaders('k'), { authorization: 'Bearer k' });
  });

  it('renders native error bodies by status', () => {
    assert.deepEqual(openaiWire.renderError(401, 'invalid_api_key', 'bad key'), {
      error: { message: 'bad key', type: 'authentication_error', param: null, code: 'invalid_api_key' },
    });
    assert.deepEqual(openaiWire.renderError(400, 'invalid_request', 'x', 'messages'), {
      error: { message: 'x', type: 'invalid_request_error', param: 'messages', code: 'invalid_request' },
    });
    const types = [402, 429, 502, 503].map((s) => (openaiWire.renderError(s, 'c', 'm').error as { type: string }).type);
    assert.deepEqual(types, ['insufficient_quota', 'rate_limit_error', 'server_error', 'server_error']);
  });

  it('renders content null beside tool calls, and reads refusals as filtered text', () => {
    const body = openaiWire.renderResponse(
      { id: 'chatcmpl-1', model: 'm', content: [{ type: 'tool_call', id: 'c', name: 'f', arguments: '{}' }], finishReason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 1 } },
      req(),
    ) as { id: string; choices: Array<{ message: { content: unknown } }> };
    assert.equal(body.id, 'chatcmpl-1');
    assert.equal(body.choices[0].message.content, null);
    const r = openaiWire.parseUpstreamResponse({ id: 'x', model: 'm', choices: [{ message: { content: null, refusal: 'No.' }, finish_reason: 'stop' }] });
    assert.ok(r.ok);
    assert.deepEqual([r.value.content, r.value.finishReason], [[{ type: 'text', text: 'No.' }], 'content_filter']);
    assert.equal(openaiWire.parseUpstreamResponse({ choices: [] }).ok, false);
  });
});

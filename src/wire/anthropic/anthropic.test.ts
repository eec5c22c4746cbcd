// The messages wire on its own: the exact named-event sequence it writes, the real event types its
// decoder must survive (ping, thinking blocks, error events), its errors and validation.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalRequest, StreamEvent } from '../../core/canonical/types.ts';
import { parseSse } from '../sse.ts';
import { anthropicWire } from './index.ts';

const req = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({ shape: 'anthropic', model: 'my-model', messages: [], stream: true, ...over });
const decode = (sse: string): StreamEvent[] => {
  const d = anthropicWire.createStreamDecoder();
  return [...parseSse(sse).flatMap((r) => d.push(r)), ...d.end()];
};

describe('messages stream encoder', () => {
  it('writes the vendor sequence with dense block indices, ping after the first block, cumulative usage', () => {
    const enc = anthropicWire.createStreamEncoder(req());
    const sse = (
      [
        { type: 'start', id: 'chatcmpl-abc', model: 'up', inputTokens: 20 },
        { type: 'text_delta', index: 0, text: 'Let me ' },
        { type: 'text_delta', index: 0, text: 'check.' },
        { type: 'block_end', index: 0 },
        { type: 'tool_call_start', index: 3, id: 'call.1', name: 'get_weather' },
        { type: 'tool_call_delta', index: 3, argumentsDelta: '{"city":' },
        { type: 'tool_call_delta', index: 3, argumentsDelta: '"Oslo"}' },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 20, outputTokens: 15 } },
      ] as StreamEvent[]
    )
      .map((e) => enc.encode(e))
      .join('');
    const recs = parseSse(sse);
    assert.ok(recs.every((r) => r.event === JSON.parse(r.data).type), 'event name matches data.type');
    assert.deepEqual(
      recs.map((r) => JSON.parse(r.data)),
      [
        {
          type: 'message_start',
          message: {
            id: 'msg_abc',
            type: 'message',
            role: 'assistant',
            model: 'my-model',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0, service_tier: 'standard' },
          },
        },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        { type: 'ping' },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Let me ' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'check.' } },
        { type: 'content_block_stop', index: 0 },
        { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
        { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Oslo"}' } },
        { type: 'content_block_stop', index: 1 },
        {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 15 },
        },
        { type: 'message_stop' },
      ],
    );
  });

  it('reports the stop sequence and writes errors as error events', () => {
    const enc = anthropicWire.createStreamEncoder(req());
    enc.encode({ type: 'start', id: 'a', model: 'm' });
    const fin = parseSse(enc.encode({ type: 'finish', finishReason: 'stop', stopSequence: 'END', usage: { inputTokens: 1, outputTokens: 1 } }));
    assert.deepEqual(fin.map((r) => r.event), ['ping', 'message_delta', 'message_stop']);
    assert.deepEqual(JSON.parse(fin[1].data).delta, { stop_reason: 'stop_sequence', stop_sequence: 'END' });

    const e2 = anthropicWire.createStreamEncoder(req());
    const err = parseSse(e2.encode({ type: 'error', message: 'Overloaded', status: 529 }));
    assert.deepEqual(err.slice(-1), [{ event: 'error', data: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) }]);
  });
});

describe('messages stream decoder', () => {
  it('skips ping, reads thinking blocks as reasoning, keeps wire indices, adds cache tokens to input', () => {
    const ev = (type: string, data: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const sse =
      ev('message_start', { message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 10, cache_read_input_tokens: 90, cache_creation_input_tokens: 5, output_tokens: 1 } } }) +
      ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }) +
      ev('ping', {}) +
      ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } }) +
      ev('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }) +
      ev('content_block_stop', { index: 0 }) +
      ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }) +
      ev('content_block_delta', { index: 1, delta: { type: 'text_delta', text: 'Hi' } }) +
      ev('content_block_stop', { index: 1 }) +
      ev('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } }) +
      ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }) +
      ev('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"a":1}' } }) +
      ev('content_block_stop', { index: 2 }) +
      ev('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } }) +
      ev('message_stop', {});
    assert.deepEqual(decode(sse), [
      { type: 'start', id: 'msg_1', model: 'claude', inputTokens: 105 },
      { type: 'reasoning_delta', index: 0, text: 'hmm' },
      { type: 'reasoning_signature', index: 0, signature: 'sig', origin: 'anthropic' },
      { type: 'block_end', index: 0 },
      { type: 'text_delta', index: 1, text: 'Hi' },
      { type: 'block_end', index: 1 },
      { type: 'tool_call_start', index: 2, id: 'toolu_1', name: 'f' },
      { type: 'tool_call_delta', index: 2, argumentsDelta: '{"a":1}' },
      { type: 'block_end', index: 2 },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 105, outputTokens: 30, cachedInputTokens: 90 } },
    ]);
  });

  it('reports error events and a stream cut before message_stop', () => {
    assert.deepEqual(decode('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'), [
      { type: 'error', message: 'Overloaded', code: 'overloaded_error' },
    ]);
    const cut = decode('event: message_start\ndata: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":1}}}\n\n');
    assert.equal(cut[cut.length - 1].type, 'error');
  });

  it('recognises the terminal frame and usage records', () => {
    assert.equal(anthropicWire.isTerminal({ event: 'message_stop', data: '{"type":"message_stop"}' }), true);
    assert.equal(anthropicWire.isTerminal({ event: 'message_delta', data: '{}' }), false);
    assert.deepEqual(anthropicWire.usageFromRecord({ event: 'message_start', data: '{"type":"message_start","message":{"usage":{"input_tokens":7,"output_tokens":1}}}' }), {
      inputTokens: 7,
      outputTokens: 1,
    });
    assert.deepEqual(anthropicWire.usageFromRecord({ event: 'message_delta', data: '{"type":"message_delta","usage":{"output_tokens":9}}' }), { outputTokens: 9 });
    assert.equal(anthropicWire.usageFromRecord({ event: 'ping', data: '{"type":"ping"}' }), undefined);
  });
});

describe('messages requests and errors', () => {
  it('folds a mid-conversation system turn into the system text, in order (D19, Claude Code)', () => {
    const r = anthropicWire.parseRequest({
      model: 'm',
      max_tokens: 128000,
      system: [{ type: 'text', text: 'First.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
        { role: 'system', content: [{ type: 'text', text: 'Second.', cache_control: { type: 'ephemeral' } }], output_config: { effort: 'medium' } },
      ],
      thinking: { type: 'adaptive' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      output_config: { effort: 'medium' },
      metadata: { user_id: 'u' },
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.value.system, 'First.\n\nSecond.');
    assert.deepEqual(r.value.messages.map((m) => m.role), ['user']);
  });

  it('drops server tools (D19): the vendor runs them, no other provider can', () => {
    const r = anthropicWire.parseRequest({
      model: 'm',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }, { name: 'Write', input_schema: { type: 'object' }, defer_loading: true }],
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value.tools?.map((t) => t.name), ['Write']);
  });

  it('names the bad field', () => {
    const ok = { model: 'm', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] };
    const cases: Array<[unknown, string]> = [
      [{ ...ok, max_tokens: undefined }, 'max_tokens'],
      [{ ...ok, max_tokens: 0 }, 'max_tokens'],
      [{ ...ok, messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role'],
      [{ ...ok, messages: [{ role: 'system', content: 'x' }] }, 'messages'],
      [{ ...ok, messages: [{ role: 'user', content: 7 }] }, 'messages[0].content'],
      [{ ...ok, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'bytes' } }] }] }, 'messages[0].content[0].source.type'],
      [{ ...ok, temperature: 1.5 }, 'temperature'],
      [{ ...ok, tools: [{ name: 't' }] }, 'tools[0].input_schema'],
      [{ ...ok, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
      [{ ...ok, stop_sequences: 'END' }, 'stop_sequences'],
    ];
    for (const [body, field] of cases) {
      const r = anthropicWire.parseRequest(body);
      assert.equal(r.ok, false, JSON.stringify(body));
      if (!r.ok) assert.equal(r.field, field, r.message);
    }
  });

  it('reads documents and search results with text as text, and drops what has no equivalent (D19)', () => {
    const r = anthropicWire.parseRequest({
      model: 'm',
      max_tokens: 5,
      system: [{ type: 'text', text: 'sys' }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
            { type: 'document', source: { type: 'url', url: 'https://example.com/a.pdf' } },
            { type: 'document', title: 'Notes', source: { type: 'text', media_type: 'text/plain', data: 'plain notes' } },
            { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk one' }] } },
            { type: 'search_result', source: 'https://example.com', title: 'Result', content: [{ type: 'text', text: 'found it' }] },
            { type: 'image', source: { type: 'file', file_id: 'file_1' } },
            { type: 'container_upload', file_id: 'file_2' },
            { type: 'text', text: 'Summarise.' },
          ],
        },
        { role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'web_search', input: {} }, { type: 'web_search_tool_result', tool_use_id: 's', content: [] }, { type: 'text', text: 'ok' }] },
      ],
    });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.value.messages[0].content, [
      { type: 'text', text: 'Notes\nplain notes' },
      { type: 'text', text: 'chunk one' },
      { type: 'text', text: 'Result\nfound it' },
      { type: 'text', text: 'Summarise.' },
    ]);
    assert.deepEqual(r.value.messages[1].content, [{ type: 'text', text: 'ok' }]);
  });

  it('reads thinking blocks in history as signed reasoning and keeps tool results ahead of text', () => {
    const r = anthropicWire.parseRequest({
      model: 'm',
      max_tokens: 5,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }, { type: 'tool_use', id: 'a', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'text', text: 'also' }, { type: 'tool_result', tool_use_id: 'a', content: 'r' }] },
      ],
    });
    assert.ok(r.ok);
    assert.deepEqual(
      r.value.messages.map((m) => [m.role, m.content.map((p) => p.type)]),
      [
        ['user', ['text']],
        ['assistant', ['reasoning', 'tool_call']],
        ['tool', ['tool_result']],
        ['user', ['text']],
      ],
    );
    assert.deepEqual(r.value.messages[1].content[0], { type: 'reasoning', text: 't', signature: 's', origin: 'anthropic' });
  });

  it('sends a default cap, version header, and sanitised tool ids', () => {
    const up = anthropicWire.buildUpstreamRequest(
      req({
        stream: false,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_call', id: 'call:1', name: 'f', arguments: 'not json' }] },
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'call:1', content: 'x' }] },
        ],
      }),
      'claude',
      { defaultMaxTokens: 2048 },
    );
    assert.equal(up.body.max_tokens, 2048);
    assert.equal(up.path, '/v1/messages');
    assert.deepEqual(up.body.messages, [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'x' }] },
    ]);
    assert.deepEqual(anthropicWire.authHeaders('k'), { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' });
  });

  it('renders native error bodies by status', () => {
    const t = (s: number) => (anthropicWire.renderError(s, 'c', 'm').error as { type: string }).type;
    assert.deepEqual(anthropicWire.renderError(429, 'rate_limited', 'slow down'), { type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
    assert.deepEqual(
      [400, 401, 402, 403, 404, 413, 500, 502, 503, 529].map(t),
      ['invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'not_found_error', 'request_too_large', 'api_error', 'api_error', 'overloaded_error', 'overloaded_error'],
    );
  });

  it('reads a response: refusal is filtered, cache tokens are input, text blocks merge', () => {
    const r = anthropicWire.parseUpstreamResponse({
      id: 'msg_1',
      type: 'message',
      model: 'c',
      content: [
        { type: 'text', text: 'a', citations: [] },
        { type: 'text', text: 'b' },
      ],
      stop_reason: 'refusal',
      stop_sequence: null,
      usage: { input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 2 },
    });
    assert.ok(r.ok);
    assert.deepEqual(r.value.content, [{ type: 'text', text: 'ab' }]);
    assert.equal(r.value.finishReason, 'content_filter');
    assert.deepEqual(r.value.usage, { inputTokens: 7, outputTokens: 2, cachedInputTokens: 4 });
    assert.equal(anthropicWire.parseUpstreamResponse({ type: 'error', error: { type: 'api_error', message: 'x' } }).ok, false);
  });
});

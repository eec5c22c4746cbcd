import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest } from '../canonical/types.ts';
import { estimateTokens, estimateInputTokens, IMAGE_TOKENS, MESSAGE_OVERHEAD_TOKENS } from './estimate.ts';

const req = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  messages: [],
  stream: false,
  ...over,
});

describe('estimateTokens', () => {
  test('about four characters per token, rounded up', () => {
    assert.equal(estimateTokens(''), 0);
    assert.equal(estimateTokens('a'), 1);
    assert.equal(estimateTokens('abcd'), 1);
    assert.equal(estimateTokens('abcde'), 2);
    assert.equal(estimateTokens('x'.repeat(32_768)), 8_192);
  });

  test('is deterministic', () => {
    const t = 'The quick brown fox jumps over the lazy dog.';
    assert.equal(estimateTokens(t), estimateTokens(t));
  });
});

describe('estimateInputTokens', () => {
  test('empty request costs nothing', () => {
    assert.equal(estimateInputTokens(req()), 0);
  });

  test('counts system, messages, images, tool calls and results', () => {
    const r = req({
      system: 'abcd', // 1 + overhead
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'abcdefgh' }, { type: 'image', mediaType: 'image/png', url: 'u' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: '1', name: 'find', arguments: '{"q":1}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: '1', content: 'ok' }] },
      ],
    });
    const expected =
      1 + MESSAGE_OVERHEAD_TOKENS +
      MESSAGE_OVERHEAD_TOKENS + 2 + IMAGE_TOKENS +
      MESSAGE_OVERHEAD_TOKENS + 1 + 2 +
      MESSAGE_OVERHEAD_TOKENS + 1;
    assert.equal(estimateInputTokens(r), expected);
  });

  test('tool definitions and a json schema add to the estimate', () => {
    const base = req({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] });
    const withTools = { ...base, tools: [{ name: 'lookup', description: 'find a thing', parameters: { type: 'object' } }] };
    const withSchema: CanonicalRequest = {
      ...base,
      responseFormat: { type: 'json_schema', schema: { type: 'object', properties: { a: { type: 'string' } } } },
    };
    assert.ok(estimateInputTokens(withTools) > estimateInputTokens(base));
    assert.ok(estimateInputTokens(withSchema) > estimateInputTokens(base));
  });
});

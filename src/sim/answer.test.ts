// The simulated answers as a pure function: deterministic, shaped by the request, honest token counts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalRequest } from '../core/canonical/types.ts';
import { answerEvents, countInputTokens, sampleFromSchema, simulateAnswer, splitDeltas } from './answer.ts';

const ask = (text: string, over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  shape: 'openai',
  model: 'm',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...over,
});
const textOf = (a: ReturnType<typeof simulateAnswer>) => a.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const tools = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
  { name: 'get_time', parameters: { type: 'object', properties: { zone: { type: 'string', enum: ['UTC', 'CET'] } } } },
];

describe('simulated answers', () => {
  it('are deterministic and grow with the prompt', () => {
    const a = simulateAnswer(ask('Explain photosynthesis'), 'id1');
    assert.deepEqual(simulateAnswer(ask('Explain photosynthesis'), 'id2'), a);
    const long = simulateAnswer(ask('Explain photosynthesis '.repeat(60)), 'id1');
    assert.ok(textOf(long).length > textOf(a).length * 3);
    assert.match(textOf(a), /photosynthesis/);
    assert.equal(a.usage.outputTokens, Math.ceil(textOf(a).length / 4));
    assert.equal(a.usage.inputTokens, countInputTokens(ask('Explain photosynthesis')));
  });

  it('stop at a stop sequence or at the token cap', () => {
    const s = simulateAnswer(ask('Explain photosynthesis', { stop: ['answer'] }), 'x');
    assert.equal(textOf(s), 'Here is a simulated ');
    assert.deepEqual([s.finishReason, s.stopSequence], ['stop', 'answer']);
    const l = simulateAnswer(ask('Explain photosynthesis', { maxTokens: 3 }), 'x');
    assert.deepEqual([textOf(l).length, l.finishReason, l.usage.outputTokens], [12, 'length', 3]);
  });

  it('call the tools the prompt names (in parallel unless told not to), or the forced one', () => {
    const both = simulateAnswer(ask('Use get_weather for Berlin and get time too', { tools }), 'abc');
    assert.deepEqual(both.content.map((p) => p.type === 'tool_call' && [p.id, p.name, JSON.parse(p.arguments)]), [
      ['call_abc0', 'get_weather', { city: 'Berlin' }],
      ['call_abc1', 'get_time', { zone: 'UTC' }],
    ]);
    assert.equal(both.finishReason, 'tool_calls');
    const one = simulateAnswer(ask('Use get_weather and get time', { tools, parallelToolCalls: false }), 'a');
    assert.equal(one.content.length, 1);
    const forced = simulateAnswer(ask('Hello', { tools, toolChoice: { name: 'get_time' } }), 'a');
    assert.equal(forced.content[0].type === 'tool_call' && forced.content[0].name, 'get_time');
    assert.equal(simulateAnswer(ask('Hello', { tools }), 'a').finishReason, 'stop');
    assert.equal(simulateAnswer(ask('Hello', { tools, toolChoice: 'required' }), 'a').finishReason, 'tool_calls');
    assert.equal(simulateAnswer(ask('Use get_weather', { tools, toolChoice: 'none' }), 'a').finishReason, 'stop');
  });

  it('reply in text after a tool result', () => {
    const req = ask('Use get_weather for Berlin', { tools });
    req.messages.push(
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{"city":"Berlin"}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'sunny, 24C' }] },
    );
    const a = simulateAnswer(req, 'x');
    assert.equal(a.finishReason, 'stop');
    assert.match(textOf(a), /^The get_weather tool returned: sunny, 24C\./);
  });

  it('produce JSON instances of a schema', () => {
    const schema = {
      type: 'object',
      properties: {
        id: { type: 'integer', minimum: 100 },
        when: { type: 'string', format: 'date' },
        kind: { anyOf: [{ type: 'null' }, { type: 'string', enum: ['a', 'b'] }] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        ok: { type: 'boolean' },
        nested: { type: 'object', properties: { n: { type: ['number', 'null'] } } },
      },
      required: ['id', 'extra'],
    };
    assert.deepEqual(sampleFromSchema(schema, ['alpha', 'beta']), {
      id: 100,
      when: '2025-01-15',
      kind: 'a',
      tags: ['alpha', 'beta'],
      ok: true,
      nested: { n: 42 },
      extra: 'extra value',
    });
    const a = simulateAnswer(ask('Colours', { responseFormat: { type: 'json_schema', schema } }), 'x');
    assert.equal(JSON.parse(textOf(a)).id, 100);
    assert.equal(typeof JSON.parse(textOf(simulateAnswer(ask('Colours', { responseFormat: { type: 'json' } }), 'x'))), 'object');
  });

  it('stream as start, word-aligned deltas, block ends and a finish carrying usage', () => {
    const a = simulateAnswer(ask('Explain photosynthesis in detail please '.repeat(5)), 'x');
    const evs = answerEvents(a, 'x', 'm');
    assert.equal(evs[0].type, 'start');
    const deltas = evs.filter((e) => e.type === 'text_delta');
    assert.ok(deltas.length >= 4 && deltas.length <= 40);
    assert.equal(deltas.map((e) => (e.type === 'text_delta' ? e.text : '')).join(''), textOf(a));
    assert.deepEqual(evs[evs.length - 1], { type: 'finish', finishReason: 'stop', usage: a.usage });
    assert.deepEqual(splitDeltas(''), []);
    assert.deepEqual(splitDeltas('short'), ['short']);
  });
});

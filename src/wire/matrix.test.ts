// Every client shape against every provider wire (CONVENTIONS 3): requests, responses and streams
// go client → canonical → provider wire and back, and must keep their meaning. Where a wire cannot
// carry something (the chat-completions wire has no tool-error flag, the messages wire has no plain
// JSON switch…), `expectedAfter` states the documented loss explicitly, so anything else that
// drifts fails the test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  CanonicalRequest,
  CanonicalResponse,
  ClientShape,
  ContentPart,
  Message,
  StreamEvent,
  Usage,
} from '../core/canonical/types.ts';
import { JSON_OUTPUT_HINT } from './anthropic/index.ts';
import { WIRES } from './index.ts';
import { JSON_MODE_HINT } from './openai/index.ts';
import { parseSse } from './sse.ts';
import type { ParseContext } from './types.ts';
import { toolNameFor } from './util.ts';

const SHAPES: ClientShape[] = ['openai', 'anthropic', 'gemini'];
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const weather = {
  type: 'object',
  properties: { city: { type: 'string' }, days: { type: 'integer' } },
  required: ['city'],
};

/** Client requests written in each vendor's own shape, covering every translated feature. */
const CLIENT_REQUESTS: Record<ClientShape, Array<{ name: string; body: unknown; ctx?: ParseContext }>> = {
  openai: [
    {
      name: 'full conversation with tools, images, schema, stream',
      body: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'You are a travel assistant.' },
          { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture, and the weather in Paris and Rome?' },
              { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            ],
          },
          {
            role: 'assistant',
            content: 'Checking both.',
            tool_calls: [
              { id: 'call_a1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_b2', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Rome", "days": 2}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_a1', content: '{"temp": 18}' },
          { role: 'tool', tool_call_id: 'call_b2', content: 'rainy' },
          { role: 'assistant', content: 'Paris 18°C, Rome rainy.' },
          { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/rome.jpg' } }, { type: 'text', text: 'And here?' }] },
        ],
        tools: [
          { type: 'function', function: { name: 'get_weather', description: 'Weather by city', parameters: weather } },
          { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: {} } } },
        ],
        tool_choice: 'auto',
        parallel_tool_calls: false,
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object', properties: { a: { type: 'string' } } }, strict: true } },
        stop: ['END', 'STOP'],
        max_completion_tokens: 300,
        temperature: 1.4,
        top_p: 0.9,
        stream: true,
        stream_options: { include_usage: true },
      },
    },
    {
      name: 'json mode with a forced tool',
      body: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'List cities as JSON' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: weather } }],
        tool_choice: { type: 'function', function: { name: 'lookup' } },
        response_format: { type: 'json_object' },
        stop: 'END',
        max_tokens: 50,
      },
    },
    {
      name: 'json mode without the word, required tools',
      body: {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'List three cities' }],
        tools: [{ type: 'function', function: { name: 'lookup', parameters: weather } }],
        tool_choice: 'required',
        response_format: { type: 'json_object' },
      },
    },
    { name: 'minimal', body: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] } },
  ],
  anthropic: [
    {
      name: 'full conversation with tools, images, tool error, schema',
      body: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: [{ type: 'text', text: 'You are a travel assistant.' }],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
              { type: 'text', text: 'Weather in Oslo?' },
            ],
          },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'toolu_01', name: 'get_weather', input: { city: 'Oslo' } },
            ],
          },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_01', content: [{ type: 'text', text: 'service down' }], is_error: true },
              { type: 'text', text: 'Try again please.' },
            ],
          },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_02', name: 'get_weather', input: { city: 'Oslo', days: 1 } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_02', content: '{"temp":-3}' }] },
        ],
        tools: [{ name: 'get_weather', description: 'Weather by city', input_schema: weather }],
        tool_choice: { type: 'tool', name: 'get_weather', disable_parallel_tool_use: true },
        stop_sequences: ['\n\nHuman:'],
        temperature: 0.4,
        output_config: { format: { type: 'json_schema', schema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] } } },
        stream: true,
      },
    },
    {
      name: 'top_p only, url image, any tool',
      body: {
        model: 'claude-haiku-4-5',
        max_tokens: 64,
        system: 'Terse.',
        top_p: 0.5,
        tools: [{ name: 'lookup', input_schema: weather }],
        tool_choice: { type: 'any' },
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url: 'https://example.com/a.webp' } }, { type: 'text', text: 'What is it?' }] }],
      },
    },
    { name: 'minimal', body: { model: 'claude-haiku-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] } },
  ],
  gemini: [
    {
      name: 'full conversation with id-less function calls, OpenAPI schema, JSON schema',
      ctx: { model: 'gemini-2.5-pro', stream: true },
      body: {
        systemInstruction: { parts: [{ text: 'You are a travel assistant.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Weather in Lima and Quito?' }, { inlineData: { mimeType: 'image/png', data: PNG } }] },
          {
            role: 'model',
            parts: [
              { text: 'Checking.' },
              { functionCall: { name: 'get_weather', args: { city: 'Lima' } } },
              { functionCall: { name: 'get_weather', args: { city: 'Quito' } } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'get_weather', response: { temp: 20 } } },
              { functionResponse: { name: 'get_weather', response: { error: 'no data' } } },
            ],
          },
          { role: 'model', parts: [{ text: 'Lima is 20°C; Quito unknown.' }] },
          { role: 'user', parts: [{ fileData: { mimeType: 'image/jpeg', fileUri: 'https://example.com/q.jpg' } }, { text: 'Thanks' }] },
        ],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Weather by city',
                parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'INTEGER', nullable: true } }, required: ['city'] },
              },
            ],
          },
        ],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
        generationConfig: {
          maxOutputTokens: 200,
          temperature: 0.2,
          topP: 0.8,
          stopSequences: ['END'],
          responseMimeType: 'application/json',
          responseJsonSchema: { type: 'object', properties: { summary: { type: 'string' } } },
        },
      },
    },
    {
      name: 'snake_case fields, plain JSON, tools off',
      ctx: { model: 'models/gemini-2.5-flash' },
      body: {
        system_instruction: { parts: [{ text: 'Answer in JSON.' }] },
        contents: [{ parts: [{ text: 'Three colours' }] }],
        tools: [{ function_declarations: [{ name: 'noop', parameters_json_schema: { type: 'object', properties: {} } }] }],
        tool_config: { function_calling_config: { mode: 'NONE' } },
        generation_config: { response_mime_type: 'application/json', max_output_tokens: 40 },
      },
    },
    { name: 'minimal', ctx: { model: 'gemini-2.5-flash' }, body: { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }] } },
  ],
};

// ---- semantic comparison ----

const canonJson = (s: string): string => {
  try {
    return JSON.stringify(JSON.parse(s));
  } catch {
    return s;
  }
};

/** Erase differences of representation only: message merging, text run splits, JSON spacing. */
function normalize(req: CanonicalRequest): unknown {
  const messages: Message[] = [];
  for (const m of req.messages) {
    const content: ContentPart[] = [];
    for (const p of m.content) {
      const last = content[content.length - 1];
      if (p.type === 'text') {
        if (p.text === '') continue;
        if (last?.type === 'text') last.text += p.text;
        else content.push({ ...p });
      } else if (p.type === 'tool_call') content.push({ ...p, arguments: canonJson(p.arguments) });
      else if (p.type === 'tool_result') content.push({ ...p, content: canonJson(p.content) });
      else content.push({ ...p });
    }
    if (content.length === 0) continue;
    const prev = messages[messages.length - 1];
    if (prev && prev.role === m.role) prev.content.push(...content);
    else messages.push({ role: m.role, content });
  }
  return JSON.parse(JSON.stringify({ ...req, messages }));
}

const sanitize = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_');
const mentionsJson = (r: CanonicalRequest): boolean =>
  /json/i.test(r.system ?? '') || r.messages.some((m) => m.content.some((p) => p.type === 'text' && /json/i.test(p.text)));

/** The canonical request a provider wire can carry, given what it cannot. */
function expectedAfter(c: CanonicalRequest, target: ClientShape): CanonicalRequest {
  const e: CanonicalRequest = structuredClone(c);
  e.shape = target;
  e.model = 'up-model';
  delete e.conversationId;
  delete e.includeUsage;
  const hasTools = (e.tools?.length ?? 0) > 0;
  if (e.responseFormat?.type === 'text') delete e.responseFormat;
  const rf = e.responseFormat;
  const withHint = (hint: string) => (e.system = e.system ? `${e.system}\n\n${hint}` : hint);
  const mapResults = (f: (p: Extract<ContentPart, { type: 'tool_result' }>, i: number) => void) =>
    e.messages.forEach((m, i) => m.content.forEach((p) => p.type === 'tool_result' && f(p, i)));

  if (target === 'openai') {
    if (e.stream) e.includeUsage = true;
    if (!hasTools) delete e.parallelToolCalls;
    if (rf?.type === 'json' && !mentionsJson(c)) withHint(JSON_MODE_HINT);
    if (rf?.type === 'json_schema') rf.name ??= 'response';
    mapResults((p) => {
      delete p.isError;
      delete p.name;
    });
  }
  if (target === 'anthropic') {
    e.maxTokens ??= 4096;
    if (e.temperature !== undefined) {
      e.temperature = Math.min(e.temperature, 1);
      delete e.topP;
    }
    if (rf?.type === 'json') {
      withHint(JSON_OUTPUT_HINT);
      delete e.responseFormat;
    } else if (rf?.type === 'json_schema') e.responseFormat = { type: 'json_schema', schema: rf.schema };
    if (!hasTools) {
      delete e.toolChoice;
      delete e.parallelToolCalls;
    } else {
      if (e.parallelToolCalls === false && e.toolChoice === undefined) e.toolChoice = 'auto';
      if (e.parallelToolCalls !== false || e.toolChoice === 'none') delete e.parallelToolCalls;
    }
    for (const m of e.messages) {
      for (const p of m.content) {
        if (p.type === 'tool_call') p.id = sanitize(p.id);
        if (p.type === 'tool_result') p.toolCallId = sanitize(p.toolCallId);
      }
    }
    mapResults((p) => delete p.name);
  }
  if (target === 'gemini') {
    delete e.parallelToolCalls;
    if (rf?.type === 'json_schema') e.responseFormat = { type: 'json_schema', schema: rf.schema };
    mapResults((p, i) => (p.name ??= toolNameFor(c.messages, i, p.toolCallId)));
  }
  return e;
}

function ctxFromPath(path: string): ParseContext | undefined {
  const m = /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent)/.exec(path);
  return m ? { model: decodeURIComponent(m[1]), stream: m[2] === 'streamGenerateContent' } : undefined;
}

describe('requests: client shape → canonical → provider wire → canonical', () => {
  for (const client of SHAPES) {
    for (const fx of CLIENT_REQUESTS[client]) {
      for (const target of SHAPES) {
        it(`${client} "${fx.name}" through the ${target} wire`, () => {
          const parsed = WIRES[client].parseRequest(fx.body, fx.ctx);
          assert.ok(parsed.ok, parsed.ok ? '' : `${parsed.message}`);
          const canonical = parsed.value;
          assert.equal(canonical.shape, client);
          const up = WIRES[target].buildUpstreamRequest(canonical, 'up-model');
          assert.equal(up.stream, canonical.stream);
          const back = WIRES[target].parseRequest(JSON.parse(JSON.stringify(up.body)), ctxFromPath(up.path));
          assert.ok(back.ok, back.ok ? '' : `${target} rejected its own body: ${back.message}`);
          assert.deepEqual(normalize(back.value), normalize(expectedAfter(canonical, target)));
        });
      }
    }
  }

  it('parses every feature into canonical form (spot checks per shape)', () => {
    const o = WIRES.openai.parseRequest(CLIENT_REQUESTS.openai[0].body);
    assert.ok(o.ok);
    assert.equal(o.value.system, 'You are a travel assistant.\n\nBe brief.');
    assert.deepEqual(o.value.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'assistant', 'user']);
    assert.deepEqual(o.value.messages[0].content[1], { type: 'image', mediaType: 'image/png', data: PNG });
    assert.equal(o.value.maxTokens, 300);
    assert.equal(o.value.includeUsage, true);
    assert.equal(o.value.parallelToolCalls, false);

    const a = WIRES.anthropic.parseRequest(CLIENT_REQUESTS.anthropic[0].body);
    assert.ok(a.ok);
    assert.deepEqual(a.value.messages.map((m) => m.role), ['user', 'assistant', 'tool', 'user', 'assistant', 'tool']);
    assert.deepEqual(a.value.messages[2].content, [{ type: 'tool_result', toolCallId: 'toolu_01', content: 'service down', isError: true }]);
    assert.deepEqual(a.value.toolChoice, { name: 'get_weather' });

    const g = WIRES.gemini.parseRequest(CLIENT_REQUESTS.gemini[0].body, CLIENT_REQUESTS.gemini[0].ctx);
    assert.ok(g.ok);
    assert.equal(g.value.model, 'gemini-2.5-pro');
    assert.equal(g.value.stream, true);
    const calls = g.value.messages[1].content.filter((p) => p.type === 'tool_call');
    const results = g.value.messages[2].content;
    assert.deepEqual(
      results.map((p) => p.type === 'tool_result' && [p.toolCallId, p.content, p.isError ?? false]),
      [
        [calls[0].type === 'tool_call' && calls[0].id, '{"temp":20}', false],
        [calls[1].type === 'tool_call' && calls[1].id, 'no data', true],
      ],
    );
    assert.deepEqual(g.value.tools![0].parameters, {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: ['integer', 'null'] } },
      required: ['city'],
    });
    const s = WIRES.gemini.parseRequest(CLIENT_REQUESTS.gemini[1].body, CLIENT_REQUESTS.gemini[1].ctx);
    assert.ok(s.ok);
    assert.equal(s.value.model, 'gemini-2.5-flash');
    assert.deepEqual([s.value.toolChoice, s.value.responseFormat, s.value.maxTokens], ['none', { type: 'json' }, 40]);
  });
});

// ---- responses ----

const RESPONSES: Array<{ name: string; res: CanonicalResponse }> = [
  {
    name: 'text',
    res: { id: 'r1', model: 'm', content: [{ type: 'text', text: 'Hello there.' }], finishReason: 'stop', usage: { inputTokens: 12, outputTokens: 4 } },
  },
  {
    name: 'text then parallel tool calls',
    res: {
      id: 'r2',
      model: 'm',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_call', id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'tool_call', id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome","days":2}' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 40, outputTokens: 22 },
    },
  },
  { name: 'length', res: { id: 'r3', model: 'm', content: [{ type: 'text', text: 'Cut sho' }], finishReason: 'length', usage: { inputTokens: 5, outputTokens: 2 } } },
  {
    name: 'stop sequence',
    res: { id: 'r4', model: 'm', content: [{ type: 'text', text: 'Done' }], finishReason: 'stop', stopSequence: 'END', usage: { inputTokens: 5, outputTokens: 1 } },
  },
  { name: 'filtered', res: { id: 'r5', model: 'm', content: [], finishReason: 'content_filter', usage: { inputTokens: 9, outputTokens: 0 } } },
  {
    name: 'cached input',
    res: { id: 'r6', model: 'm', content: [{ type: 'text', text: 'ok' }], finishReason: 'stop', usage: { inputTokens: 1000, outputTokens: 3, cachedInputTokens: 800 } },
  },
];

const reqFor = (shape: ClientShape): CanonicalRequest => ({ shape, model: `client-${shape}`, messages: [], stream: false });
/** What the gateway asks a provider for when streaming: usage frames included (D6). */
const upstreamStreamReq = (shape: ClientShape): CanonicalRequest => ({ ...reqFor(shape), stream: true, includeUsage: true });

function semanticResponse(r: CanonicalResponse, stopSeqKept: boolean): unknown {
  return {
    content: r.content.map((p) => (p.type === 'text' ? p : { ...p, id: sanitize(p.id), arguments: canonJson(p.arguments) })),
    finishReason: r.finishReason,
    stopSequence: stopSeqKept ? r.stopSequence : undefined,
    usage: r.usage,
  };
}

describe('responses: provider wire → canonical → client shape → canonical', () => {
  for (const { name, res } of RESPONSES) {
    for (const provider of SHAPES) {
      for (const client of SHAPES) {
        it(`"${name}" from ${provider} to a ${client} client`, () => {
          const upstreamBody = WIRES[provider].renderResponse(res, reqFor(provider));
          const r1 = WIRES[provider].parseUpstreamResponse(JSON.parse(JSON.stringify(upstreamBody)));
          assert.ok(r1.ok);
          const clientBody = WIRES[client].renderResponse(r1.value, reqFor(client));
          const r2 = WIRES[client].parseUpstreamResponse(JSON.parse(JSON.stringify(clientBody)));
          assert.ok(r2.ok);
          const stopKept = provider === 'anthropic' && client === 'anthropic';
          assert.deepEqual(semanticResponse(r2.value, stopKept), semanticResponse(res, stopKept));
          assert.equal(JSON.stringify(clientBody).includes(`client-${client}`), true, 'model echoes the client string');
        });
      }
    }
  }
});

// ---- streams ----

interface Accumulated {
  text: string;
  calls: Array<{ id: string; name: string; args: unknown }>;
  finishReason?: string;
  stopSequence?: string;
  usage?: Usage;
  error?: string;
}

function accumulate(events: StreamEvent[]): Accumulated {
  const acc: Accumulated = { text: '', calls: [] };
  const byIndex = new Map<number, { id: string; name: string; args: string }>();
  for (const ev of events) {
    if (ev.type === 'text_delta') acc.text += ev.text;
    if (ev.type === 'tool_call_start') byIndex.set(ev.index, { id: ev.id, name: ev.name, args: '' });
    if (ev.type === 'tool_call_delta') byIndex.get(ev.index)!.args += ev.argumentsDelta;
    if (ev.type === 'finish') {
      acc.finishReason = ev.finishReason;
      acc.stopSequence = ev.stopSequence;
      acc.usage = ev.usage;
    }
    if (ev.type === 'error') acc.error = ev.message;
  }
  acc.calls = [...byIndex.values()].map((c) => ({ id: sanitize(c.id), name: c.name, args: JSON.parse(c.args || '{}') }));
  return acc;
}

function decodeAll(shape: ClientShape, sse: string): StreamEvent[] {
  const dec = WIRES[shape].createStreamDecoder();
  return [...parseSse(sse).flatMap((r) => dec.push(r)), ...dec.end()];
}

function encodeAll(shape: ClientShape, req: CanonicalRequest, events: StreamEvent[]): string {
  const enc = WIRES[shape].createStreamEncoder(req);
  return events.map((e) => enc.encode(e)).join('');
}

const STREAMS: Array<{ name: string; events: StreamEvent[] }> = [
  {
    name: 'text',
    events: [
      { type: 'start', id: 's1', model: 'm', inputTokens: 11 },
      { type: 'text_delta', index: 0, text: 'Hel' },
      { type: 'text_delta', index: 0, text: 'lo, wor' },
      { type: 'text_delta', index: 0, text: 'ld.' },
      { type: 'block_end', index: 0 },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 11, outputTokens: 4 } },
    ],
  },
  {
    name: 'text then two tool calls',
    events: [
      { type: 'start', id: 's2', model: 'm', inputTokens: 30 },
      { type: 'text_delta', index: 0, text: 'Checking both.' },
      { type: 'block_end', index: 0 },
      { type: 'tool_call_start', index: 1, id: 'call_x', name: 'get_weather' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: '{"ci' },
      { type: 'tool_call_delta', index: 1, argumentsDelta: 'ty":"Paris"}' },
      { type: 'block_end', index: 1 },
      { type: 'tool_call_start', index: 2, id: 'call_y', name: 'get_time' },
      { type: 'tool_call_delta', index: 2, argumentsDelta: '{}' },
      { type: 'block_end', index: 2 },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 30, outputTokens: 18 } },
    ],
  },
  {
    name: 'length',
    events: [
      { type: 'start', id: 's3', model: 'm', inputTokens: 3 },
      { type: 'text_delta', index: 0, text: 'Trunc' },
      { type: 'finish', finishReason: 'length', usage: { inputTokens: 3, outputTokens: 2 } },
    ],
  },
  {
    name: 'empty answer',
    events: [
      { type: 'start', id: 's4', model: 'm', inputTokens: 3 },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 3, outputTokens: 0 } },
    ],
  },
];

describe('streams: provider SSE → events → client SSE → events', () => {
  for (const { name, events } of STREAMS) {
    const expected = accumulate(events);
    for (const provider of SHAPES) {
      it(`"${name}": the ${provider} stream marks its last frame terminal and carries the usage`, () => {
        const recs = parseSse(encodeAll(provider, upstreamStreamReq(provider), events));
        const w = WIRES[provider];
        assert.deepEqual(
          recs.map((r) => w.isTerminal(r)),
          recs.map((_, i) => i === recs.length - 1),
        );
        const usage: Partial<Usage> = {};
        for (const r of recs) Object.assign(usage, w.usageFromRecord(r));
        assert.deepEqual(usage, expected.usage);
      });
      for (const client of SHAPES) {
        it(`"${name}" from ${provider} to a ${client} client`, () => {
          const upstreamSse = encodeAll(provider, upstreamStreamReq(provider), events);
          const canonical = decodeAll(provider, upstreamSse);
          const clientReq = { ...reqFor(client), stream: true, includeUsage: true };
          const clientSse = encodeAll(client, clientReq, canonical);
          assert.deepEqual(accumulate(decodeAll(client, clientSse)), expected);
        });
      }
    }
  }

  for (const provider of SHAPES) {
    for (const client of SHAPES) {
      it(`an upstream error mid-stream from ${provider} reaches a ${client} client as an error`, () => {
        const upstream =
          encodeAll(provider, upstreamStreamReq(provider), [
            { type: 'start', id: 'e1', model: 'm' },
            { type: 'text_delta', index: 0, text: 'partial' },
          ]) + encodeAll(provider, upstreamStreamReq(provider), [{ type: 'error', message: 'overloaded', status: 529 }]);
        const canonical = decodeAll(provider, upstream);
        const got = accumulate(decodeAll(client, encodeAll(client, reqFor(client), canonical)));
        assert.equal(got.text, 'partial');
        assert.equal(got.error, 'overloaded');
        assert.equal(got.finishReason, undefined);
      });
    }
  }

  it('a chat-completions upstream that sends no usage still finishes, without usage, for every client', () => {
    const events = STREAMS[0].events;
    const canonical = decodeAll('openai', encodeAll('openai', { ...reqFor('openai'), stream: true }, events));
    const fin = canonical.find((e) => e.type === 'finish');
    assert.deepEqual(fin, { type: 'finish', finishReason: 'stop' });
    for (const client of SHAPES) {
      const got = accumulate(decodeAll(client, encodeAll(client, reqFor(client), canonical)));
      assert.equal(got.text, 'Hello, world.');
      assert.equal(got.finishReason, 'stop');
    }
  });
});

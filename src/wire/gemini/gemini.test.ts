// The generateContent wire on its own: the exact chunks it writes (function calls whole, usage on
// the last chunk), the variants its decoder must survive, URL-borne model and stream, errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CanonicalRequest, StreamEvent } from '../../core/canonical/types.ts';
import { parseSse } from '../sse.ts';
import { geminiWire } from './index.ts';

const req = (over: Partial<CanonicalRequest> = {}): CanonicalRequest => ({ shape: 'gemini', model: 'my-model', messages: [], stream: true, ...over });
const decode = (sse: string): StreamEvent[] => {
  const d = geminiWire.createStreamDecoder();
  return [...parseSse(sse).flatMap((r) => d.push(r)), ...d.end()];
};

describe('generateContent stream encoder', () => {
  it('writes text chunks, a whole function call on its block end, and finish with usage last', () => {
    const enc = geminiWire.createStreamEncoder(req());
    const out = (
      [
        { type: 'start', id: 'msg_r1', model: 'up', inputTokens: 8 },
        { type: 'text_delta', index: 0, text: 'Sure.' },
        { type: 'block_end', index: 0 },
        { type: 'tool_call_start', index: 1, id: 'call_1', name: 'f' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '{"a":' },
        { type: 'tool_call_delta', index: 1, argumentsDelta: '[1,2]}' },
        { type: 'block_end', index: 1 },
        { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 8, outputTokens: 6 } },
      ] as StreamEvent[]
    ).map((e) => enc.encode(e));
    assert.deepEqual(out.map((s) => s !== ''), [false, true, false, false, false, false, true, true]);
    const meta = { modelVersion: 'my-model', responseId: 'r1' };
    const running = { promptTokenCount: 8, totalTokenCount: 8, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }] };
    assert.deepEqual(
      parseSse(out.join('')).map((r) => JSON.parse(r.data)),
      [
        { candidates: [{ content: { parts: [{ text: 'Sure.' }], role: 'model' }, index: 0 }], usageMetadata: running, ...meta },
        {
          candidates: [{ content: { parts: [{ functionCall: { id: 'call_1', name: 'f', args: { a: [1, 2] } } }], role: 'model' }, index: 0 }],
          usageMetadata: running,
          ...meta,
        },
        {
          candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          usageMetadata: { promptTokenCount: 8, candidatesTokenCount: 6, totalTokenCount: 14, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 8 }] },
          ...meta,
        },
      ],
    );
  });

  it('writes MAX_TOKENS and errors as a google.rpc.Status chunk', () => {
    const enc = geminiWire.createStreamEncoder(req());
    const fin = JSON.parse(parseSse(enc.encode({ type: 'finish', finishReason: 'length', usage: { inputTokens: 1, outputTokens: 1 } }))[0].data);
    assert.equal(fin.candidates[0].finishReason, 'MAX_TOKENS');
    const e = geminiWire.createStreamEncoder(req()).encode({ type: 'error', message: 'busy', status: 503 });
    assert.deepEqual(JSON.parse(parseSse(e)[0].data).error.status, 'UNAVAILABLE');
  });
});

describe('generateContent stream decoder', () => {
  it('reads thought parts and the thought signature as reasoning, gives id-less calls an id, reads STOP with a call as tool_calls, bills thoughts as output', () => {
    const sse =
      'data: {"candidates":[{"content":{"parts":[{"text":"thinking…","thought":true}],"role":"model"}}],"usageMetadata":{"promptTokenCount":4},"modelVersion":"gemini-x","responseId":"R"}\r\n\r\n' +
      'data: {"candidates":[{"content":{"parts":[{"text":"One"},{"text":" two"}],"role":"model"}}]}\r\n\r\n' +
      'data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"x":1}},"thoughtSignature":"SIG"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":5,"thoughtsTokenCount":7,"totalTokenCount":16}}\r\n\r\n';
    const evs = decode(sse);
    const start = evs.find((e) => e.type === 'tool_call_start');
    assert.ok(start && start.type === 'tool_call_start' && /^call_/.test(start.id));
    assert.deepEqual(evs, [
      { type: 'start', id: 'R', model: 'gemini-x', inputTokens: 4 },
      { type: 'reasoning_delta', index: 0, text: 'thinking…' },
      { type: 'block_end', index: 0 },
      { type: 'text_delta', index: 1, text: 'One two' },
      { type: 'block_end', index: 1 },
      { type: 'reasoning_signature', index: 2, signature: 'SIG', origin: 'gemini' },
      { type: 'block_end', index: 2 },
      { type: 'tool_call_start', index: 3, id: start.id, name: 'f' },
      { type: 'tool_call_delta', index: 3, argumentsDelta: '{"x":1}' },
      { type: 'block_end', index: 3 },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 4, outputTokens: 12, reasoningTokens: 7 } },
    ]);
  });

  it('reads a blocked prompt as content_filter, error chunks as errors, a cut stream as an error', () => {
    const blocked = decode('data: {"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":3}}\n\n');
    assert.deepEqual(blocked.slice(-1), [{ type: 'finish', finishReason: 'content_filter', usage: { inputTokens: 3, outputTokens: 0 } }]);
    assert.deepEqual(decode('data: {"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}\n\n'), [
      { type: 'error', message: 'quota', status: 429, code: 'RESOURCE_EXHAUSTED' },
    ]);
    const cut = decode('data: {"candidates":[{"content":{"parts":[{"text":"a"}]}}]}\n\n');
    assert.equal(cut[cut.length - 1].type, 'error');
  });

  it('recognises the terminal chunk and usage records', () => {
    assert.equal(geminiWire.isTerminal({ data: '{"candidates":[{"content":{"parts":[]},"finishReason":"STOP"}]}' }), true);
    assert.equal(geminiWire.isTerminal({ data: '{"candidates":[{"content":{"parts":[{"text":"finishReason"}]}}]}' }), false);
    assert.deepEqual(geminiWire.usageFromRecord({ data: '{"usageMetadata":{"promptTokenCount":2,"candidatesTokenCount":3}}' }), {
      inputTokens: 2,
      outputTokens: 3,
    });
  });
});

describe('generateContent requests and errors', () => {
  it('takes model and streaming from the URL context and builds the vendor paths', () => {
    const r = geminiWire.parseRequest({ contents: [{ parts: [{ text: 'x' }] }] }, { model: 'models/gemini-2.5-flash', stream: true });
    assert.ok(r.ok);
    assert.deepEqual([r.value.model, r.value.stream], ['gemini-2.5-flash', true]);
    assert.equal(geminiWire.buildUpstreamRequest(r.value, 'gemini-2.5-pro').path, '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse');
    assert.equal(geminiWire.buildUpstreamRequest({ ...r.value, stream: false }, 'models/g').path, '/v1beta/models/g:generateContent');
    assert.deepEqual(geminiWire.authHeaders('k'), { 'x-goog-api-key': 'k' });
  });

  it('drops tools Google runs itself (D19) and reads upper-case types in responseJsonSchema', () => {
    const r = geminiWire.parseRequest({
      contents: [{ role: 'user', parts: [{ text: 'x' }] }],
      tools: [{ googleSearch: {} }, { functionDeclarations: [{ name: 'read_file', parametersJsonSchema: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } }] }],
      generationConfig: { responseMimeType: 'application/json', responseJsonSchema: { type: 'OBJECT', properties: { n: { type: 'INTEGER' } } }, thinkingConfig: { includeThoughts: true, thinkingLevel: 'HIGH' } },
    });
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.value.tools?.map((t) => [t.name, t.parameters]), [['read_file', { type: 'object', properties: { path: { type: 'string' } } }]]);
    assert.deepEqual(r.value.responseFormat, { type: 'json_schema', schema: { type: 'object', properties: { n: { type: 'integer' } } } });
  });

  it('refuses a request whose parts are all of unknown kinds (found by test/hostile-input.test.ts: it went upstream empty)', () => {
    const r = geminiWire.parseRequest({ contents: [{ role: 'user', parts: [{ '\u00fftext': 'Say hi' }] }] });
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.field, 'contents');
  });

  it('names the bad field', () => {
    const ok = { contents: [{ role: 'user', parts: [{ text: 'x' }] }] };
    const cases: Array<[unknown, string]> = [
      [{}, 'contents'],
      [{ contents: [{ role: 'user', parts: [{}] }] }, 'contents[0].parts[0]'],
      [{ contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav' } }] }] }, 'contents[0].parts[0].inlineData.data'],
      [{ ...ok, toolConfig: { functionCallingConfig: { mode: 'SOMETIMES' } } }, 'toolConfig.functionCallingConfig.mode'],
      [{ ...ok, generationConfig: { candidateCount: 0 } }, 'generationConfig.candidateCount'],
      [{ ...ok, generationConfig: { responseMimeType: 7 } }, 'generationConfig.responseMimeType'],
      [{ ...ok, generationConfig: { stopSequences: [3] } }, 'generationConfig.stopSequences[0]'],
    ];
    for (const [body, field] of cases) {
      const r = geminiWire.parseRequest(body, { model: 'g' });
      assert.equal(r.ok, false, JSON.stringify(body));
      if (!r.ok) assert.equal(r.field, field, r.message);
    }
  });

  it('accepts data of any type, reading text files as text and dropping what has no equivalent (D19)', () => {
    const r = geminiWire.parseRequest(
      {
        contents: [
          {
            role: 'user',
            parts: [
              { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
              { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
              { inlineData: { mimeType: 'text/plain', data: Buffer.from('a text file').toString('base64') } },
              { fileData: { mimeType: 'video/mp4', fileUri: 'https://example.com/v.mp4' }, videoMetadata: { startOffset: '1s' } },
              { text: 'Describe them.' },
            ],
          },
          { role: 'model', parts: [{ executableCode: { language: 'PYTHON', code: 'print(1)' } }, { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } }, { text: 'done' }] },
          { role: 'user', parts: [{ text: 'more' }] },
        ],
        generationConfig: { candidateCount: 2, responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a', 'b'] } },
      },
      { model: 'g' },
    );
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.deepEqual(r.value.messages[0].content, [{ type: 'text', text: 'a text file' }, { type: 'text', text: 'Describe them.' }]);
    assert.deepEqual(r.value.messages[1].content, [{ type: 'text', text: 'done' }]);
    assert.equal(r.value.candidates, 2);
    assert.equal(r.value.responseFormat, undefined);
  });

  it('keys tool results by name, looked up from the call id, and wraps non-object results', () => {
    const up = geminiWire.buildUpstreamRequest(
      req({
        stream: false,
        messages: [
          { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }] },
          {
            role: 'tool',
            content: [
              { type: 'tool_result', toolCallId: 'c1', content: '[1,2]' },
              { type: 'tool_result', toolCallId: 'c1', content: 'down', isError: true },
            ],
          },
        ],
      }),
      'g',
    );
    assert.deepEqual(up.body.contents, [
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'lookup', args: { q: 'x' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'lookup', response: { result: '[1,2]' } } },
          { functionResponse: { id: 'c1', name: 'lookup', response: { error: 'down' } } },
        ],
      },
    ]);
  });

  it('renders native error bodies with the RPC status for each HTTP status', () => {
    assert.deepEqual(geminiWire.renderError(401, 'invalid_api_key', 'bad key'), {
      error: {
        code: 401,
        message: 'bad key',
        status: 'UNAUTHENTICATED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'INVALID_API_KEY', domain: 'switchboard' }],
      },
    });
    const st = (s: number) => (geminiWire.renderError(s, 'c', 'm').error as { status: string }).status;
    assert.deepEqual([400, 402, 403, 404, 429, 500, 502, 503, 504].map(st), [
      'INVALID_ARGUMENT',
      'FAILED_PRECONDITION',
      'PERMISSION_DENIED',
      'NOT_FOUND',
      'RESOURCE_EXHAUSTED',
      'INTERNAL',
      'UNAVAILABLE',
      'UNAVAILABLE',
      'DEADLINE_EXCEEDED',
    ]);
  });
});

// D19, issue 23 item 1: the vendor-prefixed proxies pass every field the vendor's current API
// accepts. The field lists are read from the official SDKs' own request types (their .d.ts files),
// so an SDK upgrade that adds a field fails here until the request below carries it too. Each
// request goes through the official SDK to the vendor-prefixed route and must answer 200, with the
// simulated upstream having received every field and content part as the client sent it. The same
// bodies on the generic routes must answer 200 as well (translated or dropped, never refused).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Language, Outcome, type Content } from '@google/genai';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const require_ = createRequire(import.meta.url);
/** A file of an installed package (its `exports` may hide it from require.resolve). */
function packageFile(pkg: string, file: string): string {
  let dir = dirname(require_.resolve(pkg));
  const named = (d: string) => existsSync(join(d, 'package.json')) && readFileSync(join(d, 'package.json'), 'utf8').includes(`"name": "${pkg}"`);
  while (!named(dir)) dir = dirname(dir);
  return readFileSync(join(dir, file), 'utf8');
}

/** The property names of one exported interface in a .d.ts file (its own members, one level). */
function interfaceFields(dts: string, name: string): string[] {
  const start = dts.search(new RegExp(`export (?:declare )?interface ${name} \\{`));
  assert.ok(start >= 0, `${name} is in the SDK's types`);
  const body = dts.slice(start, dts.indexOf('\n}', start));
  return [...body.matchAll(/^ {4}([A-Za-z_]\w*)\??:/gm)].map((m) => m[1]);
}

/** The member type names of an exported union type. */
function unionMembers(dts: string, name: string): string[] {
  const m = new RegExp(`export type ${name} = ([^;]+);`).exec(dts);
  assert.ok(m, `${name} is in the SDK's types`);
  return m[1].split('|').map((s) => s.trim());
}

const last = () => srv.sim.stats.last!;
const PDF = Buffer.from('%PDF-1.4\n%simulated\n').toString('base64');
const WAV = Buffer.from('RIFF....WAVEfmt ').toString('base64');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('chat completions: every field of the openai SDK', () => {
  const dts = packageFile('openai', 'resources/chat/completions/completions.d.ts');
  const body = {
    model: 'gpt-4o-audio-preview',
    messages: [
      { role: 'developer', content: 'Be brief.' },
      { role: 'system', content: [{ type: 'text', text: 'You are helpful.' }] },
      {
        role: 'user',
        name: 'ann',
        content: [
          { type: 'text', text: 'What is in these attachments?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}`, detail: 'low' } },
          { type: 'input_audio', input_audio: { data: WAV, format: 'wav' } },
          { type: 'file', file: { filename: 'a.pdf', file_data: `data:application/pdf;base64,${PDF}` } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        audio: { id: 'audio_1' },
        refusal: null,
        function_call: { name: 'legacy', arguments: '{}' },
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
          { id: 'call_2', type: 'custom', custom: { name: 'patch', input: '*** Begin Patch' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'found' }] },
      { role: 'function', name: 'legacy', content: 'legacy result' },
      { role: 'user', content: 'Go on.' },
    ],
    audio: { voice: 'alloy', format: 'wav' },
    frequency_penalty: 0.1,
    function_call: 'auto',
    functions: [{ name: 'legacy', description: 'old style', parameters: { type: 'object', properties: {} } }],
    logit_bias: { '50256': -100 },
    logprobs: true,
    max_completion_tokens: 200,
    max_tokens: 200,
    metadata: { team: 'a' },
    modalities: ['text', 'audio'],
    n: 2,
    parallel_tool_calls: false,
    prediction: { type: 'content', content: 'expected text' },
    presence_penalty: 0.1,
    prompt_cache_key: 'thread-1',
    prompt_cache_retention: '24h',
    reasoning_effort: 'low',
    response_format: { type: 'text' },
    safety_identifier: 'user-hash',
    seed: 7,
    service_tier: 'flex',
    stop: ['END'],
    store: true,
    stream: false,
    stream_options: null,
    temperature: 0.5,
    tool_choice: { type: 'allowed_tools', allowed_tools: { mode: 'auto', tools: [{ type: 'function', function: { name: 'lookup' } }] } },
    tools: [
      { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { q: { type: 'string' } } }, strict: true } },
      { type: 'custom', custom: { name: 'patch', description: 'apply a patch', format: { type: 'text' } } },
    ],
    top_logprobs: 2,
    top_p: 0.9,
    user: 'end-user-1',
    verbosity: 'low',
    web_search_options: { search_context_size: 'low' },
  };

  test('the request covers every top-level field and content part type the SDK declares', () => {
    const missing = interfaceFields(dts, 'ChatCompletionCreateParamsBase').filter((f) => !(f in body));
    assert.deepEqual(missing, [], 'fields of ChatCompletionCreateParamsBase not sent by this test');
    assert.deepEqual(unionMembers(dts, 'ChatCompletionContentPart').length, 4, 'text, image, input_audio, file');
    assert.equal(unionMembers(dts, 'ChatCompletionMessageParam').length, 6, 'developer, system, user, assistant, tool, function');
  });

  test('the vendor-prefixed proxy answers 200 and the upstream receives every field as sent', async () => {
    const c = new OpenAI({ baseURL: `${srv.url}/v1/chat-proxy/v1`, apiKey: t.key, maxRetries: 0 });
    const r = await c.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.equal(r.model, 'gpt-4o-audio-preview');
    assert.equal(r.system_fingerprint, 'switchboard-sim', "the vendor's answer as it came");
    const got = last().body as Record<string, unknown>;
    for (const [k, v] of Object.entries(body)) {
      if (k === 'model') assert.notEqual(got.model, undefined);
      else assert.deepEqual(got[k], v, `field ${k}`);
    }
  });

  test('streamed too, with the usage frames D6 asks for', async () => {
    const c = new OpenAI({ baseURL: `${srv.url}/v1/chat-proxy/v1`, apiKey: t.key, maxRetries: 0 });
    const s = await c.chat.completions.create({ ...body, n: 1, stream: true, stream_options: { include_usage: true } } as unknown as OpenAI.ChatCompletionCreateParamsStreaming);
    let text = '';
    for await (const ch of s) text += ch.choices[0]?.delta?.content ?? '';
    assert.match(text, /simulated/);
    const got = last().body as Record<string, unknown>;
    assert.deepEqual(got.modalities, ['text', 'audio']);
    assert.deepEqual((got.messages as Array<{ content: unknown }>)[2].content, body.messages[2].content);
  });

  test('the generic route accepts the same request (translated or dropped, never refused)', async () => {
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const r = await c.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    assert.equal(r.choices.length, 1, 'n is dropped when translating');
    assert.match(r.choices[0].message.content ?? '', /simulated/);
  });
});

describe('messages: every field of the @anthropic-ai/sdk', () => {
  const dts = packageFile('@anthropic-ai/sdk', 'resources/messages/messages.d.ts');
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 300,
    cache_control: { type: 'ephemeral' },
    container: null,
    diagnostics: null,
    inference_geo: 'us',
    metadata: { user_id: 'u-1' },
    output_config: { effort: 'low' },
    service_tier: 'standard_only',
    speed: 'standard',
    stop_sequences: ['END'],
    stream: false,
    system: [{ type: 'text', text: 'You are helpful.', cache_control: { type: 'ephemeral', ttl: '1h' } }],
    thinking: { type: 'enabled', budget_tokens: 1024 },
    tool_choice: { type: 'auto', disable_parallel_tool_use: true },
    tools: [
      { name: 'lookup', description: 'find', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, strict: true, defer_loading: false },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 1 },
      { type: 'bash_20250124', name: 'bash' },
    ],
    user_profile_id: 'profile-1',
    workspace_id: 'ws-1',
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Read these.', citations: null },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } },
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, title: 'Report', context: 'Q3', citations: { enabled: true } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'plain text document' } },
          { type: 'document', source: { type: 'url', url: 'https://example.com/report.pdf' } },
          { type: 'document', source: { type: 'content', content: [{ type: 'text', text: 'chunk' }] } },
          { type: 'search_result', source: 'https://example.com', title: 'Hit', content: [{ type: 'text', text: 'found text' }] },
          { type: 'container_upload', file_id: 'file_1' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me look.', signature: 'sig-1' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
          { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [] },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'result' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] },
          { type: 'text', text: 'Summarise.' },
        ],
      },
      { role: 'system', content: [{ type: 'text', text: 'A late system turn.' }] },
    ],
  };

  test('the request covers every top-level field the SDK declares', () => {
    const missing = interfaceFields(dts, 'MessageCreateParamsBase').filter((f) => !(f in body));
    assert.deepEqual(missing, [], 'fields of MessageCreateParamsBase not sent by this test');
    const blocks = new Set(body.messages.flatMap((m) => (m.content as Array<{ type: string }>).map((b) => b.type)));
    for (const b of ['text', 'image', 'document', 'search_result', 'thinking', 'redacted_thinking', 'tool_use', 'tool_result', 'server_tool_use', 'web_search_tool_result', 'container_upload']) {
      assert.ok(blocks.has(b), b);
    }
    assert.ok(unionMembers(dts, 'ContentBlockParam').includes('DocumentBlockParam'));
  });

  for (const [name, base] of [['vendor-prefixed', '/v1/messages-proxy'], ['generic', '']] as const) {
    test(`${name}: answers 200 through the SDK${name === 'vendor-prefixed' ? ', the upstream receiving every field as sent' : ''}`, async () => {
      const c = new Anthropic({ baseURL: srv.url + base, apiKey: t.key, maxRetries: 0 });
      const r = await c.messages.create(body as unknown as Anthropic.MessageCreateParamsNonStreaming);
      assert.equal(r.type, 'message');
      assert.ok(r.content.some((b) => b.type === 'text'));
      const got = last().body as Record<string, unknown>;
      if (name === 'generic') {
        assert.match(JSON.stringify(got), /plain text document/, 'a text document translates to text');
        return;
      }
      for (const [k, v] of Object.entries(body)) {
        // The SDK sends these two as headers (anthropic-user-profile-id, anthropic-workspace-id):
        // they address the vendor account, which is the gateway's, so they are not forwarded.
        if (k === 'user_profile_id' || k === 'workspace_id') assert.equal(last().headers[`anthropic-${k.replace(/_/g, '-')}`], undefined);
        else if (k !== 'model') assert.deepEqual(got[k], v, `field ${k}`);
      }
    });
  }
});

describe('generate content: every config field of the @google/genai SDK', () => {
  const dts = packageFile('@google/genai', 'dist/genai.d.ts');
  /** Fields the SDK itself refuses outside Vertex AI (it throws before sending). */
  const VERTEX_ONLY = ['routingConfig', 'modelSelectionConfig', 'labels', 'audioTimestamp', 'enableEnhancedCivicAnswers', 'modelArmorConfig', 'generationOutputConfig'];
  /** Client-side options the SDK never sends. */
  const CLIENT_ONLY = ['httpOptions', 'abortSignal', 'automaticFunctionCalling'];
  const config: Record<string, unknown> = {
    serviceTier: 'SERVICE_TIER_STANDARD',
    systemInstruction: 'You are helpful.',
    temperature: 0.4,
    topP: 0.9,
    topK: 20,
    candidateCount: 2,
    maxOutputTokens: 300,
    stopSequences: ['END'],
    responseLogprobs: true,
    logprobs: 2,
    presencePenalty: 0.1,
    frequencyPenalty: 0.1,
    seed: 7,
    responseMimeType: 'text/x.enum',
    responseSchema: { type: 'STRING', enum: ['yes', 'no'] },
    responseJsonSchema: undefined,
    safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
    tools: [{ functionDeclarations: [{ name: 'lookup', parametersJsonSchema: { type: 'object', properties: { q: { type: 'string' } } } }] }, { googleSearch: {} }, { codeExecution: {} }, { urlContext: {} }],
    toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
    cachedContent: 'cachedContents/abc',
    responseModalities: ['TEXT'],
    mediaResolution: 'MEDIA_RESOLUTION_LOW',
    speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } } },
    thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
    audioTranscriptionConfig: {},
    imageConfig: { aspectRatio: '1:1' },
    continuationToken: 'tok',
    automaticContinuation: false,
    store: false,
  };
  const contents: Content[] = [
    {
      role: 'user',
      parts: [
        { text: 'Listen, read and watch.' },
        { inlineData: { mimeType: 'audio/wav', data: WAV } },
        { inlineData: { mimeType: 'application/pdf', data: PDF } },
        { inlineData: { mimeType: 'image/png', data: PNG } },
        { fileData: { mimeType: 'video/mp4', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/v1' }, videoMetadata: { startOffset: '1s', endOffset: '5s' } },
        { fileData: { mimeType: 'application/pdf', fileUri: 'https://generativelanguage.googleapis.com/v1beta/files/p1' } },
      ],
    },
    {
      role: 'model',
      parts: [
        { text: 'thinking…', thought: true, thoughtSignature: 'c2ln' },
        { executableCode: { language: Language.PYTHON, code: 'print(1)' } },
        { codeExecutionResult: { outcome: Outcome.OUTCOME_OK, output: '1' } },
        { functionCall: { name: 'lookup', args: { q: 'x' } }, thoughtSignature: 'c2ln' },
      ],
    },
    { role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { result: 'found' } } }, { text: 'Answer yes or no.' }] },
  ];

  test('the request covers every field of GenerateContentConfig and every kind of Part the SDK declares', () => {
    const missing = interfaceFields(dts, 'GenerateContentConfig').filter((f) => !(f in config) && !VERTEX_ONLY.includes(f) && !CLIENT_ONLY.includes(f));
    assert.deepEqual(missing, [], 'fields of GenerateContentConfig not sent by this test');
    const kinds = new Set(contents.flatMap((c) => (c.parts ?? []).flatMap((p) => Object.keys(p))));
    for (const k of ['text', 'inlineData', 'fileData', 'videoMetadata', 'thought', 'thoughtSignature', 'executableCode', 'codeExecutionResult', 'functionCall', 'functionResponse']) assert.ok(kinds.has(k), k);
  });

  test('vendor-prefixed: 200 through the SDK, the upstream receiving every field as sent', async () => {
    const g = new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: `${srv.url}/v1/generate-proxy` } });
    const r = await g.models.generateContent({ model: 'gemini-2.5-pro', contents, config });
    assert.ok(r.candidates && r.candidates.length > 0);
    const got = last().body as { contents: unknown; generationConfig: Record<string, unknown>; tools: unknown; safetySettings: unknown; cachedContent: unknown; systemInstruction: unknown };
    assert.deepEqual(got.contents, contents, 'every part as sent');
    assert.deepEqual(got.tools, config.tools);
    assert.deepEqual(got.safetySettings, config.safetySettings);
    assert.equal(got.cachedContent, 'cachedContents/abc');
    for (const k of ['candidateCount', 'responseMimeType', 'responseSchema', 'thinkingConfig', 'speechConfig', 'mediaResolution', 'responseModalities', 'seed', 'responseLogprobs', 'logprobs', 'imageConfig']) {
      assert.deepEqual(got.generationConfig[k], config[k], `generationConfig.${k}`);
    }
  });

  test('generic: the same request answers 200 (translated or dropped)', async () => {
    const g = new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: `${srv.url}/v1/generate` } });
    const r = await g.models.generateContent({ model: 'gemini-2.5-pro', contents, config });
    assert.ok(r.candidates && r.candidates.length > 0);
  });
});

// Chat Completions requests, both directions: validate a client body into the canonical request,
// and build the body sent to any provider speaking this wire (its originator and its adopters).
// System and developer messages become the canonical system text; consecutive `tool` messages
// become one canonical tool turn, so wires that batch tool results round-trip cleanly.
import type {
  CanonicalRequest,
  ContentPart,
  ImagePart,
  Message,
  ResponseFormat,
  Result,
  TextPart,
  ToolCallPart,
  ToolChoice,
  ToolDef,
  ToolResultPart,
} from '../../core/canonical/types.ts';
import type { UpstreamOptions, UpstreamRequest } from '../types.ts';
import { imageFromUrl, imageToUrl } from '../util.ts';
import {
  arr,
  bad,
  guard,
  obj,
  oneOf,
  optArr,
  optBool,
  optNum,
  optObj,
  optStr,
  str,
  strList,
  type Obj,
} from '../validate.ts';

export const CHAT_PATH = '/v1/chat/completions';

/** Added to the system text when JSON mode is asked for but no message says "JSON": the
 * chat-completions wire rejects json_object requests that never mention JSON. */
export const JSON_MODE_HINT = 'Respond in JSON.';

export function parseRequest(body: unknown): Result<CanonicalRequest> {
  return guard(() => parse(obj(body, 'body')));
}

function parse(b: Obj): CanonicalRequest {
  const model = str(b.model, 'model');
  // Accepted by the vendor, no canonical equivalent (D19): the deprecated `functions` API and its
  // `function` turns are dropped when translating (passed through on the vendor-prefixed proxy);
  // `n` is kept so a pass-through reservation covers every choice.
  const n = optNum(b.n, 'n', { int: true, min: 1 });

  const rawMessages = arr(b.messages, 'messages');
  if (rawMessages.length === 0) bad('messages', 'a non-empty array');
  const system: string[] = [];
  const messages: Message[] = [];
  rawMessages.forEach((raw, i) => {
    const at = `messages[${i}]`;
    const m = obj(raw, at);
    const role = oneOf(m.role, `${at}.role`, ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const);
    switch (role) {
      case 'system':
      case 'developer':
        system.push(textContent(m.content, `${at}.content`));
        return;
      case 'user':
        messages.push({ role: 'user', content: userContent(m.content, `${at}.content`) });
        return;
      case 'assistant':
        messages.push({ role: 'assistant', content: assistantContent(m, at) });
        return;
      case 'tool': {
        const part: ToolResultPart = {
          type: 'tool_result',
          toolCallId: str(m.tool_call_id, `${at}.tool_call_id`),
          content: textContent(m.content, `${at}.content`),
        };
        const last = messages[messages.length - 1];
        if (last && last.role === 'tool') last.content.push(part);
        else messages.push({ role: 'tool', content: [part] });
        return;
      }
      case 'function':
        return;
    }
  });

  const req: CanonicalRequest = {
    shape: 'openai',
    model,
    messages,
    stream: optBool(b.stream, 'stream') ?? false,
  };
  if (system.length > 0) req.system = system.join('\n\n');
  if (n !== undefined && n > 1) req.candidates = n;
  // Reasoning models think before answering; this wire reports only the tokens spent.
  const effort = optStr(b.reasoning_effort, 'reasoning_effort');
  if (effort !== undefined && effort !== 'none') req.reasoning = { visible: false, effort };

  const tools = optArr(b.tools, 'tools');
  // Tools the vendor runs itself (server tools) have no equivalent elsewhere: dropped (D19).
  const defs = (tools ?? []).flatMap((t, i) => toolDef(t, `tools[${i}]`) ?? []);
  if (defs.length > 0) req.tools = defs;
  if (b.tool_choice !== undefined && b.tool_choice !== null) req.toolChoice = toolChoice(b.tool_choice);
  const parallel = optBool(b.parallel_tool_calls, 'parallel_tool_calls');
  if (parallel !== undefined) req.parallelToolCalls = parallel;

  const rf = optObj(b.response_format, 'response_format');
  if (rf) req.responseFormat = responseFormat(rf);

  const maxTokens =
    optNum(b.max_completion_tokens, 'max_completion_tokens', { int: true, min: 1 }) ??
    optNum(b.max_tokens, 'max_tokens', { int: true, min: 1 });
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  const temperature = optNum(b.temperature, 'temperature', { min: 0, max: 2 });
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNum(b.top_p, 'top_p', { min: 0, max: 1 });
  if (topP !== undefined) req.topP = topP;
  const stop = strList(b.stop, 'stop');
  if (stop && stop.length > 0) req.stop = stop;
  const so = optObj(b.stream_options, 'stream_options');
  if (so) {
    const inc = optBool(so.include_usage, 'stream_options.include_usage');
    if (inc !== undefined) req.includeUsage = inc;
  }
  return req;
}

/** Content that must be text: a string or an array of text parts (system, developer, tool). */
function textContent(v: unknown, at: string): string {
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  return arr(v, at)
    .map((p, j) => {
      const part = obj(p, `${at}[${j}]`);
      if (part.type !== 'text') bad(`${at}[${j}].type`, "'text'");
      return str(part.text, `${at}[${j}].text`);
    })
    .join('');
}

function userContent(v: unknown, at: string): ContentPart[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  if (!Array.isArray(v)) bad(at, 'a string or an array of content parts', v);
  return v.flatMap((p, j): ContentPart[] => {
    const pat = `${at}[${j}]`;
    const part = obj(p, pat);
    const type = str(part.type, `${pat}.type`);
    if (type === 'text') return [{ type: 'text', text: str(part.text, `${pat}.text`) }];
    if (type === 'image_url') {
      const iu = part.image_url;
      const url = typeof iu === 'string' ? iu : str(obj(iu, `${pat}.image_url`).url, `${pat}.image_url.url`);
      return [imageFromUrl(url)];
    }
    // `input_audio`, `file` and any newer part: no canonical equivalent, dropped (D19).
    return [];
  });
}

function assistantContent(m: Obj, at: string): ContentPart[] {
  const out: ContentPart[] = [];
  const c = m.content;
  if (typeof c === 'string') {
    if (c !== '') out.push({ type: 'text', text: c });
  } else if (Array.isArray(c)) {
    c.forEach((p, j) => {
      const part = obj(p, `${at}.content[${j}]`);
      const type = str(part.type, `${at}.content[${j}].type`);
      if (type === 'text') out.push({ type: 'text', text: str(part.text, `${at}.content[${j}].text`) });
      else if (type === 'refusal') out.push({ type: 'text', text: str(part.refusal, `${at}.content[${j}].refusal`) });
    });
  } else if (c !== null && c !== undefined) {
    bad(`${at}.content`, 'a string, null or an array of text parts', c);
  }
  const calls = optArr(m.tool_calls, `${at}.tool_calls`) ?? [];
  calls.forEach((raw, k) => {
    const tat = `${at}.tool_calls[${k}]`;
    const tc = obj(raw, tat);
    // A call of a `custom` tool: those tools are dropped when translating, so are their calls.
    if (tc.type !== undefined && tc.type !== 'function') return;
    const fn = obj(tc.function, `${tat}.function`);
    out.push({
      type: 'tool_call',
      id: str(tc.id, `${tat}.id`),
      name: str(fn.name, `${tat}.function.name`),
      arguments: optStr(fn.arguments, `${tat}.function.arguments`) ?? '{}',
    });
  });
  return out;
}

function toolDef(raw: unknown, at: string): ToolDef | null {
  const t = obj(raw, at);
  if (t.type !== 'function') return null;
  const fn = obj(t.function, `${at}.function`);
  const def: ToolDef = {
    name: str(fn.name, `${at}.function.name`),
    parameters: optObj(fn.parameters, `${at}.function.parameters`) ?? { type: 'object', properties: {} },
  };
  const description = optStr(fn.description, `${at}.function.description`);
  if (description !== undefined) def.description = description;
  return def;
}

function toolChoice(v: unknown): ToolChoice {
  if (typeof v === 'string') return oneOf(v, 'tool_choice', ['auto', 'none', 'required'] as const);
  const o = obj(v, 'tool_choice');
  // `allowed_tools` and `custom` choices have no canonical equivalent: the default (auto).
  if (o.type !== 'function') return 'auto';
  return { name: str(obj(o.function, 'tool_choice.function').name, 'tool_choice.function.name') };
}

function responseFormat(rf: Obj): ResponseFormat {
  const type = oneOf(rf.type, 'response_format.type', ['text', 'json_object', 'json_schema'] as const);
  if (type === 'text') return { type: 'text' };
  if (type === 'json_object') return { type: 'json' };
  const js = obj(rf.json_schema, 'response_format.json_schema');
  const out: ResponseFormat = {
    type: 'json_schema',
    schema: optObj(js.schema, 'response_format.json_schema.schema') ?? { type: 'object' },
  };
  const name = optStr(js.name, 'response_format.json_schema.name');
  if (name !== undefined) out.name = name;
  const strict = optBool(js.strict, 'response_format.json_schema.strict');
  if (strict !== undefined) out.strict = strict;
  return out;
}

// ---- canonical → upstream body ----

export function buildUpstreamRequest(
  req: CanonicalRequest,
  upstreamModel: string,
  opts: UpstreamOptions = {},
): UpstreamRequest {
  const messages: Obj[] = [];
  let system = req.system;
  if (req.responseFormat?.type === 'json' && !mentionsJson(req)) {
    system = system ? `${system}\n\n${JSON_MODE_HINT}` : JSON_MODE_HINT;
  }
  if (system !== undefined) messages.push({ role: 'system', content: system });
  for (const m of req.messages) messages.push(...renderMessage(m));

  const body: Obj = { model: upstreamModel, messages };
  if (req.maxTokens !== undefined) body[opts.maxTokensField ?? 'max_tokens'] = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.stop && req.stop.length > 0) body.stop = req.stop;
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      type: 'function',
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.parameters,
      },
    }));
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  }
  if (req.toolChoice !== undefined) {
    body.tool_choice =
      typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', function: { name: req.toolChoice.name } };
  }
  const rf = req.responseFormat;
  if (rf?.type === 'json') body.response_format = { type: 'json_object' };
  else if (rf?.type === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: rf.name ?? 'response',
        schema: rf.schema,
        ...(rf.strict !== undefined ? { strict: rf.strict } : {}),
      },
    };
  }
  if (req.stream) {
    body.stream = true;
    if (opts.streamUsage ?? true) body.stream_options = { include_usage: true };
  }
  return { path: CHAT_PATH, body, stream: req.stream };
}

function mentionsJson(req: CanonicalRequest): boolean {
  if (req.system && /json/i.test(req.system)) return true;
  return req.messages.some((m) => m.content.some((p) => p.type === 'text' && /json/i.test(p.text)));
}

function renderMessage(m: Message): Obj[] {
  if (m.role === 'tool') {
    return m.content
      .filter((p): p is ToolResultPart => p.type === 'tool_result')
      .map((p) => ({ role: 'tool', tool_call_id: p.toolCallId, content: p.content }));
  }
  if (m.role === 'assistant') {
    const text = m.content
      .filter((p): p is TextPart => p.type === 'text')
      .map((p) => p.text)
      .join('');
    const calls = m.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
    const out: Obj = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) {
      out.tool_calls = calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }));
    }
    return [out];
  }
  // A user turn may carry tool results when another wire batched them with text; the
  // chat-completions wire wants those as `tool` messages ahead of the user text.
  const results = m.content.filter((p): p is ToolResultPart => p.type === 'tool_result');
  const rest = m.content.filter((p) => p.type === 'text' || p.type === 'image') as Array<TextPart | ImagePart>;
  const out: Obj[] = results.map((p) => ({ role: 'tool', tool_call_id: p.toolCallId, content: p.content }));
  if (rest.length === 1 && rest[0].type === 'text') out.push({ role: 'user', content: rest[0].text });
  else if (rest.length > 0) {
    out.push({
      role: 'user',
      content: rest.map((p) =>
        p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: imageToUrl(p) } },
      ),
    });
  }
  return out;
}

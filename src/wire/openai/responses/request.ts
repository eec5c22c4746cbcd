// Responses API requests (D19), both directions. `input` is a string or a list of items: messages
// (user, assistant, and system/developer, whose text joins `instructions` as the system text),
// function calls and their outputs (canonical tool turns), and reasoning items (canonical reasoning
// parts: their encrypted_content goes back only to a Responses API provider, wire/reasoning.ts).
// Hosted tools (web search, file
// search, code interpreter, namespaces…) have no canonical equivalent and are dropped; a custom
// (free-form) tool becomes a function taking one string `input`.
import type {
  CanonicalRequest,
  ContentPart,
  Message,
  ResponseFormat,
  Result,
  ToolChoice,
  ToolDef,
} from '../../../core/canonical/types.ts';
import type { ParseContext, UpstreamOptions, UpstreamRequest } from '../../types.ts';
import { reasoningPart, signatureFor } from '../../reasoning.ts';
import { imageFromUrl, imageToUrl, pushMerged } from '../../util.ts';
import { arr, bad, guard, isObj, num, obj, oneOf, optArr, optBool, optNum, optObj, optStr, str, type Obj } from '../../validate.ts';

export const RESPONSES_PATH = '/v1/responses';

/** The argument a custom (free-form) tool's text travels in as a function. */
export const CUSTOM_INPUT = 'input';

export function parseRequest(body: unknown, ctx?: ParseContext): Result<CanonicalRequest> {
  return guard(() => parse(obj(body, 'body'), ctx));
}

function textOfParts(v: unknown, at: string): string {
  if (typeof v === 'string') return v;
  return arr(v, at)
    .map((p, i) => {
      const o = obj(p, `${at}[${i}]`);
      return typeof o.text === 'string' ? o.text : '';
    })
    .join('');
}

function contentParts(v: unknown, at: string): ContentPart[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  return arr(v, at).flatMap((raw, i): ContentPart[] => {
    const pat = `${at}[${i}]`;
    const p = obj(raw, pat);
    const type = str(p.type, `${pat}.type`);
    if (type === 'input_text' || type === 'output_text' || type === 'text') return [{ type: 'text', text: str(p.text, `${pat}.text`) }];
    if (type === 'refusal') return [{ type: 'text', text: str(p.refusal, `${pat}.refusal`) }];
    if (type === 'input_image') {
      const url = optStr(p.image_url, `${pat}.image_url`);
      // An image held by the vendor's Files API (`file_id`) has no equivalent elsewhere: dropped.
      return url === undefined ? [] : [imageFromUrl(url)];
    }
    // `input_file`, `input_audio` and newer parts: no canonical equivalent, dropped (D19).
    return [];
  });
}

function parse(b: Obj, ctx?: ParseContext): CanonicalRequest {
  const model = optStr(b.model, 'model') ?? '';
  const system: string[] = [];
  const instructions = optStr(b.instructions, 'instructions');
  if (instructions) system.push(instructions);

  const messages: Message[] = ctx?.history ? ctx.history.map((m) => ({ role: m.role, content: [...m.content] })) : [];
  const push = (m: Message) => pushMerged(messages, m);
  const input = b.input;
  if (typeof input === 'string') push({ role: 'user', content: [{ type: 'text', text: input }] });
  else if (input !== undefined && input !== null) {
    arr(input, 'input').forEach((raw, i) => {
      const at = `input[${i}]`;
      const it = obj(raw, at);
      const type = it.type === undefined || it.type === null ? 'message' : str(it.type, `${at}.type`);
      switch (type) {
        case 'message': {
          const role = oneOf(it.role, `${at}.role`, ['user', 'assistant', 'system', 'developer'] as const);
          if (role === 'system' || role === 'developer') {
            const text = textOfParts(it.content, `${at}.content`);
            if (text) system.push(text);
            return;
          }
          push({ role, content: contentParts(it.content, `${at}.content`) });
          return;
        }
        case 'function_call':
          push({
            role: 'assistant',
            content: [{ type: 'tool_call', id: str(it.call_id, `${at}.call_id`), name: str(it.name, `${at}.name`), arguments: str(it.arguments, `${at}.arguments`) }],
          });
          return;
        case 'custom_tool_call':
          push({
            role: 'assistant',
            content: [
              {
                type: 'tool_call',
                id: str(it.call_id, `${at}.call_id`),
                name: str(it.name, `${at}.name`),
                arguments: JSON.stringify({ [CUSTOM_INPUT]: str(it.input, `${at}.input`) }),
              },
            ],
          });
          return;
        case 'reasoning': {
          // The model's earlier reasoning, as Codex sends it back: its summary (or raw reasoning
          // text) and its encrypted_content, which only a Responses API provider can read.
          const texts = [...(optArr(it.summary, `${at}.summary`) ?? []), ...(optArr(it.content, `${at}.content`) ?? [])].map((x, j) => {
            const o = obj(x, `${at}.summary[${j}]`);
            return typeof o.text === 'string' ? o.text : '';
          });
          const part = reasoningPart(texts.filter((t) => t !== '').join('\n\n'), optStr(it.encrypted_content, `${at}.encrypted_content`), 'responses');
          if (part.text !== '' || part.signature !== undefined) push({ role: 'assistant', content: [part] });
          return;
        }
        case 'function_call_output':
        case 'custom_tool_call_output':
          push({ role: 'tool', content: [{ type: 'tool_result', toolCallId: str(it.call_id, `${at}.call_id`), content: textOfParts(it.output, `${at}.output`) }] });
          return;
        default:
          // `compaction` (a vendor's encrypted summary of earlier turns), hosted-tool calls and
          // their outputs: nothing here runs or stores them, dropped (D19). (`item_reference` is
          // resolved from the stored responses before the request is read: the route's job.)
          return;
      }
    });
  }
  // A user message with no content parts gives the model nothing either (hostile-input found one
  // reaching the upstream and leaving a call-log row behind its 400).
  if (!messages.some((m) => (m.role === 'user' && m.content.length > 0) || m.role === 'tool')) {
    bad(
      'input',
      'at least one user message or function call output (compaction and hosted-tool items are not kept here, and reasoning, assistant or referenced output items alone leave the model nothing to answer; send the items themselves, or continue a stored response with previous_response_id)',
    );
  }

  const req: CanonicalRequest = { shape: 'openai', model, messages, stream: optBool(b.stream, 'stream') ?? false };
  if (system.length > 0) req.system = system.join('\n\n');
  const reasoning = optObj(b.reasoning, 'reasoning');
  if (reasoning && reasoning.effort !== 'none') {
    req.reasoning = { visible: typeof reasoning.summary === 'string' };
    const effort = optStr(reasoning.effort, 'reasoning.effort');
    if (effort !== undefined) req.reasoning.effort = effort;
  }
  const maxTokens = optNum(b.max_output_tokens, 'max_output_tokens', { int: true, min: 1 });
  if (maxTokens !== undefined) req.maxTokens = maxTokens;
  const temperature = optNum(b.temperature, 'temperature', { min: 0, max: 2 });
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNum(b.top_p, 'top_p', { min: 0, max: 1 });
  if (topP !== undefined) req.topP = topP;
  const parallel = optBool(b.parallel_tool_calls, 'parallel_tool_calls');

  const tools: ToolDef[] = [];
  if (b.tools !== undefined && b.tools !== null) {
    arr(b.tools, 'tools').forEach((raw, i) => {
      const t = obj(raw, `tools[${i}]`);
      const type = str(t.type, `tools[${i}].type`);
      if (type === 'function') {
        const def: ToolDef = { name: str(t.name, `tools[${i}].name`), parameters: optObj(t.parameters, `tools[${i}].parameters`) ?? { type: 'object', properties: {} } };
        const d = optStr(t.description, `tools[${i}].description`);
        if (d !== undefined) def.description = d;
        tools.push(def);
      } else if (type === 'custom') {
        const def: ToolDef = {
          name: str(t.name, `tools[${i}].name`),
          parameters: { type: 'object', properties: { [CUSTOM_INPUT]: { type: 'string' } }, required: [CUSTOM_INPUT] },
        };
        const d = optStr(t.description, `tools[${i}].description`);
        if (d !== undefined) def.description = d;
        tools.push(def);
      }
      // Hosted tools (web_search, file_search, namespace, mcp…) are dropped: nothing to run them.
    });
  }
  if (tools.length > 0) {
    req.tools = tools;
    if (parallel !== undefined) req.parallelToolCalls = parallel;
    const tc = b.tool_choice;
    if (typeof tc === 'string') req.toolChoice = oneOf(tc, 'tool_choice', ['auto', 'none', 'required'] as const);
    else if (isObj(tc) && tc.type === 'function') req.toolChoice = { name: str(tc.name, 'tool_choice.name') } satisfies ToolChoice;
  }

  const text = optObj(b.text, 'text');
  const format = text ? optObj(text.format, 'text.format') : undefined;
  if (format) {
    const ft = oneOf(format.type, 'text.format.type', ['text', 'json_object', 'json_schema'] as const);
    let rf: ResponseFormat | undefined;
    if (ft === 'json_object') rf = { type: 'json' };
    else if (ft === 'json_schema') {
      rf = { type: 'json_schema', schema: obj(format.schema, 'text.format.schema') };
      const name = optStr(format.name, 'text.format.name');
      if (name !== undefined) rf.name = name;
      const strict = optBool(format.strict, 'text.format.strict');
      if (strict !== undefined) rf.strict = strict;
    }
    if (rf) req.responseFormat = rf;
  }
  if (b.max_tool_calls !== undefined && b.max_tool_calls !== null) num(b.max_tool_calls, 'max_tool_calls', { int: true, min: 0 });
  return req;
}

// ---- canonical → upstream body (a provider that speaks the Responses API) ----

export function buildUpstreamRequest(req: CanonicalRequest, upstreamModel: string, _opts: UpstreamOptions = {}): UpstreamRequest {
  const input: Obj[] = [];
  for (const m of req.messages) {
    if (m.role === 'tool') {
      for (const p of m.content) if (p.type === 'tool_result') input.push({ type: 'function_call_output', call_id: p.toolCallId, output: p.content });
      continue;
    }
    const parts: Obj[] = [];
    for (const p of m.content) {
      if (p.type === 'reasoning') {
        // Only this wire's own encrypted reasoning goes back (without an id: nothing is stored
        // upstream, store is false); other reasoning cannot be read by this vendor.
        const encrypted = signatureFor(p, 'responses');
        if (encrypted === undefined) continue;
        if (parts.length > 0) input.push({ type: 'message', role: m.role, content: parts.splice(0) });
        input.push({ type: 'reasoning', summary: p.text === '' ? [] : [{ type: 'summary_text', text: p.text }], encrypted_content: encrypted });
      } else if (p.type === 'text') parts.push({ type: m.role === 'assistant' ? 'output_text' : 'input_text', text: p.text });
      else if (p.type === 'image') parts.push({ type: 'input_image', image_url: imageToUrl(p) });
      else if (p.type === 'tool_call') {
        if (parts.length > 0) input.push({ type: 'message', role: m.role, content: parts.splice(0) });
        input.push({ type: 'function_call', call_id: p.id, name: p.name, arguments: p.arguments });
      }
    }
    if (parts.length > 0) input.push({ type: 'message', role: m.role, content: parts });
  }
  const body: Obj = { model: upstreamModel, input, store: false };
  if (req.system !== undefined) body.instructions = req.system;
  if (req.maxTokens !== undefined) body.max_output_tokens = req.maxTokens;
  if (req.temperature !== undefined) body.temperature = req.temperature;
  if (req.topP !== undefined) body.top_p = req.topP;
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({ type: 'function', name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.parameters }));
    const tc = req.toolChoice;
    if (tc !== undefined) body.tool_choice = typeof tc === 'string' ? tc : { type: 'function', name: tc.name };
    if (req.parallelToolCalls !== undefined) body.parallel_tool_calls = req.parallelToolCalls;
  }
  const rf = req.responseFormat;
  if (rf?.type === 'json') body.text = { format: { type: 'json_object' } };
  else if (rf?.type === 'json_schema') {
    body.text = { format: { type: 'json_schema', name: rf.name ?? 'response', schema: rf.schema, ...(rf.strict !== undefined ? { strict: rf.strict } : {}) } };
  }
  if (req.reasoning) {
    // Nothing is stored upstream, so the reasoning comes back encrypted to be sent on the next turn.
    body.reasoning = { ...(req.reasoning.effort !== undefined ? { effort: req.reasoning.effort } : {}), ...(req.reasoning.visible ? { summary: 'auto' } : {}) };
    body.include = ['reasoning.encrypted_content'];
  }
  if (req.stream) body.stream = true;
  return { path: RESPONSES_PATH, body, stream: req.stream };
}

// Responses API bodies, both directions: the `response` object a client receives (also the
// payload of the stream's created/in_progress/completed events), and one read from an upstream.
// Output items: one `message` with an `output_text` part for the answer's text, one
// `function_call` (or `custom_tool_call` for a free-form tool) per tool call.
import {
  fail,
  ok,
  type CanonicalRequest,
  type CanonicalResponse,
  type FinishReason,
  type Message,
  type ReasoningPart,
  type Result,
  type TextPart,
  type ToolCallPart,
  type Usage,
} from '../../../core/canonical/types.ts';
import { signatureOut } from '../../reasoning.ts';
import { argsToObject, nowSeconds, randomId, withPrefix } from '../../util.ts';
import { isObj, type Obj } from '../../validate.ts';
import { CUSTOM_INPUT } from './request.ts';

export const RESPONSE_PREFIX = 'resp_';

/** Request facts a response echoes that the canonical call does not carry. */
export interface ResponsesEcho {
  store?: boolean;
  previousResponseId?: string | null;
  /** Names of the request's custom (free-form) tools: their calls render as custom_tool_call. */
  customTools?: ReadonlySet<string>;
  reasoning?: Obj | null;
  /** The request's `include`: `reasoning.encrypted_content` shows reasoning items' encrypted_content. */
  include?: readonly string[];
  metadata?: Obj | null;
  promptCacheKey?: string;
}

export const responseId = (id: string): string => withPrefix(id.replace(/[^A-Za-z0-9_-]/g, ''), RESPONSE_PREFIX);

export function usageToWire(u: Usage): Obj {
  return {
    input_tokens: u.inputTokens,
    input_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0 },
    output_tokens: u.outputTokens,
    output_tokens_details: { reasoning_tokens: u.reasoningTokens ?? 0 },
    total_tokens: u.inputTokens + u.outputTokens,
  };
}

export function usageFromWire(v: unknown): Usage | undefined {
  if (!isObj(v)) return undefined;
  const n = (x: unknown): number => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : 0);
  const u: Usage = { inputTokens: n(v.input_tokens), outputTokens: n(v.output_tokens) };
  const d = v.input_tokens_details;
  if (isObj(d) && n(d.cached_tokens) > 0) u.cachedInputTokens = n(d.cached_tokens);
  const o = v.output_tokens_details;
  if (isObj(o) && n(o.reasoning_tokens) > 0) u.reasoningTokens = n(o.reasoning_tokens);
  return u;
}

export function messageItem(id: string, text: string, status: 'in_progress' | 'completed'): Obj {
  return {
    id,
    type: 'message',
    status,
    role: 'assistant',
    content: status === 'completed' ? [{ type: 'output_text', text, annotations: [], logprobs: [] }] : [],
  };
}

/** Canonical reasoning as one output item shows it. */
export type Reasoning = NonNullable<CanonicalResponse['reasoning']>;

/**
 * A reasoning item: its summary when one was asked for (the `reasoning.summary` setting), else
 * none; its encrypted_content when the request's `include` asked for it (wrapped when another
 * wire's provider made it, wire/reasoning.ts).
 */
export function reasoningItem(id: string, r: Reasoning, status: 'in_progress' | 'completed', echo: ResponsesEcho): Obj {
  const item: Obj = { id, type: 'reasoning', summary: r.text === '' || status !== 'completed' ? [] : [{ type: 'summary_text', text: r.text }] };
  if (echo.include?.includes('reasoning.encrypted_content')) item.encrypted_content = status === 'completed' ? (signatureOut(r, 'responses') ?? null) : null;
  item.status = status;
  return item;
}

export function callItem(id: string, call: { id: string; name: string; arguments: string }, status: 'in_progress' | 'completed', echo: ResponsesEcho): Obj {
  if (echo.customTools?.has(call.name)) {
    const input = argsToObject(call.arguments)[CUSTOM_INPUT];
    return { id: id.replace(/^fc_/, 'ctc_'), type: 'custom_tool_call', status, call_id: call.id, name: call.name, input: typeof input === 'string' ? input : '' };
  }
  return { id, type: 'function_call', status, call_id: call.id, name: call.name, arguments: call.arguments };
}

/** The `response` object around a list of output items. */
export function responseObject(
  id: string,
  req: CanonicalRequest,
  echo: ResponsesEcho,
  output: Obj[],
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed',
  usage: Usage | null,
  createdAt: number,
  finishReason?: FinishReason,
): Obj {
  const text = output
    .filter((o) => o.type === 'message')
    .flatMap((o) => (o.content as Obj[]).map((c) => (typeof c.text === 'string' ? c.text : '')))
    .join('');
  return {
    id,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    completed_at: status === 'completed' ? nowSeconds() : null,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: finishReason === 'content_filter' ? 'content_filter' : 'max_output_tokens' } : null,
    instructions: req.system ?? null,
    max_output_tokens: req.maxTokens ?? null,
    model: req.model,
    output,
    output_text: text,
    parallel_tool_calls: req.parallelToolCalls ?? true,
    previous_response_id: echo.previousResponseId ?? null,
    prompt_cache_key: echo.promptCacheKey ?? null,
    reasoning: echo.reasoning ?? { effort: null, summary: null },
    metadata: echo.metadata ?? {},
    service_tier: 'default',
    store: echo.store ?? true,
    temperature: req.temperature ?? 1,
    text: { format: formatEcho(req), verbosity: 'medium' },
    tool_choice: req.toolChoice === undefined ? 'auto' : typeof req.toolChoice === 'string' ? req.toolChoice : { type: 'function', name: req.toolChoice.name },
    tools: (req.tools ?? []).map((t) =>
      echo.customTools?.has(t.name)
        ? { type: 'custom', name: t.name, description: t.description ?? null }
        : { type: 'function', name: t.name, description: t.description ?? null, parameters: t.parameters, strict: false },
    ),
    top_p: req.topP ?? 1,
    truncation: 'disabled',
    usage: usage ? usageToWire(usage) : null,
    user: null,
  };
}

function formatEcho(req: CanonicalRequest): Obj {
  const rf = req.responseFormat;
  if (rf?.type === 'json') return { type: 'json_object' };
  if (rf?.type === 'json_schema') return { type: 'json_schema', name: rf.name ?? 'response', schema: rf.schema, strict: rf.strict ?? false };
  return { type: 'text' };
}

export const statusOf = (f: FinishReason): 'completed' | 'incomplete' => (f === 'length' || f === 'content_filter' ? 'incomplete' : 'completed');

export function renderResponse(res: CanonicalResponse, req: CanonicalRequest, echo: ResponsesEcho = {}): Obj {
  const id = responseId(res.id);
  const body = id.slice(RESPONSE_PREFIX.length);
  const output: Obj[] = [];
  if (res.reasoning) output.push(reasoningItem(`rs_${body}`, res.reasoning, 'completed', echo));
  const text = res.content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('');
  if (text !== '') output.push(messageItem(`msg_${body}`, text, 'completed'));
  res.content.forEach((p, i) => {
    if (p.type === 'tool_call') output.push(callItem(`fc_${body}${i}`, p, 'completed', echo));
  });
  return responseObject(id, req, echo, output, statusOf(res.finishReason), res.usage, nowSeconds(), res.finishReason);
}

/**
 * A rendered response's output as canonical turns, to continue the conversation from it.
 * `reasoning`: the canonical reasoning behind the output's reasoning item (its signature, which
 * the client may not have been shown), kept so a continued response sends it back upstream.
 */
export function outputToMessages(output: unknown, reasoning?: Reasoning | null): Message[] {
  const content: Array<TextPart | ToolCallPart | ReasoningPart> = [];
  for (const it of Array.isArray(output) ? output : []) {
    if (!isObj(it)) continue;
    if (it.type === 'reasoning') {
      if (reasoning) content.push({ type: 'reasoning', text: reasoning.text, ...(reasoning.signature !== undefined ? { signature: reasoning.signature, origin: reasoning.origin ?? 'responses' } : {}) });
      else {
        const text = (Array.isArray(it.summary) ? it.summary : []).map((x) => (isObj(x) && typeof x.text === 'string' ? x.text : '')).join('\n\n');
        const encrypted = typeof it.encrypted_content === 'string' && it.encrypted_content !== '' ? it.encrypted_content : undefined;
        if (text !== '' || encrypted !== undefined) content.push({ type: 'reasoning', text, ...(encrypted !== undefined ? { signature: encrypted, origin: 'responses' as const } : {}) });
      }
    } else if (it.type === 'message' && Array.isArray(it.content)) {
      for (const c of it.content) if (isObj(c) && typeof c.text === 'string' && c.text !== '') content.push({ type: 'text', text: c.text });
    } else if (it.type === 'function_call' && typeof it.call_id === 'string' && typeof it.name === 'string') {
      content.push({ type: 'tool_call', id: it.call_id, name: it.name, arguments: typeof it.arguments === 'string' ? it.arguments : '{}' });
    } else if (it.type === 'custom_tool_call' && typeof it.call_id === 'string' && typeof it.name === 'string') {
      content.push({ type: 'tool_call', id: it.call_id, name: it.name, arguments: JSON.stringify({ [CUSTOM_INPUT]: it.input ?? '' }) });
    }
  }
  return content.length > 0 ? [{ role: 'assistant', content }] : [];
}

export function parseUpstreamResponse(body: unknown): Result<CanonicalResponse> {
  if (!isObj(body)) return fail('upstream_invalid', 'response body is not an object');
  if (isObj(body.error)) return fail('upstream_error', typeof body.error.message === 'string' ? body.error.message : 'upstream error');
  const [message] = outputToMessages(body.output);
  const parts = message?.content ?? [];
  const content = parts.filter((p): p is TextPart | ToolCallPart => p.type === 'text' || p.type === 'tool_call');
  const thought = parts.filter((p): p is ReasoningPart => p.type === 'reasoning');
  let finishReason: FinishReason = content.some((p) => p.type === 'tool_call') ? 'tool_calls' : 'stop';
  if (body.status === 'incomplete') {
    const reason = isObj(body.incomplete_details) ? body.incomplete_details.reason : undefined;
    finishReason = reason === 'content_filter' ? 'content_filter' : 'length';
  }
  const res: CanonicalResponse = {
    id: typeof body.id === 'string' ? body.id : randomId(),
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason,
    usage: usageFromWire(body.usage) ?? { inputTokens: 0, outputTokens: 0 },
  };
  if (thought.length > 0) {
    // One canonical reasoning per answer: the summaries joined, the last encrypted_content.
    const signed = thought.filter((t) => t.signature !== undefined);
    res.reasoning = { text: thought.map((t) => t.text).filter((t) => t !== '').join('\n\n'), origin: 'responses' };
    if (signed.length > 0) res.reasoning.signature = signed[signed.length - 1].signature;
  }
  return ok(res);
}

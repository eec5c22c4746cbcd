// Chat Completions responses, both directions: render the exact `chat.completion` body for a
// client, and read one from an upstream into the canonical response. Shared by the stream code
// for finish reasons and usage.
import {
  fail,
  ok,
  type CanonicalRequest,
  type CanonicalResponse,
  type FinishReason,
  type Result,
  type TextPart,
  type ToolCallPart,
  type Usage,
} from '../../core/canonical/types.ts';
import { nowSeconds, randomId, withPrefix } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';

export const ID_PREFIX = 'chatcmpl-';

export function finishToWire(r: FinishReason): string {
  switch (r) {
    case 'length':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

export function finishFromWire(v: unknown): FinishReason {
  switch (v) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}

export function usageToWire(u: Usage): Obj {
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cachedInputTokens ?? 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoningTokens ?? 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

export function usageFromWire(v: unknown): Usage | undefined {
  if (!isObj(v)) return undefined;
  const u: Usage = { inputTokens: count(v.prompt_tokens), outputTokens: count(v.completion_tokens) };
  const details = v.prompt_tokens_details;
  if (isObj(details) && count(details.cached_tokens) > 0) u.cachedInputTokens = count(details.cached_tokens);
  const out = v.completion_tokens_details;
  if (isObj(out) && count(out.reasoning_tokens) > 0) u.reasoningTokens = count(out.reasoning_tokens);
  return u;
}

export function renderResponse(res: CanonicalResponse, req: CanonicalRequest): Record<string, unknown> {
  const text = res.content
    .filter((p): p is TextPart => p.type === 'text')
    .map((p) => p.text)
    .join('');
  const calls = res.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  const message: Obj = {
    role: 'assistant',
    content: text === '' && calls.length > 0 ? null : text,
    refusal: null,
    annotations: [],
  };
  if (calls.length > 0) {
    message.tool_calls = calls.map((c) => ({
      id: c.id,
      type: 'function',
      function: { name: c.name, arguments: c.arguments },
    }));
  }
  return {
    id: withPrefix(res.id, ID_PREFIX),
    object: 'chat.completion',
    created: nowSeconds(),
    model: req.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishToWire(res.finishReason) }],
    usage: usageToWire(res.usage),
    service_tier: 'default',
    system_fingerprint: null,
  };
}

export function parseUpstreamResponse(body: unknown): Result<CanonicalResponse> {
  if (!isObj(body)) return fail('upstream_invalid', 'chat completion body is not an object');
  if (isObj(body.error)) {
    return fail('upstream_error', typeof body.error.message === 'string' ? body.error.message : 'upstream error');
  }
  const choices = body.choices;
  if (!Array.isArray(choices) || choices.length === 0 || !isObj(choices[0])) {
    return fail('upstream_invalid', 'chat completion has no choices');
  }
  const choice = choices[0];
  const msg = isObj(choice.message) ? choice.message : {};
  const content: Array<TextPart | ToolCallPart> = [];
  if (typeof msg.content === 'string' && msg.content !== '') content.push({ type: 'text', text: msg.content });
  else if (typeof msg.refusal === 'string' && msg.refusal !== '') content.push({ type: 'text', text: msg.refusal });
  if (Array.isArray(msg.tool_calls)) {
    for (const tc of msg.tool_calls) {
      if (!isObj(tc) || !isObj(tc.function)) continue;
      content.push({
        type: 'tool_call',
        id: typeof tc.id === 'string' ? tc.id : `call_${randomId()}`,
        name: typeof tc.function.name === 'string' ? tc.function.name : '',
        arguments: typeof tc.function.arguments === 'string' ? tc.function.arguments : '{}',
      });
    }
  }
  let finishReason = finishFromWire(choice.finish_reason);
  if (typeof msg.refusal === 'string' && msg.refusal !== '' && finishReason === 'stop') finishReason = 'content_filter';
  const res: CanonicalResponse = {
    id: typeof body.id === 'string' ? body.id : randomId(),
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason,
    usage: usageFromWire(body.usage) ?? { inputTokens: 0, outputTokens: 0 },
  };
  // DeepSeek's reasoning models put their thinking in `message.reasoning_content` (not an OpenAI
  // field): it is the answer's reasoning, unsigned, shown to clients of the wires that have one.
  if (typeof msg.reasoning_content === 'string' && msg.reasoning_content !== '') res.reasoning = { text: msg.reasoning_content };
  return ok(res);
}

// Messages responses, both directions: the exact `message` body for a client, and the canonical
// response read from an upstream. Input tokens on this wire exclude cache reads and writes, so the
// canonical count adds them back and keeps cache reads as `cachedInputTokens`.
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
import { signatureOut } from '../reasoning.ts';
import { argsToObject, objectToArgs, randomId, withPrefix } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';
import { toolId } from './request.ts';

export const ID_PREFIX = 'msg_';

export function stopReasonToWire(r: FinishReason, stopSequence?: string): string {
  switch (r) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return stopSequence !== undefined ? 'stop_sequence' : 'end_turn';
  }
}

export function stopReasonFromWire(v: unknown): FinishReason {
  switch (v) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

export function usageToWire(u: Usage): Obj {
  const cached = u.cachedInputTokens ?? 0;
  return {
    input_tokens: Math.max(0, u.inputTokens - cached),
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: cached,
    output_tokens: u.outputTokens,
    service_tier: 'standard',
  };
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

/** Input side of a usage object (message_start, message, or a message_delta that carries it). */
export function inputFromWire(u: Obj): Pick<Usage, 'inputTokens' | 'cachedInputTokens'> {
  const cached = count(u.cache_read_input_tokens);
  const out: Pick<Usage, 'inputTokens' | 'cachedInputTokens'> = {
    inputTokens: count(u.input_tokens) + count(u.cache_creation_input_tokens) + cached,
  };
  if (cached > 0) out.cachedInputTokens = cached;
  return out;
}

export function usageFromWire(v: unknown): Usage | undefined {
  if (!isObj(v)) return undefined;
  return { ...inputFromWire(v), outputTokens: count(v.output_tokens) };
}

export function renderResponse(res: CanonicalResponse, req: CanonicalRequest): Record<string, unknown> {
  const content: Obj[] = [];
  // Thinking is shown when it was asked for (a provider may sign an answer it was not asked to think on).
  if (res.reasoning && req.reasoning) {
    const r = res.reasoning;
    if (r.text !== '' || r.signature !== undefined || !r.redacted) content.push({ type: 'thinking', thinking: r.text, signature: signatureOut(r, 'anthropic') ?? '' });
    // Anthropic's encrypted thinking goes back only to Anthropic clients, only when Anthropic made it.
    if (r.origin === 'anthropic') for (const data of r.redacted ?? []) content.push({ type: 'redacted_thinking', data });
  }
  for (const p of res.content) {
    if (p.type === 'text') {
      if (p.text !== '') content.push({ type: 'text', text: p.text });
    } else {
      content.push({ type: 'tool_use', id: toolId(p.id), name: p.name, input: argsToObject(p.arguments) });
    }
  }
  return {
    id: withPrefix(res.id, ID_PREFIX),
    type: 'message',
    role: 'assistant',
    model: req.model,
    content,
    stop_reason: stopReasonToWire(res.finishReason, res.stopSequence),
    stop_sequence: res.stopSequence ?? null,
    usage: usageToWire(res.usage),
  };
}

export function parseUpstreamResponse(body: unknown): Result<CanonicalResponse> {
  if (!isObj(body)) return fail('upstream_invalid', 'message body is not an object');
  if (body.type === 'error' && isObj(body.error)) {
    return fail('upstream_error', typeof body.error.message === 'string' ? body.error.message : 'upstream error');
  }
  if (!Array.isArray(body.content)) return fail('upstream_invalid', 'message has no content array');
  const content: Array<TextPart | ToolCallPart> = [];
  let reasoning: CanonicalResponse['reasoning'];
  for (const blk of body.content) {
    if (!isObj(blk)) continue;
    if (blk.type === 'thinking' && typeof blk.thinking === 'string') {
      // Several thinking blocks (interleaved with tool use) read as one; the last signature holds.
      reasoning = { ...reasoning, text: (reasoning?.text ? `${reasoning.text}\n\n` : '') + blk.thinking, origin: 'anthropic' };
      if (typeof blk.signature === 'string' && blk.signature !== '') reasoning.signature = blk.signature;
    } else if (blk.type === 'redacted_thinking' && typeof blk.data === 'string' && blk.data !== '') {
      // Encrypted thinking, kept in order after the readable thinking, for Anthropic clients only.
      reasoning = { text: reasoning?.text ?? '', ...reasoning, origin: 'anthropic', redacted: [...(reasoning?.redacted ?? []), blk.data] };
    } else if (blk.type === 'text' && typeof blk.text === 'string') {
      const last = content[content.length - 1];
      // Citations split one answer into several text blocks; canonical text is one run.
      if (last && last.type === 'text') last.text += blk.text;
      else content.push({ type: 'text', text: blk.text });
    } else if (blk.type === 'tool_use') {
      content.push({
        type: 'tool_call',
        id: typeof blk.id === 'string' ? blk.id : `toolu_${randomId()}`,
        name: typeof blk.name === 'string' ? blk.name : '',
        arguments: objectToArgs(blk.input),
      });
    }
  }
  const res: CanonicalResponse = {
    id: typeof body.id === 'string' ? body.id : randomId(),
    model: typeof body.model === 'string' ? body.model : '',
    content,
    finishReason: stopReasonFromWire(body.stop_reason),
    usage: usageFromWire(body.usage) ?? { inputTokens: 0, outputTokens: 0 },
  };
  if (typeof body.stop_sequence === 'string') res.stopSequence = body.stop_sequence;
  if (reasoning) res.reasoning = reasoning;
  return ok(res);
}

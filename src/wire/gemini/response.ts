// generateContent responses, both directions. This wire reports STOP for an answer that ends in a
// function call, so reading it back gives `tool_calls` whenever a call is present; thought parts
// are the model's scratch work and are skipped, but their tokens are billed as output.
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
import { argsToObject, objectToArgs, randomId } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';

export function finishToWire(r: FinishReason): string {
  switch (r) {
    case 'length':
      return 'MAX_TOKENS';
    case 'content_filter':
      return 'SAFETY';
    case 'error':
      return 'OTHER';
    default:
      return 'STOP';
  }
}

const FILTERED = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'LANGUAGE']);

export function finishFromWire(v: unknown, hasToolCall: boolean): FinishReason {
  if (v === 'MAX_TOKENS') return 'length';
  if (typeof v === 'string' && FILTERED.has(v)) return 'content_filter';
  if (v === 'MALFORMED_FUNCTION_CALL' || v === 'UNEXPECTED_TOOL_CALL') return 'error';
  return hasToolCall ? 'tool_calls' : 'stop';
}

/** Responses carry the canonical id without another wire's prefix. */
export const responseId = (id: string): string => id.replace(/^[A-Za-z]+[-_]/, '') || id;

export function usageToWire(u: Usage): Obj {
  // This wire counts thinking apart from the candidates (both billed as output).
  const thoughts = u.reasoningTokens ?? 0;
  const out: Obj = {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: u.outputTokens - thoughts,
    totalTokenCount: u.inputTokens + u.outputTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: u.inputTokens }],
  };
  if (thoughts > 0) out.thoughtsTokenCount = thoughts;
  if (u.cachedInputTokens) out.cachedContentTokenCount = u.cachedInputTokens;
  return out;
}

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : 0);

export function usageFromWire(v: unknown): Usage | undefined {
  if (!isObj(v)) return undefined;
  const u: Usage = {
    inputTokens: count(v.promptTokenCount) + count(v.toolUsePromptTokenCount),
    outputTokens: count(v.candidatesTokenCount) + count(v.thoughtsTokenCount),
  };
  if (count(v.cachedContentTokenCount) > 0) u.cachedInputTokens = count(v.cachedContentTokenCount);
  if (count(v.thoughtsTokenCount) > 0) u.reasoningTokens = count(v.thoughtsTokenCount);
  return u;
}

export function renderParts(content: ReadonlyArray<TextPart | ToolCallPart>): Obj[] {
  const parts: Obj[] = [];
  for (const p of content) {
    if (p.type === 'text') {
      if (p.text !== '') parts.push({ text: p.text });
    } else parts.push({ functionCall: { id: p.id, name: p.name, args: argsToObject(p.arguments) } });
  }
  return parts.length > 0 ? parts : [{ text: '' }];
}

export function renderResponse(res: CanonicalResponse, req: CanonicalRequest): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { parts: withThought(res.reasoning, renderParts(res.content)), role: 'model' },
        finishReason: finishToWire(res.finishReason),
        index: 0,
      },
    ],
    usageMetadata: usageToWire(res.usage),
    modelVersion: req.model,
    responseId: responseId(res.id),
  };
}

/**
 * The answer's parts with the thinking as this wire shows it: a `thought: true` part first with its
 * signature; a signature without thought text rides on the answer's first part (as the vendor
 * sends it when thoughts were not asked for).
 */
export function withThought(r: CanonicalResponse['reasoning'], parts: Obj[]): Obj[] {
  if (!r) return parts;
  const signature = signatureOut(r, 'gemini');
  const sig = signature !== undefined ? { thoughtSignature: signature } : {};
  if (r.text !== '') return [{ text: r.text, thought: true, ...sig }, ...parts];
  if (signature === undefined) return parts;
  return parts.length > 0 ? [{ ...parts[0], ...sig }, ...parts.slice(1)] : [{ text: '', ...sig }];
}

/** The thoughts of one candidate's parts (`thought: true` text) and the first thoughtSignature. */
export function readThought(parts: unknown): CanonicalResponse['reasoning'] {
  if (!Array.isArray(parts)) return undefined;
  let text = '';
  let signature: string | undefined;
  for (const p of parts) {
    if (!isObj(p)) continue;
    if (p.thought === true && typeof p.text === 'string') text += p.text;
    const sig = p.thoughtSignature ?? p.thought_signature;
    if (signature === undefined && typeof sig === 'string' && sig !== '') signature = sig;
  }
  if (text === '' && signature === undefined) return undefined;
  return signature !== undefined ? { text, signature, origin: 'gemini' } : { text, origin: 'gemini' };
}

/** Text and function calls of one candidate's parts, in order. */
export function readParts(parts: unknown): Array<TextPart | ToolCallPart> {
  const out: Array<TextPart | ToolCallPart> = [];
  if (!Array.isArray(parts)) return out;
  for (const p of parts) {
    if (!isObj(p)) continue;
    if (typeof p.text === 'string' && p.thought !== true) {
      if (p.text === '') continue;
      const last = out[out.length - 1];
      if (last && last.type === 'text') last.text += p.text;
      else out.push({ type: 'text', text: p.text });
    }
    const fc = p.functionCall ?? p.function_call;
    if (isObj(fc)) {
      out.push({
        type: 'tool_call',
        id: typeof fc.id === 'string' && fc.id !== '' ? fc.id : `call_${randomId()}`,
        name: typeof fc.name === 'string' ? fc.name : '',
        arguments: objectToArgs(fc.args ?? {}),
      });
    }
  }
  return out;
}

export function parseUpstreamResponse(body: unknown): Result<CanonicalResponse> {
  if (!isObj(body)) return fail('upstream_invalid', 'generateContent body is not an object');
  if (isObj(body.error)) {
    return fail('upstream_error', typeof body.error.message === 'string' ? body.error.message : 'upstream error');
  }
  const usage = usageFromWire(body.usageMetadata) ?? { inputTokens: 0, outputTokens: 0 };
  const base = {
    id: typeof body.responseId === 'string' ? body.responseId : randomId(),
    model: typeof body.modelVersion === 'string' ? body.modelVersion : '',
    usage,
  };
  const cand = Array.isArray(body.candidates) && isObj(body.candidates[0]) ? body.candidates[0] : undefined;
  if (!cand) {
    const pf = isObj(body.promptFeedback) ? body.promptFeedback : {};
    if (typeof pf.blockReason === 'string') return ok({ ...base, content: [], finishReason: 'content_filter' });
    return fail('upstream_invalid', 'generateContent response has no candidates');
  }
  const parts = isObj(cand.content) ? cand.content.parts : undefined;
  const content = readParts(parts);
  const res: CanonicalResponse = {
    ...base,
    content,
    finishReason: finishFromWire(cand.finishReason, content.some((p) => p.type === 'tool_call')),
  };
  const reasoning = readThought(parts);
  if (reasoning) res.reasoning = reasoning;
  return ok(res);
}

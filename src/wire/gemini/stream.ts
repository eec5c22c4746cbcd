// generateContent streams (alt=sse) as typed events (CONVENTIONS 2). Every chunk is a whole
// GenerateContentResponse: text arrives as parts, a function call arrives complete in one part
// (the encoder buffers argument fragments until the call's block ends), and the last chunk carries
// finishReason with the final usageMetadata. There is no start or end frame.
import type { CanonicalRequest, FinishReason, StreamEvent, Usage } from '../../core/canonical/types.ts';
import { encodeSseJson } from '../sse.ts';
import type { SseRecord, StreamDecoder, StreamEncoder, UsagePatch } from '../types.ts';
import { argsToObject, randomId, safeJson } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';
import { errorBody } from './errors.ts';
import { signatureOut } from '../reasoning.ts';
import { finishFromWire, finishToWire, readParts, readThought, responseId, usageToWire, usageFromWire } from './response.ts';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

export function createStreamEncoder(req: CanonicalRequest): StreamEncoder {
  let id = randomId();
  let inputTokens = 0;
  let ended = false;
  let thought = false;
  /** A signature with no thought text to carry it rides on the next part sent. */
  let pendingSignature: string | undefined;
  const calls = new Map<number, PendingCall>();

  const chunk = (parts: Obj[], finishReason?: string, usage?: Usage): string => {
    if (pendingSignature !== undefined && parts.length > 0) {
      parts[0] = { ...parts[0], thoughtSignature: pendingSignature };
      pendingSignature = undefined;
    }
    const cand: Obj = { content: { parts, role: 'model' } };
    if (finishReason !== undefined) cand.finishReason = finishReason;
    cand.index = 0;
    const c: Obj = { candidates: [cand] };
    if (usage) c.usageMetadata = usageToWire(usage);
    else if (inputTokens > 0) {
      c.usageMetadata = {
        promptTokenCount: inputTokens,
        totalTokenCount: inputTokens,
        promptTokensDetails: [{ modality: 'TEXT', tokenCount: inputTokens }],
      };
    }
    c.modelVersion = req.model;
    c.responseId = id;
    return encodeSseJson(c);
  };
  const callPart = (c: PendingCall): Obj => ({ functionCall: { id: c.id, name: c.name, args: argsToObject(c.args) } });

  return {
    encode(ev: StreamEvent): string {
      if (ended) return '';
      switch (ev.type) {
        case 'start':
          id = responseId(ev.id);
          if (ev.inputTokens !== undefined) inputTokens = ev.inputTokens;
          return '';
        case 'text_delta':
          return ev.text === '' ? '' : chunk([{ text: ev.text }]);
        case 'reasoning_redacted':
          // Encrypted Anthropic thinking: no Gemini equivalent (and no text to show).
          return '';
        case 'reasoning_delta':
          if (ev.text === '') return '';
          thought = true;
          return chunk([{ text: ev.text, thought: true }]);
        case 'reasoning_signature': {
          const signature = signatureOut(ev, 'gemini');
          if (signature === undefined) return '';
          if (thought) return chunk([{ text: '', thought: true, thoughtSignature: signature }]);
          pendingSignature = signature;
          return '';
        }
        case 'tool_call_start':
          if (!calls.has(ev.index)) calls.set(ev.index, { id: ev.id, name: ev.name, args: '' });
          return '';
        case 'tool_call_delta': {
          const c = calls.get(ev.index);
          if (c) c.args += ev.argumentsDelta;
          else calls.set(ev.index, { id: `call_${randomId()}`, name: '', args: ev.argumentsDelta });
          return '';
        }
        case 'block_end': {
          const c = calls.get(ev.index);
          if (!c) return '';
          calls.delete(ev.index);
          return chunk([callPart(c)]);
        }
        case 'finish': {
          ended = true;
          const rest = [...calls.values()].map(callPart);
          calls.clear();
          return chunk(
            rest.length > 0 ? rest : [{ text: '' }],
            finishToWire(ev.finishReason),
            ev.usage ?? { inputTokens, outputTokens: 0 },
          );
        }
        case 'error':
          ended = true;
          return encodeSseJson(errorBody(ev.status ?? 500, ev.code ?? 'upstream_error', ev.message));
      }
    },
  };
}

export function createStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  let nextIndex = 0;
  let textIndex: number | undefined;
  let thoughtIndex: number | undefined;
  let signed = false;
  let sawCall = false;
  let usage: Usage | undefined;

  const closeText = (out: StreamEvent[]): void => {
    if (textIndex !== undefined) out.push({ type: 'block_end', index: textIndex });
    textIndex = undefined;
  };
  const closeThought = (out: StreamEvent[]): void => {
    if (thoughtIndex !== undefined) out.push({ type: 'block_end', index: thoughtIndex });
    thoughtIndex = undefined;
  };
  const finish = (out: StreamEvent[], reason: FinishReason): void => {
    closeThought(out);
    closeText(out);
    finished = true;
    const ev: StreamEvent = { type: 'finish', finishReason: reason };
    if (usage) ev.usage = usage;
    out.push(ev);
  };

  return {
    push(rec: SseRecord): StreamEvent[] {
      if (finished) return [];
      const d = safeJson(rec.data);
      if (!isObj(d)) return [];
      const out: StreamEvent[] = [];
      if (isObj(d.error)) {
        finished = true;
        const e = d.error;
        out.push({
          type: 'error',
          message: typeof e.message === 'string' ? e.message : 'upstream stream error',
          ...(typeof e.code === 'number' ? { status: e.code } : {}),
          ...(typeof e.status === 'string' ? { code: e.status } : {}),
        });
        return out;
      }
      const u = usageFromWire(d.usageMetadata);
      if (u) usage = u;
      if (!started) {
        started = true;
        const start: StreamEvent = {
          type: 'start',
          id: typeof d.responseId === 'string' ? d.responseId : randomId(),
          model: typeof d.modelVersion === 'string' ? d.modelVersion : '',
        };
        if (u && u.inputTokens > 0) start.inputTokens = u.inputTokens;
        out.push(start);
      }
      const cand = Array.isArray(d.candidates) && isObj(d.candidates[0]) ? d.candidates[0] : undefined;
      if (!cand) {
        const pf = isObj(d.promptFeedback) ? d.promptFeedback : {};
        if (typeof pf.blockReason === 'string') finish(out, 'content_filter');
        return out;
      }
      const parts = isObj(cand.content) ? cand.content.parts : undefined;
      const thought = readThought(parts);
      if (thought && (thought.text !== '' || (!signed && thought.signature !== undefined))) {
        // Thoughts come first, in their own block; the turn's one signature closes it.
        if (thoughtIndex === undefined) {
          closeText(out);
          thoughtIndex = nextIndex++;
        }
        if (thought.text !== '') out.push({ type: 'reasoning_delta', index: thoughtIndex, text: thought.text });
        if (!signed && thought.signature !== undefined) {
          signed = true;
          out.push({ type: 'reasoning_signature', index: thoughtIndex, signature: thought.signature, origin: 'gemini' });
        }
      }
      const answer = readParts(parts);
      if (answer.length > 0) closeThought(out);
      for (const p of answer) {
        if (p.type === 'text') {
          if (textIndex === undefined) textIndex = nextIndex++;
          out.push({ type: 'text_delta', index: textIndex, text: p.text });
        } else {
          closeText(out);
          sawCall = true;
          const index = nextIndex++;
          out.push({ type: 'tool_call_start', index, id: p.id, name: p.name });
          out.push({ type: 'tool_call_delta', index, argumentsDelta: p.arguments });
          out.push({ type: 'block_end', index });
        }
      }
      if (typeof cand.finishReason === 'string' && cand.finishReason !== 'FINISH_REASON_UNSPECIFIED') {
        finish(out, finishFromWire(cand.finishReason, sawCall));
      }
      return out;
    },
    end(): StreamEvent[] {
      if (finished) return [];
      finished = true;
      return [{ type: 'error', message: 'upstream stream ended before the answer was complete', status: 502 }];
    },
  };
}

export function isTerminal(rec: SseRecord): boolean {
  if (!rec.data.includes('finishReason') && !rec.data.includes('blockReason')) return false;
  const d = safeJson(rec.data);
  if (!isObj(d)) return false;
  const cand = Array.isArray(d.candidates) && isObj(d.candidates[0]) ? d.candidates[0] : undefined;
  if (cand) return typeof cand.finishReason === 'string' && cand.finishReason !== 'FINISH_REASON_UNSPECIFIED';
  return isObj(d.promptFeedback) && typeof d.promptFeedback.blockReason === 'string';
}

export function usageFromRecord(rec: SseRecord): UsagePatch | undefined {
  if (!rec.data.includes('usageMetadata')) return undefined;
  const d = safeJson(rec.data);
  return isObj(d) ? usageFromWire(d.usageMetadata) : undefined;
}

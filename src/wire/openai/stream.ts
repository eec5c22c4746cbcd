// Chat Completions streams as typed events (CONVENTIONS 2). The encoder writes the vendor's exact
// sequence: a role chunk, content or tool_calls deltas (id, type and name first, then argument
// fragments), a finish_reason chunk, a usage chunk with empty choices when the client asked for
// it, then `data: [DONE]`. The decoder reads the same from any provider on this wire, including
// the ones that put usage on the finish chunk or omit it entirely.
import type { CanonicalRequest, FinishReason, StreamEvent, Usage } from '../../core/canonical/types.ts';
import { encodeSseJson } from '../sse.ts';
import type { SseRecord, StreamDecoder, StreamEncoder, UsagePatch } from '../types.ts';
import { nowSeconds, randomId, safeJson, withPrefix } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';
import { errorBody } from './errors.ts';
import { finishFromWire, finishToWire, ID_PREFIX, usageFromWire, usageToWire } from './response.ts';

export const DONE_FRAME = 'data: [DONE]\n\n';

export function createStreamEncoder(req: CanonicalRequest): StreamEncoder {
  const includeUsage = req.includeUsage === true;
  const created = nowSeconds();
  let id = '';
  let started = false;
  let ended = false;
  let inputTokens = 0;
  /** Canonical block index → the wire's tool_calls[].index (0-based among tool calls only). */
  const toolIndex = new Map<number, number>();

  const chunk = (delta: Obj, finishReason: string | null = null): string => {
    const c: Obj = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: req.model,
      service_tier: 'default',
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (includeUsage) c.usage = null;
    return encodeSseJson(c);
  };

  const start = (evId: string): string => {
    started = true;
    id = withPrefix(evId, ID_PREFIX);
    return chunk({ role: 'assistant', content: '', refusal: null });
  };

  return {
    encode(ev: StreamEvent): string {
      if (ended) return '';
      if (ev.type === 'start') {
        if (ev.inputTokens !== undefined) inputTokens = ev.inputTokens;
        return started ? '' : start(ev.id);
      }
      let out = started ? '' : start(randomId());
      switch (ev.type) {
        case 'text_delta':
          if (ev.text !== '') out += chunk({ content: ev.text });
          return out;
        case 'tool_call_start': {
          const ti = toolIndex.size;
          toolIndex.set(ev.index, ti);
          return (
            out +
            chunk({ tool_calls: [{ index: ti, id: ev.id, type: 'function', function: { name: ev.name, arguments: '' } }] })
          );
        }
        case 'tool_call_delta': {
          if (ev.argumentsDelta === '') return out;
          let ti = toolIndex.get(ev.index);
          if (ti === undefined) {
            // Arguments for a call whose start never came: open it so the client can still
            // assemble the call rather than lose the arguments.
            ti = toolIndex.size;
            toolIndex.set(ev.index, ti);
            out += chunk({
              tool_calls: [{ index: ti, id: `call_${randomId()}`, type: 'function', function: { name: '', arguments: '' } }],
            });
          }
          return out + chunk({ tool_calls: [{ index: ti, function: { arguments: ev.argumentsDelta } }] });
        }
        case 'block_end':
        case 'reasoning_delta':
        case 'reasoning_signature':
        case 'reasoning_redacted':
          // This wire shows no thinking, only its token count in the usage.
          return out;
        case 'finish': {
          ended = true;
          out += chunk({}, finishToWire(ev.finishReason));
          if (includeUsage) {
            const usage: Usage = ev.usage ?? { inputTokens, outputTokens: 0 };
            out += encodeSseJson({
              id,
              object: 'chat.completion.chunk',
              created,
              model: req.model,
              service_tier: 'default',
              system_fingerprint: null,
              choices: [],
              usage: usageToWire(usage),
            });
          }
          return out + DONE_FRAME;
        }
        case 'error':
          ended = true;
          return out + encodeSseJson(errorBody(ev.status ?? 500, ev.code ?? 'upstream_error', ev.message));
      }
    },
  };
}

export function createStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  let nextIndex = 0;
  let open: number | undefined;
  let textIndex: number | undefined;
  let reasoningIndex: number | undefined;
  /** The wire's tool_calls[].index → canonical block index. */
  const toolBlocks = new Map<number, number>();
  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;

  const close = (out: StreamEvent[]): void => {
    if (open !== undefined) out.push({ type: 'block_end', index: open });
    open = undefined;
    textIndex = undefined;
    reasoningIndex = undefined;
  };
  const finish = (out: StreamEvent[]): void => {
    close(out);
    finished = true;
    const ev: StreamEvent = { type: 'finish', finishReason: finishReason ?? 'stop' };
    if (usage) ev.usage = usage;
    out.push(ev);
  };
  const text = (t: string, out: StreamEvent[]): void => {
    if (textIndex === undefined) {
      close(out);
      textIndex = open = nextIndex++;
    }
    out.push({ type: 'text_delta', index: textIndex, text: t });
  };
  /** DeepSeek's `delta.reasoning_content`: the thinking, streamed before the answer (its own block). */
  const thought = (t: string, out: StreamEvent[]): void => {
    if (reasoningIndex === undefined) {
      close(out);
      reasoningIndex = open = nextIndex++;
    }
    out.push({ type: 'reasoning_delta', index: reasoningIndex, text: t });
  };

  return {
    push(rec: SseRecord): StreamEvent[] {
      if (finished) return [];
      const out: StreamEvent[] = [];
      if (rec.data.trim() === '[DONE]') {
        if (!started) out.push({ type: 'start', id: randomId(), model: '' });
        started = true;
        finish(out);
        return out;
      }
      const c = safeJson(rec.data);
      if (!isObj(c)) return out;
      if (isObj(c.error)) {
        finished = true;
        const e = c.error;
        out.push({
          type: 'error',
          message: typeof e.message === 'string' ? e.message : 'upstream stream error',
          ...(typeof e.code === 'string' ? { code: e.code } : {}),
        });
        return out;
      }
      if (!started) {
        started = true;
        out.push({
          type: 'start',
          id: typeof c.id === 'string' ? c.id : randomId(),
          model: typeof c.model === 'string' ? c.model : '',
        });
      }
      const choices = Array.isArray(c.choices) ? c.choices : [];
      for (const choice of choices) {
        if (!isObj(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
        const delta = isObj(choice.delta) ? choice.delta : {};
        if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') thought(delta.reasoning_content, out);
        if (typeof delta.content === 'string' && delta.content !== '') text(delta.content, out);
        if (typeof delta.refusal === 'string' && delta.refusal !== '') text(delta.refusal, out);
        if (Array.isArray(delta.tool_calls)) {
          for (const tc of delta.tool_calls) {
            if (!isObj(tc)) continue;
            const wi = typeof tc.index === 'number' ? tc.index : 0;
            const fn = isObj(tc.function) ? tc.function : {};
            let ci = toolBlocks.get(wi);
            if (ci === undefined) {
              close(out);
              ci = open = nextIndex++;
              toolBlocks.set(wi, ci);
              out.push({
                type: 'tool_call_start',
                index: ci,
                id: typeof tc.id === 'string' && tc.id !== '' ? tc.id : `call_${randomId()}`,
                name: typeof fn.name === 'string' ? fn.name : '',
              });
            }
            if (typeof fn.arguments === 'string' && fn.arguments !== '') {
              out.push({ type: 'tool_call_delta', index: ci, argumentsDelta: fn.arguments });
            }
          }
        }
        if (typeof choice.finish_reason === 'string') {
          finishReason = finishFromWire(choice.finish_reason);
          close(out);
        }
      }
      const u = usageFromWire(c.usage);
      if (u) usage = u;
      // Usage comes on its own chunk after finish_reason, or on the finish chunk itself; either
      // way the answer is complete once both are known, without waiting for [DONE].
      if (finishReason !== undefined && usage !== undefined) finish(out);
      return out;
    },
    end(): StreamEvent[] {
      if (finished) return [];
      const out: StreamEvent[] = [];
      if (finishReason !== undefined) finish(out);
      else {
        finished = true;
        close(out);
        out.push({ type: 'error', message: 'upstream stream ended before the answer was complete', status: 502 });
      }
      return out;
    },
  };
}

export const isTerminal = (rec: SseRecord): boolean => rec.data.trim() === '[DONE]';

/** `"usage": {` — only a usage object is worth parsing; chunks carry `"usage":null` until the last. */
const USAGE_OBJECT = /"usage"\s*:\s*\{/;

export function usageFromRecord(rec: SseRecord): UsagePatch | undefined {
  // Every chunk of a chat-completions stream names "usage" (null until the end), so a bare
  // substring test would parse each chunk a second time on the pass-through path.
  if (!USAGE_OBJECT.test(rec.data)) return undefined;
  const c = safeJson(rec.data);
  return isObj(c) ? usageFromWire(c.usage) : undefined;
}

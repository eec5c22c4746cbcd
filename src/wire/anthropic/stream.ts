// Messages streams as typed events (CONVENTIONS 2). The encoder writes the vendor's exact named
// events: message_start, content_block_start, ping (after the first block opens, as the vendor
// does), content_block_delta (text_delta / input_json_delta), content_block_stop, message_delta
// (stop reason and cumulative usage), message_stop. Block indices on this wire are dense and in
// order of opening, so the encoder numbers blocks itself whatever the canonical indices are.
import type { CanonicalRequest, FinishReason, StreamEvent, Usage } from '../../core/canonical/types.ts';
import { encodeSseJson } from '../sse.ts';
import type { SseRecord, StreamDecoder, StreamEncoder, UsagePatch } from '../types.ts';
import { signatureOut } from '../reasoning.ts';
import { objectToArgs, randomId, safeJson, withPrefix } from '../util.ts';
import { isObj, type Obj } from '../validate.ts';
import { errorType } from './errors.ts';
import { toolId } from './request.ts';
import { ID_PREFIX, inputFromWire, stopReasonFromWire, stopReasonToWire, usageToWire } from './response.ts';

interface Block {
  wire: number;
  kind: 'text' | 'tool' | 'thinking';
  open: boolean;
}

export function createStreamEncoder(req: CanonicalRequest): StreamEncoder {
  let started = false;
  let ended = false;
  let pinged = false;
  let inputTokens = 0;
  const blocks = new Map<number, Block>();

  const ev = (type: string, data: Obj): string => encodeSseJson({ type, ...data }, type);

  const start = (id: string): string => {
    started = true;
    const u = usageToWire({ inputTokens, outputTokens: 0 });
    return ev('message_start', {
      message: {
        id: withPrefix(id, ID_PREFIX),
        type: 'message',
        role: 'assistant',
        model: req.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: u,
      },
    });
  };

  const open = (index: number, kind: Block['kind'], contentBlock: Obj): string => {
    const b: Block = { wire: blocks.size, kind, open: true };
    blocks.set(index, b);
    let out = ev('content_block_start', { index: b.wire, content_block: contentBlock });
    if (!pinged) {
      pinged = true;
      out += ev('ping', {});
    }
    return out;
  };

  const close = (b: Block): string => {
    if (!b.open) return '';
    b.open = false;
    return ev('content_block_stop', { index: b.wire });
  };

  return {
    encode(e: StreamEvent): string {
      if (ended) return '';
      if (e.type === 'start') {
        if (e.inputTokens !== undefined) inputTokens = e.inputTokens;
        return started ? '' : start(e.id);
      }
      let out = started ? '' : start(randomId());
      switch (e.type) {
        case 'text_delta': {
          if (e.text === '') return out;
          let b = blocks.get(e.index);
          if (!b) {
            out += open(e.index, 'text', { type: 'text', text: '' });
            b = blocks.get(e.index)!;
          }
          return out + ev('content_block_delta', { index: b.wire, delta: { type: 'text_delta', text: e.text } });
        }
        case 'reasoning_delta':
        case 'reasoning_signature': {
          if (!req.reasoning) return out;
          let b = blocks.get(e.index);
          if (!b) {
            out += open(e.index, 'thinking', { type: 'thinking', thinking: '', signature: '' });
            b = blocks.get(e.index)!;
          }
          const delta =
            e.type === 'reasoning_delta'
              ? { type: 'thinking_delta', thinking: e.text }
              : { type: 'signature_delta', signature: signatureOut(e, 'anthropic') ?? '' };
          return out + ev('content_block_delta', { index: b.wire, delta });
        }
        case 'reasoning_redacted':
          // Encrypted thinking goes back to the client as the block it came as (the vendor wants it
          // returned unchanged in a tool loop); it has no deltas, the block_end closes it.
          if (!req.reasoning || blocks.has(e.index)) return out;
          return out + open(e.index, 'thinking', { type: 'redacted_thinking', data: e.data });
        case 'tool_call_start':
          if (blocks.has(e.index)) return out;
          return out + open(e.index, 'tool', { type: 'tool_use', id: toolId(e.id), name: e.name, input: {} });
        case 'tool_call_delta': {
          if (e.argumentsDelta === '') return out;
          let b = blocks.get(e.index);
          if (!b) {
            out += open(e.index, 'tool', { type: 'tool_use', id: `toolu_${randomId()}`, name: '', input: {} });
            b = blocks.get(e.index)!;
          }
          return (
            out + ev('content_block_delta', { index: b.wire, delta: { type: 'input_json_delta', partial_json: e.argumentsDelta } })
          );
        }
        case 'block_end': {
          const b = blocks.get(e.index);
          return b ? out + close(b) : out;
        }
        case 'finish': {
          ended = true;
          for (const b of blocks.values()) out += close(b);
          if (!pinged) out += ev('ping', {});
          const u = e.usage ?? { inputTokens, outputTokens: 0 };
          const wu = usageToWire(u);
          out += ev('message_delta', {
            delta: { stop_reason: stopReasonToWire(e.finishReason, e.stopSequence), stop_sequence: e.stopSequence ?? null },
            usage: {
              input_tokens: wu.input_tokens,
              cache_creation_input_tokens: wu.cache_creation_input_tokens,
              cache_read_input_tokens: wu.cache_read_input_tokens,
              output_tokens: wu.output_tokens,
            },
          });
          return out + ev('message_stop', {});
        }
        case 'error':
          ended = true;
          return out + ev('error', { error: { type: errorType(e.status ?? 500), message: e.message } });
      }
    },
  };
}

export function createStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  /** Wire block index → kind, for the blocks that map to canonical ones. */
  const kinds = new Map<number, 'text' | 'tool' | 'thinking' | 'redacted'>();
  let stopReason: FinishReason | undefined;
  let stopSequence: string | undefined;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };

  const ensureStart = (out: StreamEvent[]): void => {
    if (started) return;
    started = true;
    out.push({ type: 'start', id: randomId(), model: '' });
  };
  const finish = (out: StreamEvent[]): void => {
    ensureStart(out);
    for (const index of kinds.keys()) out.push({ type: 'block_end', index });
    kinds.clear();
    finished = true;
    const ev: StreamEvent = { type: 'finish', finishReason: stopReason ?? 'stop', usage: { ...usage } };
    if (stopSequence !== undefined) ev.stopSequence = stopSequence;
    out.push(ev);
  };

  return {
    push(rec: SseRecord): StreamEvent[] {
      if (finished) return [];
      const d = safeJson(rec.data);
      if (!isObj(d)) return [];
      const type = rec.event ?? (typeof d.type === 'string' ? d.type : '');
      const out: StreamEvent[] = [];
      switch (type) {
        case 'message_start': {
          const m = isObj(d.message) ? d.message : {};
          if (isObj(m.usage)) {
            Object.assign(usage, inputFromWire(m.usage));
            if (typeof m.usage.output_tokens === 'number') usage.outputTokens = m.usage.output_tokens;
          }
          if (!started) {
            started = true;
            out.push({
              type: 'start',
              id: typeof m.id === 'string' ? m.id : randomId(),
              model: typeof m.model === 'string' ? m.model : '',
              inputTokens: usage.inputTokens,
            });
          }
          return out;
        }
        case 'content_block_start': {
          ensureStart(out);
          const index = typeof d.index === 'number' ? d.index : kinds.size;
          const cb = isObj(d.content_block) ? d.content_block : {};
          if (cb.type === 'thinking') {
            kinds.set(index, 'thinking');
            if (typeof cb.thinking === 'string' && cb.thinking !== '') out.push({ type: 'reasoning_delta', index, text: cb.thinking });
          } else if (cb.type === 'redacted_thinking' && typeof cb.data === 'string' && cb.data !== '') {
            kinds.set(index, 'redacted');
            out.push({ type: 'reasoning_redacted', index, data: cb.data });
          } else if (cb.type === 'text') {
            kinds.set(index, 'text');
            if (typeof cb.text === 'string' && cb.text !== '') out.push({ type: 'text_delta', index, text: cb.text });
          } else if (cb.type === 'tool_use') {
            kinds.set(index, 'tool');
            out.push({
              type: 'tool_call_start',
              index,
              id: typeof cb.id === 'string' ? cb.id : `toolu_${randomId()}`,
              name: typeof cb.name === 'string' ? cb.name : '',
            });
            // The vendor always starts with an empty input; a relay may send it whole here.
            if (isObj(cb.input) && Object.keys(cb.input).length > 0) {
              out.push({ type: 'tool_call_delta', index, argumentsDelta: objectToArgs(cb.input) });
            }
          }
          return out;
        }
        case 'content_block_delta': {
          ensureStart(out);
          const index = typeof d.index === 'number' ? d.index : -1;
          const kind = kinds.get(index);
          const delta = isObj(d.delta) ? d.delta : {};
          if (kind === 'text' && delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
            out.push({ type: 'text_delta', index, text: delta.text });
          } else if (kind === 'thinking' && delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking !== '') {
            out.push({ type: 'reasoning_delta', index, text: delta.thinking });
          } else if (kind === 'thinking' && delta.type === 'signature_delta' && typeof delta.signature === 'string' && delta.signature !== '') {
            out.push({ type: 'reasoning_signature', index, signature: delta.signature, origin: 'anthropic' });
          } else if (
            kind === 'tool' &&
            delta.type === 'input_json_delta' &&
            typeof delta.partial_json === 'string' &&
            delta.partial_json !== ''
          ) {
            out.push({ type: 'tool_call_delta', index, argumentsDelta: delta.partial_json });
          }
          return out;
        }
        case 'content_block_stop': {
          const index = typeof d.index === 'number' ? d.index : -1;
          if (kinds.delete(index)) out.push({ type: 'block_end', index });
          return out;
        }
        case 'message_delta': {
          const delta = isObj(d.delta) ? d.delta : {};
          if (delta.stop_reason !== undefined && delta.stop_reason !== null) stopReason = stopReasonFromWire(delta.stop_reason);
          if (typeof delta.stop_sequence === 'string') stopSequence = delta.stop_sequence;
          if (isObj(d.usage)) {
            if (typeof d.usage.output_tokens === 'number') usage.outputTokens = d.usage.output_tokens;
            if (typeof d.usage.input_tokens === 'number') Object.assign(usage, inputFromWire(d.usage));
          }
          return out;
        }
        case 'message_stop':
          finish(out);
          return out;
        case 'error': {
          finished = true;
          const e = isObj(d.error) ? d.error : {};
          out.push({
            type: 'error',
            message: typeof e.message === 'string' ? e.message : 'upstream stream error',
            ...(typeof e.type === 'string' ? { code: e.type } : {}),
          });
          return out;
        }
        default:
          return out;
      }
    },
    end(): StreamEvent[] {
      if (finished) return [];
      const out: StreamEvent[] = [];
      if (stopReason !== undefined) finish(out);
      else {
        finished = true;
        out.push({ type: 'error', message: 'upstream stream ended before the answer was complete', status: 502 });
      }
      return out;
    },
  };
}

const typeOf = (rec: SseRecord): string | undefined => {
  if (rec.event !== undefined) return rec.event;
  const d = safeJson(rec.data);
  return isObj(d) && typeof d.type === 'string' ? d.type : undefined;
};

export const isTerminal = (rec: SseRecord): boolean => typeOf(rec) === 'message_stop';

export function usageFromRecord(rec: SseRecord): UsagePatch | undefined {
  const type = typeOf(rec);
  if (type !== 'message_start' && type !== 'message_delta') return undefined;
  const d = safeJson(rec.data);
  if (!isObj(d)) return undefined;
  const u = type === 'message_start' ? (isObj(d.message) ? d.message.usage : undefined) : d.usage;
  if (!isObj(u)) return undefined;
  const patch: UsagePatch = {};
  if (typeof u.output_tokens === 'number') patch.outputTokens = u.output_tokens;
  if (typeof u.input_tokens === 'number') Object.assign(patch, inputFromWire(u));
  return patch;
}

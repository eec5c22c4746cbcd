// Responses API streams as typed events (CONVENTIONS 2). The encoder writes the vendor's sequence:
// response.created, response.in_progress, then per output item output_item.added, its parts
// (content_part.added, output_text.delta…, output_text.done, content_part.done, or
// function_call_arguments.delta…/done), output_item.done, and at the end response.completed (or
// response.incomplete) carrying the whole response with usage. Every event has a sequence_number.
// The decoder reads the same from a provider that speaks this wire.
import type { CanonicalRequest, FinishReason, ReasoningOrigin, StreamEvent, Usage } from '../../../core/canonical/types.ts';
import { encodeSseJson } from '../../sse.ts';
import type { SseRecord, StreamDecoder, StreamEncoder, UsagePatch } from '../../types.ts';
import { argsToObject, nowSeconds, safeJson } from '../../util.ts';
import { isObj, type Obj } from '../../validate.ts';
import { errorBody } from '../errors.ts';
import { CUSTOM_INPUT } from './request.ts';
import { callItem, messageItem, reasoningItem, responseId, responseObject, RESPONSE_PREFIX, statusOf, usageFromWire, type Reasoning, type ResponsesEcho } from './response.ts';

interface Block {
  outputIndex: number;
  kind: 'message' | 'call' | 'reasoning';
  itemId: string;
  text: string;
  call?: { id: string; name: string; arguments: string };
  /** A reasoning block's signature and the wire that made it. */
  reasoning?: { signature?: string; origin?: ReasoningOrigin };
  done: boolean;
}

export interface ResponsesStreamEncoder extends StreamEncoder {
  /** The response as the last event carried it (null until the stream finished). */
  final(): Obj | null;
  /** The answer's reasoning with its signature (which the client may not have been shown). */
  reasoning(): Reasoning | null;
}

export function createStreamEncoder(req: CanonicalRequest, echo: ResponsesEcho = {}): ResponsesStreamEncoder {
  const createdAt = nowSeconds();
  let seq = 0;
  let id = '';
  let started = false;
  let ended = false;
  let final: Obj | null = null;
  const blocks = new Map<number, Block>();
  const order: Block[] = [];

  const emit = (type: string, data: Obj): string => encodeSseJson({ type, sequence_number: seq++, ...data }, type);
  const body = () => id.slice(RESPONSE_PREFIX.length);
  const thought = (b: Block): Reasoning => ({ text: b.text, ...b.reasoning });
  const items = (): Obj[] =>
    order.map((b) =>
      b.kind === 'reasoning'
        ? reasoningItem(b.itemId, thought(b), b.done ? 'completed' : 'in_progress', echo)
        : b.kind === 'message'
          ? messageItem(b.itemId, b.text, b.done ? 'completed' : 'in_progress')
          : callItem(b.itemId, b.call!, b.done ? 'completed' : 'in_progress', echo),
    );

  const start = (evId: string): string => {
    if (started) return '';
    started = true;
    id = responseId(evId || `resp_${createdAt}`);
    const r = responseObject(id, req, echo, [], 'in_progress', null, createdAt);
    return emit('response.created', { response: r }) + emit('response.in_progress', { response: r });
  };

  const open = (index: number, kind: Block['kind'], call?: Block['call']): { block: Block; text: string } => {
    const existing = blocks.get(index);
    if (existing) return { block: existing, text: '' };
    const outputIndex = order.length;
    const prefix = kind === 'message' ? 'msg' : kind === 'reasoning' ? 'rs' : 'fc';
    const block: Block = { outputIndex, kind, itemId: `${prefix}_${body()}${outputIndex}`, text: '', call, done: false };
    blocks.set(index, block);
    order.push(block);
    let out = emit('response.output_item.added', {
      output_index: outputIndex,
      item: kind === 'reasoning' ? reasoningItem(block.itemId, { text: '' }, 'in_progress', echo) : kind === 'message' ? messageItem(block.itemId, '', 'in_progress') : callItem(block.itemId, { ...call!, arguments: '' }, 'in_progress', echo),
    });
    if (kind === 'message') {
      out += emit('response.content_part.added', { item_id: block.itemId, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
    }
    return { block, text: out };
  };

  const close = (b: Block): string => {
    if (b.done) return '';
    b.done = true;
    const at = { item_id: b.itemId, output_index: b.outputIndex };
    let out = '';
    if (b.kind === 'reasoning') {
      if (b.text !== '') {
        const sat = { ...at, summary_index: 0 };
        out += emit('response.reasoning_summary_text.done', { ...sat, text: b.text });
        out += emit('response.reasoning_summary_part.done', { ...sat, part: { type: 'summary_text', text: b.text } });
      }
      return out + emit('response.output_item.done', { output_index: b.outputIndex, item: reasoningItem(b.itemId, thought(b), 'completed', echo) });
    }
    if (b.kind === 'message') {
      out += emit('response.output_text.done', { ...at, content_index: 0, text: b.text, logprobs: [] });
      out += emit('response.content_part.done', { ...at, content_index: 0, part: { type: 'output_text', text: b.text, annotations: [], logprobs: [] } });
      out += emit('response.output_item.done', { output_index: b.outputIndex, item: messageItem(b.itemId, b.text, 'completed') });
      return out;
    }
    const item = callItem(b.itemId, b.call!, 'completed', echo);
    if (item.type === 'custom_tool_call') {
      const input = String(argsToObject(b.call!.arguments)[CUSTOM_INPUT] ?? '');
      out += emit('response.custom_tool_call_input.delta', { item_id: item.id, output_index: b.outputIndex, delta: input });
      out += emit('response.custom_tool_call_input.done', { item_id: item.id, output_index: b.outputIndex, input });
    } else {
      out += emit('response.function_call_arguments.done', { ...at, name: b.call!.name, arguments: b.call!.arguments });
    }
    return out + emit('response.output_item.done', { output_index: b.outputIndex, item });
  };

  return {
    final: () => final,
    reasoning() {
      const b = order.find((x) => x.kind === 'reasoning');
      return b ? thought(b) : null;
    },
    encode(ev: StreamEvent): string {
      if (ended) return '';
      switch (ev.type) {
        case 'start':
          return start(ev.id);
        case 'text_delta': {
          let out = start('');
          const o = open(ev.index, 'message');
          out += o.text;
          if (o.block.done || ev.text === '') return out;
          o.block.text += ev.text;
          return out + emit('response.output_text.delta', { item_id: o.block.itemId, output_index: o.block.outputIndex, content_index: 0, delta: ev.text, logprobs: [] });
        }
        case 'reasoning_redacted':
          // Encrypted Anthropic thinking: a Responses reasoning item has no place for it.
          return start('');
        case 'reasoning_delta':
        case 'reasoning_signature': {
          let out = start('');
          const o = open(ev.index, 'reasoning');
          out += o.text;
          if (ev.type === 'reasoning_signature') {
            if (!o.block.done) o.block.reasoning = { signature: ev.signature, ...(ev.origin !== undefined ? { origin: ev.origin } : {}) };
            return out;
          }
          if (o.block.done || ev.text === '') return out;
          const sat = { item_id: o.block.itemId, output_index: o.block.outputIndex, summary_index: 0 };
          if (o.block.text === '') out += emit('response.reasoning_summary_part.added', { ...sat, part: { type: 'summary_text', text: '' } });
          o.block.text += ev.text;
          return out + emit('response.reasoning_summary_text.delta', { ...sat, delta: ev.text });
        }
        case 'tool_call_start':
          return start('') + open(ev.index, 'call', { id: ev.id, name: ev.name, arguments: '' }).text;
        case 'tool_call_delta': {
          const b = blocks.get(ev.index);
          if (!b || b.done || b.kind !== 'call') return '';
          b.call!.arguments += ev.argumentsDelta;
          if (echo.customTools?.has(b.call!.name)) return '';
          return emit('response.function_call_arguments.delta', { item_id: b.itemId, output_index: b.outputIndex, delta: ev.argumentsDelta });
        }
        case 'block_end': {
          const b = blocks.get(ev.index);
          return b ? close(b) : '';
        }
        case 'finish': {
          let out = start('');
          for (const b of order) out += close(b);
          ended = true;
          const status = statusOf(ev.finishReason);
          final = responseObject(id, req, echo, items(), status, ev.usage ?? null, createdAt, ev.finishReason);
          return out + emit(status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
        }
        case 'error': {
          ended = true;
          const e = errorBody(ev.status ?? 500, ev.code ?? 'server_error', ev.message).error as Obj;
          return emit('error', { code: e.code, message: ev.message, param: null });
        }
      }
    },
  };
}

// ---- upstream stream → canonical events ----

export function createStreamDecoder(): StreamDecoder {
  let started = false;
  let finished = false;
  /** Output indices of reasoning items, and the summary part each is on. */
  const summaries = new Map<number, number>();
  return {
    push(rec: SseRecord): StreamEvent[] {
      if (finished) return [];
      const d = safeJson(rec.data);
      if (!isObj(d)) return [];
      const type = typeof d.type === 'string' ? d.type : rec.event;
      const out: StreamEvent[] = [];
      const r = isObj(d.response) ? d.response : undefined;
      if (!started && type !== 'error') {
        started = true;
        out.push({ type: 'start', id: typeof r?.id === 'string' ? r.id : '', model: typeof r?.model === 'string' ? r.model : '' });
      }
      const index = typeof d.output_index === 'number' ? d.output_index : 0;
      switch (type) {
        case 'response.output_item.added': {
          const it = isObj(d.item) ? d.item : {};
          if (it.type === 'function_call') out.push({ type: 'tool_call_start', index, id: String(it.call_id ?? ''), name: String(it.name ?? '') });
          if (it.type === 'reasoning') summaries.set(index, -1);
          break;
        }
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          if (typeof d.delta !== 'string' || d.delta === '') break;
          // Summary parts of one item read as one text, a blank line apart.
          const part = typeof d.summary_index === 'number' ? d.summary_index : (typeof d.content_index === 'number' ? d.content_index : 0);
          const last = summaries.get(index) ?? -1;
          if (last !== -1 && part !== last) out.push({ type: 'reasoning_delta', index, text: '\n\n' });
          summaries.set(index, part);
          out.push({ type: 'reasoning_delta', index, text: d.delta });
          break;
        }
        case 'response.output_text.delta':
          if (typeof d.delta === 'string') out.push({ type: 'text_delta', index, text: d.delta });
          break;
        case 'response.function_call_arguments.delta':
          if (typeof d.delta === 'string') out.push({ type: 'tool_call_delta', index, argumentsDelta: d.delta });
          break;
        case 'response.output_item.done': {
          const it = isObj(d.item) ? d.item : {};
          if (it.type === 'reasoning' && typeof it.encrypted_content === 'string' && it.encrypted_content !== '') {
            out.push({ type: 'reasoning_signature', index, signature: it.encrypted_content, origin: 'responses' });
          }
          out.push({ type: 'block_end', index });
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          finished = true;
          const usage: Usage | undefined = usageFromWire(r?.usage);
          const calls = Array.isArray(r?.output) && r.output.some((o) => isObj(o) && o.type === 'function_call');
          let finishReason: FinishReason = calls ? 'tool_calls' : 'stop';
          if (type === 'response.incomplete') finishReason = isObj(r?.incomplete_details) && r.incomplete_details.reason === 'content_filter' ? 'content_filter' : 'length';
          out.push(usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason });
          break;
        }
        case 'response.failed':
        case 'error': {
          finished = true;
          const err = isObj(r?.error) ? r.error : d;
          out.push({ type: 'error', message: typeof err.message === 'string' ? err.message : 'upstream stream error' });
          break;
        }
      }
      return out;
    },
    end(): StreamEvent[] {
      if (finished) return [];
      finished = true;
      return [{ type: 'error', message: 'The upstream stream ended early', status: 502 }];
    },
  };
}

export function isTerminal(rec: SseRecord): boolean {
  return rec.event === 'response.completed' || rec.event === 'response.incomplete';
}

export function usageFromRecord(rec: SseRecord): UsagePatch | undefined {
  if (!isTerminal(rec)) return undefined;
  const d = safeJson(rec.data);
  return isObj(d) && isObj(d.response) ? usageFromWire(d.response.usage) : undefined;
}

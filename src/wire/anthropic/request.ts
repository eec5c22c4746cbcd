// Messages requests, both directions. The wire puts tool results inside user turns; canonical keeps
// them as a separate `tool` turn (results first, as this wire requires), so a user turn that mixes
// results and text splits in two on the way in and merges back on the way out. Thinking blocks in
// the history become reasoning parts (their signature goes back only to this wire's providers,
// wire/reasoning.ts); server tools (run by the vendor) are dropped (D19).
import type {
  CanonicalRequest,
  ContentPart,
  ImagePart,
  Message,
  ResponseFormat,
  Result,
  ToolChoice,
  ToolDef,
  ToolResultPart,
} from '../../core/canonical/types.ts';
import type { UpstreamOptions, UpstreamRequest } from '../types.ts';
import { reasoningPart, signatureFor } from '../reasoning.ts';
import { argsToObject, imageFromUrl, objectToArgs, pushMerged } from '../util.ts';
import {
  arr,
  bad,
  bool,
  guard,
  num,
  obj,
  oneOf,
  optArr,
  optBool,
  optNum,
  optObj,
  optStr,
  str,
  type Obj,
} from '../validate.ts';

export const MESSAGES_PATH = '/v1/messages';
export const API_VERSION = '2023-06-01';
/** This wire requires an output cap; used when the client's wire had none. */
export const DEFAULT_MAX_TOKENS = 4096;
/** Plain JSON mode has no native switch on this wire (only schema-constrained output), so it is
 * asked for in the system text. */
export const JSON_OUTPUT_HINT = 'Respond with a single valid JSON value and no other text.';

export function parseRequest(body: unknown): Result<CanonicalRequest> {
  return guard(() => parse(obj(body, 'body')));
}

function parse(b: Obj): CanonicalRequest {
  const model = str(b.model, 'model');
  const maxTokens = num(b.max_tokens, 'max_tokens', { int: true, min: 1 });
  const rawMessages = arr(b.messages, 'messages');
  if (rawMessages.length === 0) bad('messages', 'a non-empty array');

  const messages: Message[] = [];
  // Mid-conversation system turns (Claude Code sends one after the first user turn) have no place
  // of their own in the canonical call: their text joins the system text, in order (D19).
  const lateSystem: string[] = [];
  rawMessages.forEach((raw, i) => {
    const at = `messages[${i}]`;
    const m = obj(raw, at);
    const role = oneOf(m.role, `${at}.role`, ['user', 'assistant', 'system'] as const);
    if (role === 'system') {
      const text = systemText(m.content, `${at}.content`);
      if (text) lateSystem.push(text);
      return;
    }
    const blocks = blocksOf(m.content, `${at}.content`);
    if (role === 'assistant') {
      messages.push({ role: 'assistant', content: blocks.flatMap((blk, j) => assistantBlock(blk, `${at}.content[${j}]`)) });
      return;
    }
    const results: ContentPart[] = [];
    const rest: ContentPart[] = [];
    blocks.forEach((blk, j) => {
      const part = userBlock(blk, `${at}.content[${j}]`);
      if (part === null) return;
      (part.type === 'tool_result' ? results : rest).push(part);
    });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (rest.length > 0 || results.length === 0) messages.push({ role: 'user', content: rest });
  });

  if (messages.length === 0) bad('messages', 'at least one user or assistant turn');
  const req: CanonicalRequest = {
    shape: 'anthropic',
    model,
    messages,
    maxTokens,
    stream: optBool(b.stream, 'stream') ?? false,
  };
  const system = [systemText(b.system, 'system'), ...lateSystem].filter((t) => t !== undefined && t !== '');
  if (system.length > 0) req.system = system.join('\n\n');

  const thinking = optObj(b.thinking, 'thinking');
  if (thinking && (thinking.type === 'enabled' || thinking.type === 'adaptive')) req.reasoning = { visible: true };

  const tools = optArr(b.tools, 'tools');
  // Tools the vendor runs itself (server tools) have no equivalent elsewhere: dropped (D19).
  const defs = (tools ?? []).flatMap((t, i) => toolDef(t, `tools[${i}]`) ?? []);
  if (defs.length > 0) req.tools = defs;
  const tc = optObj(b.tool_choice, 'tool_choice');
  if (tc) {
    const type = oneOf(tc.type, 'tool_choice.type', ['auto', 'any', 'tool', 'none'] as const);
    const choice: ToolChoice =
      type === 'any' ? 'required' : type === 'tool' ? { name: str(tc.name, 'tool_choice.name') } : type;
    req.toolChoice = choice;
    const dp = optBool(tc.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use');
    if (dp !== undefined) req.parallelToolCalls = !dp;
  }

  const stop = optArr(b.stop_sequences, 'stop_sequences');
  if (stop && stop.length > 0) req.stop = stop.map((s, i) => str(s, `stop_sequences[${i}]`));
  const temperature = optNum(b.temperature, 'temperature', { min: 0, max: 1 });
  if (temperature !== undefined) req.temperature = temperature;
  const topP = optNum(b.top_p, 'top_p', { min: 0, max: 1 });
  if (topP !== undefined) req.topP = topP;
  optNum(b.top_k, 'top_k', { int: true, min: 0 });

  const oc = optObj(b.output_config, 'output_config');
  const format = oc ? optObj(oc.format, 'output_config.format') : optObj(b.output_format, 'output_format');
  if (format) req.responseFormat = outputFormat(format, oc ? 'output_config.format' : 'output_format');
  return req;
}

function blocksOf(v: unknown, at: string): Obj[] {
  if (typeof v === 'string') return [{ type: 'text', text: v }];
  if (!Array.isArray(v)) bad(at, 'a string or an array of content blocks', v);
  return v.map((blk, j) => obj(blk, `${at}[${j}]`));
}

function systemText(v: unknown, at: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v;
  return arr(v, at)
    .map((blk, i) => {
      const o = obj(blk, `${at}[${i}]`);
      return o.type === 'text' ? str(o.text, `${at}[${i}].text`) : '';
    })
    .filter((t) => t !== '')
    .join('\n\n');
}

/** An image block; one held by the vendor's Files API (`source.type: "file"`) has no equivalent. */
function image(blk: Obj, at: string): ImagePart | null {
  const src = obj(blk.source, `${at}.source`);
  const type = oneOf(src.type, `${at}.source.type`, ['base64', 'url', 'file'] as const);
  if (type === 'file') return null;
  if (type === 'url') return imageFromUrl(str(src.url, `${at}.source.url`));
  return { type: 'image', mediaType: str(src.media_type, `${at}.source.media_type`), data: str(src.data, `${at}.source.data`) };
}

/** The text a `document` or `search_result` block carries, when it carries text (D19). */
function blockText(blk: Obj, at: string): string | null {
  if (blk.type === 'search_result') {
    const texts = (optArr(blk.content, `${at}.content`) ?? []).map((c) => (isTextBlock(c) ? c.text : '')).filter((t) => t !== '');
    return [typeof blk.title === 'string' ? blk.title : '', ...texts].filter((t) => t !== '').join('\n');
  }
  const src = optObj(blk.source, `${at}.source`);
  if (!src) return null;
  let text: string | null = null;
  if (src.type === 'text' && typeof src.data === 'string') text = src.data;
  else if (src.type === 'content') {
    const c = src.content;
    text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((x) => (isTextBlock(x) ? x.text : '')).join('\n') : null;
  }
  if (text === null) return null; // a PDF (base64 or URL) or a Files API document: no equivalent
  return typeof blk.title === 'string' && blk.title !== '' ? `${blk.title}\n${text}` : text;
}

const isTextBlock = (x: unknown): x is { type: 'text'; text: string } =>
  typeof x === 'object' && x !== null && (x as Obj).type === 'text' && typeof (x as Obj).text === 'string';

/**
 * A user block. Text, images, tool results translate; documents and search results with text
 * become text; what has no equivalent (PDFs, container uploads, server-tool results) is dropped
 * when translating and goes as sent on the vendor-prefixed proxy (D19).
 */
function userBlock(blk: Obj, at: string): ContentPart | null {
  const type = str(blk.type, `${at}.type`);
  if (type === 'text') return { type: 'text', text: str(blk.text, `${at}.text`) };
  if (type === 'image') return image(blk, at);
  if (type === 'tool_result') {
    const part: ToolResultPart = {
      type: 'tool_result',
      toolCallId: str(blk.tool_use_id, `${at}.tool_use_id`),
      content: toolResultText(blk.content, `${at}.content`),
    };
    if (blk.is_error !== undefined && blk.is_error !== null && bool(blk.is_error, `${at}.is_error`)) part.isError = true;
    return part;
  }
  if (type === 'document' || type === 'search_result') {
    const text = blockText(blk, at);
    return text ? { type: 'text', text } : null;
  }
  return null;
}

function toolResultText(v: unknown, at: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  return arr(v, at)
    .map((blk, j) => {
      const o = obj(blk, `${at}[${j}]`);
      if (o.type === 'text') return str(o.text, `${at}[${j}].text`);
      // Images in a result have no place in a canonical (text) tool result; documents and search
      // results give their text.
      return o.type === 'document' || o.type === 'search_result' ? (blockText(o, `${at}[${j}]`) ?? '') : '';
    })
    .join('');
}

function assistantBlock(blk: Obj, at: string): ContentPart[] {
  const type = str(blk.type, `${at}.type`);
  if (type === 'text') return [{ type: 'text', text: str(blk.text, `${at}.text`) }];
  if (type === 'tool_use') {
    return [
      {
        type: 'tool_call',
        id: str(blk.id, `${at}.id`),
        name: str(blk.name, `${at}.name`),
        arguments: objectToArgs(optObj(blk.input, `${at}.input`) ?? {}),
      },
    ];
  }
  if (type === 'thinking') return [reasoningPart(str(blk.thinking, `${at}.thinking`), optStr(blk.signature, `${at}.signature`), 'anthropic')];
  if (type === 'redacted_thinking') {
    // Encrypted thinking (Claude Code sends it back in tool loops): a reasoning part with no text
    // whose signature is the block's data, so only an Anthropic provider ever gets it (as it came).
    const data = str(blk.data, `${at}.data`);
    return data === '' ? [] : [{ ...reasoningPart('', data, 'anthropic'), redacted: true }];
  }
  // Server-tool calls and their results: no canonical equivalent, dropped when translating (D19).
  return [];
}

function toolDef(raw: unknown, at: string): ToolDef | null {
  const t = obj(raw, at);
  if (t.type !== undefined && t.type !== null && t.type !== 'custom') return null;
  const def: ToolDef = { name: str(t.name, `${at}.name`), parameters: obj(t.input_schema, `${at}.input_schema`) };
  const description = optStr(t.description, `${at}.description`);
  if (description !== undefined) def.description = description;
  return def;
}

function outputFormat(f: Obj, at: string): ResponseFormat {
  oneOf(f.type, `${at}.type`, ['json_schema'] as const);
  return { type: 'json_schema', schema: obj(f.schema, `${at}.schema`) };
}

// ---- canonical → upstream body ----

/** Tool-use ids on this wire must match ^[a-zA-Z0-9_-]+$; other wires' ids are mapped the same
 * way in calls and results, so pairs still match. */
export const toolId = (id: string): string => id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'toolu_0';

export function buildUpstreamRequest(
  req: CanonicalRequest,
  upstreamModel: string,
  opts: UpstreamOptions = {},
): UpstreamRequest {
  const messages: Array<{ role: string; content: Obj[] }> = [];
  for (const m of req.messages) {
    const content = m.content.flatMap(renderPart);
    if (content.length === 0) continue;
    pushMerged(messages, { role: m.role === 'assistant' ? 'assistant' : 'user', content });
  }
  const body: Obj = {
    model: upstreamModel,
    max_tokens: req.maxTokens ?? opts.defaultMaxTokens ?? DEFAULT_MAX_TOKENS,
    messages: messages.map((m) =>
      m.content.length === 1 && m.content[0].type === 'text' ? { role: m.role, content: m.content[0].text } : m,
    ),
  };
  const budget = thinkingBudget(req, body.max_tokens as number);
  if (budget !== null) body.thinking = { type: 'enabled', budget_tokens: budget };
  let system = req.system;
  if (req.responseFormat?.type === 'json') system = system ? `${system}\n\n${JSON_OUTPUT_HINT}` : JSON_OUTPUT_HINT;
  if (system !== undefined) body.system = system;
  // Recent models take temperature or top_p, not both; temperature is the more common intent.
  // Thinking takes neither (the vendor refuses a changed temperature beside it).
  if (budget !== null) {
    /* sampling left to the vendor */
  } else if (req.temperature !== undefined) body.temperature = Math.min(req.temperature, 1);
  else if (req.topP !== undefined) body.top_p = req.topP;
  if (req.stop && req.stop.length > 0) body.stop_sequences = req.stop;
  if (req.tools && req.tools.length > 0) {
    body.tools = req.tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      input_schema: t.parameters,
    }));
    const tc = req.toolChoice;
    const choice: Obj | undefined =
      tc === undefined
        ? req.parallelToolCalls === false
          ? { type: 'auto' }
          : undefined
        : tc === 'required'
          ? { type: 'any' }
          : typeof tc === 'string'
            ? { type: tc }
            : { type: 'tool', name: tc.name };
    if (choice) {
      if (req.parallelToolCalls === false && choice.type !== 'none') choice.disable_parallel_tool_use = true;
      body.tool_choice = choice;
    }
  }
  if (req.responseFormat?.type === 'json_schema') {
    body.output_config = { format: { type: 'json_schema', schema: req.responseFormat.schema } };
  }
  if (req.stream) body.stream = true;
  return { path: MESSAGES_PATH, body, stream: req.stream };
}

/**
 * The thinking budget to ask for when the call asked for thinking, or null when this wire cannot
 * think for it: the vendor wants a budget of at least 1,024 tokens below max_tokens, no forced
 * tool, and, in a tool loop, the last assistant turn starting with its own signed thinking (one
 * that came from another wire's provider cannot be sent back).
 */
export function thinkingBudget(req: CanonicalRequest, maxTokens: number): number | null {
  if (!req.reasoning || maxTokens <= 1024) return null;
  if (req.toolChoice === 'required' || typeof req.toolChoice === 'object') return null;
  const lastAssistant = [...req.messages].reverse().find((m) => m.role === 'assistant');
  if (lastAssistant?.content.some((p) => p.type === 'tool_call')) {
    const first = lastAssistant.content[0];
    if (first?.type !== 'reasoning' || signatureFor(first, 'anthropic') === undefined) return null;
  }
  return Math.max(1024, Math.min(Math.floor(maxTokens / 2), 16_000));
}

function renderPart(p: ContentPart): Obj[] {
  switch (p.type) {
    case 'reasoning': {
      const signature = signatureFor(p, 'anthropic');
      // Thinking goes back only with this vendor's own signature; other thinking is dropped.
      if (signature === undefined) return [];
      return p.redacted ? [{ type: 'redacted_thinking', data: signature }] : [{ type: 'thinking', thinking: p.text, signature }];
    }
    case 'text':
      return p.text === '' ? [] : [{ type: 'text', text: p.text }];
    case 'image':
      return [
        {
          type: 'image',
          source:
            p.data !== undefined
              ? { type: 'base64', media_type: p.mediaType, data: p.data }
              : { type: 'url', url: p.url ?? '' },
        },
      ];
    case 'tool_call':
      return [{ type: 'tool_use', id: toolId(p.id), name: p.name, input: argsToObject(p.arguments) }];
    case 'tool_result':
      return [
        {
          type: 'tool_result',
          tool_use_id: toolId(p.toolCallId),
          content: p.content,
          ...(p.isError ? { is_error: true } : {}),
        },
      ];
  }
}

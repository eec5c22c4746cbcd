// Deterministic answers of the simulated upstream, shaped by the canonical request: the same
// request always gets the same answer. Text echoes the prompt's words and grows with the prompt;
// JSON is produced when asked (an instance of the schema when one is given); a tool is called when
// the last user turn names it (or the choice forces one); a tool result gets a text reply; prose
// is in the language the prompt asks for (languages.ts).
// `max tokens` and stop sequences are honoured the way a real model ends: `length` / `stop`.
// Token counts are ≈ chars/4, the usual rule of thumb, so billing tests get realistic numbers.
import type {
  CanonicalRequest,
  CanonicalResponse,
  ContentPart,
  FinishReason,
  ReasoningOrigin,
  StreamEvent,
  TextPart,
  ToolCallPart,
  ToolDef,
  Usage,
} from '../core/canonical/types.ts';
import { createHash } from 'node:crypto';
import { proseIn, requestedLanguage, topicWords } from './languages.ts';

export const BAD_ANSWERS = ['empty', 'refusal', 'truncated', 'bad_json', 'wrong_language', 'hallucination'] as const;
export type BadAnswer = (typeof BAD_ANSWERS)[number];

export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

const IMAGE_TOKENS = 85;
const MESSAGE_OVERHEAD = 4;

export function countInputTokens(req: CanonicalRequest): number {
  let chars = req.system?.length ?? 0;
  let extra = 0;
  for (const m of req.messages) {
    extra += MESSAGE_OVERHEAD;
    for (const p of m.content) {
      if (p.type === 'text') chars += p.text.length;
      else if (p.type === 'image') extra += IMAGE_TOKENS;
      else if (p.type === 'tool_call') chars += p.name.length + p.arguments.length;
      else if (p.type === 'reasoning') chars += p.text.length;
      else chars += p.content.length;
    }
  }
  if (req.tools) for (const t of req.tools) chars += t.name.length + (t.description?.length ?? 0) + JSON.stringify(t.parameters).length;
  return Math.max(1, tokensOf(chars) + extra);
}

/** Every prompt text, for fault rules that match a substring of the prompt. */
export function promptText(req: CanonicalRequest): string {
  const parts: string[] = [];
  if (req.system) parts.push(req.system);
  for (const m of req.messages) for (const p of m.content) if (p.type === 'text') parts.push(p.text);
  return parts.join('\n');
}

/**
 * Agents wrap context they add to a user turn in tags (`<system-reminder>`, `<environment_context>`,
 * …); the person's own words are the rest. A turn made only of such context is not a new request.
 */
const isContext = (text: string): boolean => /^\s*<([\w-]+)[^>]*>[\s\S]*<\/\1>\s*$/.test(text);

function ownText(m: CanonicalRequest['messages'][number]): string {
  const texts = m.content.filter((p): p is TextPart => p.type === 'text').map((p) => p.text);
  const own = texts.filter((t) => !isContext(t));
  return own.join(' ');
}

/** The conversation without trailing user turns that carry only agent context. */
function effectiveMessages(req: CanonicalRequest): CanonicalRequest['messages'] {
  let end = req.messages.length;
  while (end > 1) {
    const m = req.messages[end - 1];
    if (m.role !== 'user' || ownText(m).trim() !== '' || m.content.some((p) => p.type !== 'text')) break;
    end--;
  }
  return end === req.messages.length ? req.messages : req.messages.slice(0, end);
}

function lastUserText(req: CanonicalRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i];
    if (m.role !== 'user') continue;
    const own = ownText(m);
    if (own.trim() !== '') return own;
    const text = m.content
      .filter((p): p is TextPart => p.type === 'text')
      .map((p) => p.text)
      .join(' ');
    if (text.trim() !== '') return text;
  }
  return '';
}

const STOPWORDS = new Set(
  'about above after again also because been before being between could does doing during each from have having here into just more most other over please same should some such than that their them then there these they this those through under until very what when where which while with would your you'.split(
    ' ',
  ),
);

function keywords(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}_-]{4,}/gu) ?? []) {
    if (STOPWORDS.has(w) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length >= 24) break;
  }
  return out;
}

const TEMPLATES: Array<(k: string) => string> = [
  (k) => `The key point about ${k} is that it depends on the context you described.`,
  (k) => `A careful look at ${k} suggests a few practical steps.`,
  (k) => `First, consider how ${k} relates to the goal you stated.`,
  (k) => `Next, check the assumptions behind ${k} before relying on it.`,
  (k) => `In most cases ${k} behaves predictably once the inputs are clear.`,
  (k) => `It also helps to compare ${k} with the simplest alternative.`,
  (k) => `Keep an eye on edge cases where ${k} might not hold.`,
  (k) => `Finally, revisit ${k} once you have real results to measure.`,
];

const GERMAN = [
  'Dies ist eine simulierte Antwort.',
  'Die wichtigsten Punkte werden hier kurz zusammengefasst.',
  'Zuerst sollten die Annahmen sorgfältig geprüft werden.',
  'Danach lassen sich die Ergebnisse besser vergleichen.',
  'Schließlich empfiehlt es sich, die Lösung schrittweise umzusetzen.',
];

/** Plausible prose of about `targetTokens`, built from the prompt's own words. */
function prose(prompt: string, targetTokens: number): string {
  const words = keywords(prompt);
  const topic = prompt.trim().split(/\s+/).slice(0, 8).join(' ').replace(/[?!.:;,]+$/, '');
  const sentences = [topic ? `Here is a simulated answer to "${topic}".` : 'Here is a simulated answer.'];
  let chars = sentences[0].length;
  const target = targetTokens * 4;
  for (let i = 0; chars < target; i++) {
    const s = TEMPLATES[i % TEMPLATES.length](words.length > 0 ? words[i % words.length] : 'the question');
    sentences.push(s);
    chars += s.length + 1;
  }
  return sentences.join(' ');
}

function german(targetTokens: number): string {
  const out: string[] = [];
  let chars = 0;
  for (let i = 0; chars < targetTokens * 4; i++) {
    out.push(GERMAN[i % GERMAN.length]);
    chars += GERMAN[i % GERMAN.length].length + 1;
  }
  return out.join(' ');
}

function hallucination(prompt: string): string {
  const k = keywords(prompt)[0] ?? 'this topic';
  return (
    `According to the 2031 Treaty of Atlantis (Article 42.7), ${k} was formally defined by the Lunar Standards Council. ` +
    `Professor Ada Quillborne proved in the Journal of Imaginary Results (vol. 913, p. 4471) that ${k} is 173% more efficient. ` +
    `This is confirmed at https://example.invalid/definitely-real-source and is universally accepted.`
  );
}

// ---- JSON instances of a schema ----

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

export function sampleFromSchema(schema: unknown, words: string[], name = 'value', depth = 0): Json {
  if (!isSchema(schema) || depth > 6) return null;
  if ('const' in schema) return schema.const as Json;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0] as Json;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list) && list.length > 0) {
      const pick = list.find((s) => !(isSchema(s) && s.type === 'null')) ?? list[0];
      return sampleFromSchema({ ...schema, [k]: undefined, ...(pick as Schema) }, words, name, depth + 1);
    }
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null' && t !== 'NULL') ?? type[0];
  // Gemini's schemas spell types upper-case (`OBJECT`), in every spelling of the field.
  if (typeof type === 'string') type = type.toLowerCase();
  if (type === undefined) type = isSchema(schema.properties) ? 'object' : schema.items ? 'array' : 'string';
  switch (type) {
    case 'object': {
      const props = isSchema(schema.properties) ? schema.properties : {};
      const out: { [k: string]: Json } = {};
      for (const [k, v] of Object.entries(props).slice(0, 24)) out[k] = sampleFromSchema(v, words, k, depth + 1);
      if (Array.isArray(schema.required)) {
        for (const k of schema.required) if (typeof k === 'string' && !(k in out)) out[k] = `${k} value`;
      }
      return out;
    }
    case 'array': {
      const n = Math.min(3, Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1));
      return Array.from({ length: n }, (_, i) => sampleFromSchema(schema.items, words.slice(i), name, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      let v = 42;
      if (min !== undefined && v < min) v = min;
      if (max !== undefined && v > max) v = max;
      return type === 'integer' ? Math.round(v) : v;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const fmt = schema.format;
      if (fmt === 'date') return '2025-01-15';
      if (fmt === 'date-time') return '2025-01-15T12:00:00Z';
      if (fmt === 'email') return 'user@example.com';
      if (fmt === 'uri' || fmt === 'url') return 'https://example.com/';
      let s = words.length > 0 ? words[0] : `${name} value`;
      if (typeof schema.minLength === 'number') while (s.length < schema.minLength) s += ' more';
      if (typeof schema.maxLength === 'number') s = s.slice(0, schema.maxLength);
      return s;
    }
  }
}

// ---- tools ----

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The prompt names the tool as a word of its own (`Read` is not in "already"). */
function mentions(text: string, tool: ToolDef): boolean {
  const n = tool.name.toLowerCase();
  const spellings = [n, n.replace(/[_-]+/g, ' ')];
  return spellings.some((w) => new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRe(w)}($|[^\\p{L}\\p{N}_])`, 'iu').test(text));
}

/** What a prompt spells out for a tool: an absolute path, a `command` in backticks, a "quoted" text. */
function promptSlots(prompt: string): { path?: string; command?: string; quoted?: string } {
  return {
    path: /(?:^|[\s(])(\/[^\s"'`),]+[^\s"'`),.])/.exec(prompt)?.[1],
    command: /`([^`]+)`/.exec(prompt)?.[1],
    quoted: /"([^"]+)"/.exec(prompt)?.[1],
  };
}

/** Arguments for a call: the schema's instance, with string slots filled from the prompt. */
function toolArgs(tool: ToolDef, prompt: string): string {
  const capitalised = (prompt.match(/(?<![.!?]\s|^)\b\p{Lu}[\p{L}-]+/gu) ?? []).filter((w) => !mentions(w, tool));
  const words = [...capitalised, ...keywords(prompt).filter((w) => !mentions(w, tool))];
  const args = sampleFromSchema(tool.parameters, words);
  const slots = promptSlots(prompt);
  const props = isSchema(tool.parameters.properties) ? tool.parameters.properties : {};
  if (args && typeof args === 'object' && !Array.isArray(args)) {
    // Like a model, fill what the tool requires and leave its optional knobs (a shell, a tty…) unset.
    const required = Array.isArray(tool.parameters.required) ? (tool.parameters.required as unknown[]) : null;
    if (required) for (const k of Object.keys(args)) if (!required.includes(k)) delete args[k];
    // A path, a command or a text the prompt gives goes to the argument whose name asks for it,
    // so an agent's own tools (write a file, run a command) do what the prompt says.
    for (const [k, schema] of Object.entries(props)) {
      if (!(k in args)) continue;
      const type = isSchema(schema) ? schema.type : undefined;
      if (slots.path && /path|file|dir/i.test(k) && type === 'string') args[k] = slots.path;
      else if (slots.command && /^(command|cmd|script)$/i.test(k)) {
        args[k] = type === 'array' ? ['bash', '-lc', slots.command] : slots.command;
      } else if (slots.quoted !== undefined && /^(content|contents|text)$/i.test(k) && type === 'string') args[k] = slots.quoted;
    }
  }
  return JSON.stringify(args);
}

function toolsToCall(req: CanonicalRequest, prompt: string): ToolDef[] {
  const tools = req.tools ?? [];
  if (tools.length === 0 || req.toolChoice === 'none') return [];
  const turns = effectiveMessages(req);
  const last = turns[turns.length - 1];
  if (!last || last.role !== 'user') return [];
  const choice = req.toolChoice;
  if (typeof choice === 'object') {
    const forced = tools.find((t) => t.name === choice.name);
    return forced ? [forced] : [];
  }
  const named = tools.filter((t) => mentions(prompt, t));
  const picked = named.length > 0 ? named : choice === 'required' ? [tools[0]] : [];
  return req.parallelToolCalls === false ? picked.slice(0, 1) : picked.slice(0, 3);
}

function toolResultReply(req: CanonicalRequest): string | undefined {
  const turns = effectiveMessages(req);
  const last = turns[turns.length - 1];
  if (!last || last.role !== 'tool') return undefined;
  const lines: string[] = [];
  for (const p of last.content) {
    if (p.type !== 'tool_result') continue;
    const name = p.name ?? findCallName(req, p.toolCallId) ?? 'the tool';
    const content = p.content.length > 200 ? `${p.content.slice(0, 200)}…` : p.content;
    lines.push(p.isError ? `The call to ${name} failed: ${content}.` : `The ${name} tool returned: ${content}.`);
  }
  lines.push('Based on that result, here is a short summary of what it means for your request.');
  return lines.join(' ');
}

function findCallName(req: CanonicalRequest, id: string): string | undefined {
  for (const m of req.messages) for (const p of m.content) if (p.type === 'tool_call' && p.id === id) return p.name;
  return undefined;
}

// ---- the answer ----

export interface SimAnswer {
  content: Array<TextPart | ToolCallPart>;
  finishReason: FinishReason;
  stopSequence?: string;
  usage: Usage;
  /** Thinking, when the request asked for it: `text` is '' when only its tokens are reported. */
  reasoning?: { text: string; signature: string; origin: ReasoningOrigin; redacted?: string[] };
}

/**
 * The answer, thinking first when the request asks for it (D19, issue 23 item 6): a short,
 * deterministic train of thought with an opaque signature, its tokens added to the output (as
 * every vendor bills them) and reported apart as reasoning tokens.
 */
export function simulateAnswer(req: CanonicalRequest, responseId: string, bad?: BadAnswer): SimAnswer {
  const a = answerOf(req, responseId, bad);
  if (!req.reasoning) return a;
  const topic = lastUserText(req).trim().split(/\s+/).slice(0, 12).join(' ');
  const thought = `The request is: "${topic}". ${a.content.some((p) => p.type === 'tool_call') ? 'A tool can answer this, so I will call it.' : 'I can answer this directly; I will keep it accurate and to the point.'}`;
  const tokens = tokensOf(thought.length);
  a.usage = { ...a.usage, outputTokens: a.usage.outputTokens + tokens, reasoningTokens: tokens };
  const origin = originOf(req);
  a.reasoning = { text: req.reasoning.visible ? thought : '', signature: simSignature(origin, thought), origin };
  // Anthropic's documented trigger for testing redacted thinking: encrypted thinking comes back too.
  if (origin === 'anthropic' && lastUserText(req).includes(REDACTED_THINKING_TRIGGER)) a.reasoning.redacted = [simSignature(origin, `redacted:${thought}`)];
  return a;
}

/** The string Anthropic documents for testing `redacted_thinking` handling. */
export const REDACTED_THINKING_TRIGGER = 'ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253';

/** The wire whose signatures this request's vendor makes (the chat wire shows none; its Responses sibling does). */
const originOf = (req: CanonicalRequest): ReasoningOrigin => (req.shape === 'openai' ? 'responses' : req.shape);

/** An opaque signature naming the vendor that made it, so a vendor can refuse another's (as real ones do). */
function simSignature(origin: ReasoningOrigin, thought: string): string {
  return Buffer.from(`sim:${origin}:${createHash('sha256').update(thought).digest('hex')}`).toString('base64');
}

/**
 * Thinking sent back with a signature another vendor made is refused, as every vendor refuses
 * it: the message names the first such part.
 */
export function foreignSignature(req: CanonicalRequest): string | null {
  const own = originOf(req);
  for (let i = 0; i < req.messages.length; i++) {
    for (const p of req.messages[i].content) {
      if (p.type !== 'reasoning' || p.signature === undefined) continue;
      // Opaque strings the sim did not make pass (tests send made-up ones); another vendor's do not.
      const maker = /^sim:(anthropic|gemini|responses):/.exec(Buffer.from(p.signature, 'base64').toString('utf8'))?.[1];
      if (p.origin !== own || (maker !== undefined && maker !== own)) return `Invalid signature on the reasoning in message ${i}: it was not made by this provider (simulated ${own}).`;
    }
  }
  return null;
}

function answerOf(req: CanonicalRequest, responseId: string, bad?: BadAnswer): SimAnswer {
  const inputTokens = countInputTokens(req);
  const prompt = lastUserText(req);
  const done = (text: string, finishReason: FinishReason = 'stop', stopSequence?: string): SimAnswer => {
    const a: SimAnswer = {
      content: text === '' ? [] : [{ type: 'text', text }],
      finishReason,
      usage: { inputTokens, outputTokens: tokensOf(text.length) },
    };
    if (stopSequence !== undefined) a.stopSequence = stopSequence;
    return a;
  };
  const wantsJson = req.responseFormat?.type === 'json' || req.responseFormat?.type === 'json_schema';
  // Answers grow with the prompt, within bounds a benchmark can live with.
  const natural = Math.min(400, Math.max(24, Math.round(inputTokens * 0.8) + 16));

  if (bad === 'empty') return done('');
  if (bad === 'refusal') return done("I'm sorry, but I can't help with that request.");
  if (bad === 'bad_json') return done('{"answer": "this JSON never closes, "items": [1, 2,');
  if (bad === 'hallucination') return done(hallucination(prompt));
  const language = requestedLanguage(`${req.system ?? ''}\n${prompt}`);
  // The wrong language is German, unless German was asked for.
  if (bad === 'wrong_language') return capped(req, language === 'german' ? prose(prompt, natural) : german(natural), inputTokens);
  if (bad === 'truncated') {
    const full = prose(prompt, natural);
    const cut = full.slice(0, Math.max(12, Math.floor(full.length * 0.4)));
    return done(cut.replace(/[\s.,;:!?]+\S*$/, '').trimEnd() || cut, 'length');
  }

  const calls = toolsToCall(req, prompt);
  if (calls.length > 0) {
    const content: ToolCallPart[] = calls.map((t, i) => ({
      type: 'tool_call',
      id: `call_${responseId.slice(0, 16)}${i}`,
      name: t.name,
      arguments: toolArgs(t, prompt),
    }));
    const out = content.reduce((n, c) => n + tokensOf(c.name.length + c.arguments.length) + 3, 0);
    return { content, finishReason: 'tool_calls', usage: { inputTokens, outputTokens: out } };
  }

  const afterTool = toolResultReply(req);
  if (afterTool !== undefined) return capped(req, afterTool, inputTokens);

  if (wantsJson) {
    const words = keywords(prompt);
    const value: Json =
      req.responseFormat?.type === 'json_schema'
        ? sampleFromSchema(req.responseFormat.schema, words)
        : { answer: language ? proseIn(language, topicWords(words), 12) : prose(prompt, 12), topic: words[0] ?? 'general', confidence: 0.9 };
    return capped(req, JSON.stringify(value), inputTokens);
  }
  return capped(req, language ? proseIn(language, topicWords(keywords(prompt)), natural) : prose(prompt, natural), inputTokens);
}

/** Apply stop sequences, then the output cap, as a model would end its answer. */
function capped(req: CanonicalRequest, text: string, inputTokens: number): SimAnswer {
  let finishReason: FinishReason = 'stop';
  let stopSequence: string | undefined;
  if (req.stop) {
    let at = -1;
    for (const s of req.stop) {
      const k = s === '' ? -1 : text.indexOf(s);
      if (k >= 0 && (at < 0 || k < at)) {
        at = k;
        stopSequence = s;
      }
    }
    if (at >= 0) text = text.slice(0, at);
  }
  if (req.maxTokens !== undefined && tokensOf(text.length) > req.maxTokens) {
    text = text.slice(0, req.maxTokens * 4);
    finishReason = 'length';
    stopSequence = undefined;
  }
  const a: SimAnswer = {
    content: text === '' ? [] : [{ type: 'text', text }],
    finishReason,
    usage: { inputTokens, outputTokens: tokensOf(text.length) },
  };
  if (stopSequence !== undefined) a.stopSequence = stopSequence;
  return a;
}

export function toResponse(a: SimAnswer, id: string, model: string): CanonicalResponse {
  const res: CanonicalResponse = { id, model, content: a.content, finishReason: a.finishReason, usage: a.usage };
  if (a.stopSequence !== undefined) res.stopSequence = a.stopSequence;
  if (a.reasoning) res.reasoning = a.reasoning;
  return res;
}

/** Split text into a handful of word-aligned deltas (more for longer answers, at most 32). */
export function splitDeltas(text: string): string[] {
  if (text.length <= 12) return text === '' ? [] : [text];
  const size = Math.max(12, Math.ceil(text.length / 32));
  const out: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    if (end < text.length) {
      const space = text.indexOf(' ', end);
      end = space === -1 || space - start > size * 2 ? end : space + 1;
    }
    out.push(text.slice(start, end));
    start = end;
  }
  return out;
}

/** The answer as canonical stream events, the order a real model streams it. */
export function answerEvents(a: SimAnswer, id: string, model: string): StreamEvent[] {
  const evs: StreamEvent[] = [{ type: 'start', id, model, inputTokens: a.usage.inputTokens }];
  // Thinking is the first block; the answer's blocks follow it.
  const redacted = a.reasoning?.redacted ?? [];
  const first = a.reasoning ? 1 + redacted.length : 0;
  if (a.reasoning) {
    for (const text of splitDeltas(a.reasoning.text)) evs.push({ type: 'reasoning_delta', index: 0, text });
    evs.push({ type: 'reasoning_signature', index: 0, signature: a.reasoning.signature, origin: a.reasoning.origin });
    evs.push({ type: 'block_end', index: 0 });
    redacted.forEach((data, k) => evs.push({ type: 'reasoning_redacted', index: 1 + k, data }, { type: 'block_end', index: 1 + k }));
  }
  a.content.forEach((p: ContentPart, i) => {
    const index = i + first;
    if (p.type === 'text') {
      for (const text of splitDeltas(p.text)) evs.push({ type: 'text_delta', index, text });
    } else if (p.type === 'tool_call') {
      evs.push({ type: 'tool_call_start', index, id: p.id, name: p.name });
      const third = Math.ceil(p.arguments.length / 3);
      for (let k = 0; k < p.arguments.length; k += third) {
        evs.push({ type: 'tool_call_delta', index, argumentsDelta: p.arguments.slice(k, k + third) });
      }
    }
    evs.push({ type: 'block_end', index });
  });
  const fin: StreamEvent = { type: 'finish', finishReason: a.finishReason, usage: a.usage };
  if (a.stopSequence !== undefined) fin.stopSequence = a.stopSequence;
  evs.push(fin);
  return evs;
}

// The inline quality check (D5): a deterministic, cheap QA score for a non-streamed response,
// computed before it is returned, so a poor answer can be escalated one rung. It looks for the
// failures a cheap model actually produces and that can be seen without a second model:
//   accuracy            empty output, refusal, content filter / upstream error, truncation,
//                       an answer that only echoes the prompt;
//   structure           truncation, unparseable JSON, json_schema not met, unclosed code fence,
//                       malformed or schema-violating tool-call arguments;
//   instructionFidelity requested language not used, length limit exceeded, required tool call
//                       missing or wrong, JSON asked for and not given;
//   hallucinationRisk   URLs, citations and precise figures that the prompt did not supply,
//                       overconfident appeals to unnamed authority, calls to undeclared tools.
// Each finding deducts the amounts in FINDINGS (or adds RISK) and adds a reason code; dimensions
// are clamped to 0..1 and rounded to 4 decimals. Pattern heuristics read bounded windows; the only
// whole-text work is linear: JSON.parse of a requested JSON answer, counting words or sentences
// against a length limit, and includes() lookups of at most 20 candidate URLs / citations in the
// prompt. The asynchronous full QA score is a separate, later step.
import type { CanonicalRequest, CanonicalResponse, ToolCallPart } from '../canonical/types.ts';
import { readInstructions, type LengthLimit } from './instructions.ts';
import { validateJsonSchema } from './json-schema.ts';
import { languageVerdict } from './language.ts';
import type { QaScore } from './score.ts';

/** Characters of the answer read by the pattern heuristics (URLs, citations, figures, refusals). */
export const ANSWER_WINDOW = 8192;
const REFUSAL_WINDOW = 400;
/** A refusal in an answer shorter than this is the whole answer, not a caveat. */
const FULL_REFUSAL_MAX = 600;
/** Answers shorter than this are not judged for ending mid-sentence. */
const MID_SENTENCE_MIN = 200;
const MAX_CANDIDATES = 20;

/**
 * What each finding deducts from accuracy / structure / instruction fidelity (0..1 points), and
 * whether it escalates on its own at the default floor 0.6 (checked by a test). The split is a
 * product judgement: a finding escalates alone when the client cannot use the answer as it is
 * (nothing, a refusal, broken JSON or tool calls, the wrong language); softer slips (verbosity,
 * a missing full stop, a fenced JSON block, a truncation at the client's own max_tokens, which a
 * bigger model would hit too) only lower the score and escalate under a stricter floor or in
 * combination.
 */
export const FINDINGS = {
  truncated: { accuracy: 0.3, structure: 0.4, fidelity: 0, escalatesAlone: false },
  ends_mid_sentence: { accuracy: 0, structure: 0.15, fidelity: 0, escalatesAlone: false },
  unclosed_code_fence: { accuracy: 0, structure: 0.2, fidelity: 0, escalatesAlone: false },
  content_filtered: { accuracy: 1, structure: 0, fidelity: 0.3, escalatesAlone: true },
  upstream_error: { accuracy: 1, structure: 0, fidelity: 0.3, escalatesAlone: true },
  refusal: { accuracy: 1, structure: 0, fidelity: 0.6, escalatesAlone: true },
  partial_refusal: { accuracy: 0.2, structure: 0, fidelity: 0, escalatesAlone: false },
  echoed_prompt: { accuracy: 1, structure: 0, fidelity: 0.5, escalatesAlone: true },
  json_unparseable: { accuracy: 0.4, structure: 1, fidelity: 0.6, escalatesAlone: true },
  json_fenced: { accuracy: 0, structure: 0.1, fidelity: 0, escalatesAlone: false },
  schema_violation: { accuracy: 0.3, structure: 1, fidelity: 0.5, escalatesAlone: true },
  language_mismatch: { accuracy: 0.5, structure: 0, fidelity: 1, escalatesAlone: true },
  length_exceeded: { accuracy: 0, structure: 0, fidelity: 0.4, escalatesAlone: false },
  tool_call_missing: { accuracy: 0.4, structure: 0.5, fidelity: 1, escalatesAlone: true },
  tool_call_wrong_name: { accuracy: 0.4, structure: 0.3, fidelity: 1, escalatesAlone: true },
  tool_call_unexpected: { accuracy: 0.4, structure: 0.3, fidelity: 1, escalatesAlone: true },
  tool_args_unparseable: { accuracy: 0.4, structure: 1, fidelity: 0.4, escalatesAlone: true },
  tool_args_schema_violation: { accuracy: 0.3, structure: 1, fidelity: 0.5, escalatesAlone: true },
} as const satisfies Record<string, { accuracy: number; structure: number; fidelity: number; escalatesAlone: boolean }>;
export type Finding = keyof typeof FINDINGS;

/** Additions to hallucination risk. Risk above 0.5 escalates by itself (D5). */
export const RISK = {
  /** Calling a tool the request never declared is an invented action. */
  undeclaredTool: 0.6,
  unsourcedUrl: 0.1,
  unsourcedUrlCap: 0.3,
  unsourcedCitation: 0.15,
  unsourcedCitationCap: 0.3,
  unsourcedFigure: 0.1,
  unsourcedFigureCap: 0.3,
  /** Figures beyond this many, in answer to a prompt with no figures at all, count as suspect. */
  figuresAllowed: 2,
  overconfident: 0.1,
  overconfidentCap: 0.2,
} as const;

const REFUSALS = [
  "i can't help with",
  'i cannot help with',
  "i can't assist",
  'i cannot assist',
  "i'm sorry, but i can't",
  "i'm sorry, but i cannot",
  'i am sorry, but i cannot',
  'i am unable to',
  "i'm unable to",
  "i won't be able to",
  "i can't provide",
  'i cannot provide',
  'as an ai language model',
  "i'm not able to help",
  'i must decline',
  'i cannot comply',
  "i can't comply",
];

const OVERCONFIDENT = [
  'studies show',
  'studies have shown',
  'research shows',
  'research proves',
  'scientists agree',
  'experts agree',
  'it is a well-known fact',
  'it is a proven fact',
  'according to a recent study',
  'it has been proven that',
  '100% guaranteed',
];

const URL_RE = /https?:\/\/[^\s<>()[\]{}"'`]+/g;
// Author-year citations, DOIs and arXiv ids.
const CITATION_RE = /\b[A-Z][a-z]{1,30} et al\.?,? \(?(?:19|20)\d\d\)?|\b10\.\d{4,9}\/[^\s"'<>]{1,100}|\barxiv:\s?\d{4}\.\d{4,5}/gi;
// Precise figures: thousands separators, decimals, long integers, percentages.
const FIGURE_RE = /\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d+|\d{5,}|\d+(?:\.\d+)?\s?%/g;

const clamp = (x: number): number => Math.round(Math.min(1, Math.max(0, x)) * 10_000) / 10_000;

function answerText(res: CanonicalResponse): string {
  let out = '';
  for (const part of res.content) if (part.type === 'text') out += part.text;
  return out;
}

/** Prompt texts in full, for "did the prompt supply this?" lookups (native includes()). */
function promptTexts(req: CanonicalRequest): string[] {
  const texts: string[] = [];
  if (req.system) texts.push(req.system);
  for (const m of req.messages) {
    for (const p of m.content) {
      if (p.type === 'text') texts.push(p.text);
      else if (p.type === 'tool_result') texts.push(p.content);
      else if (p.type === 'image' && p.url) texts.push(p.url);
    }
  }
  return texts;
}

const inPrompt = (texts: readonly string[], needle: string): boolean => texts.some((t) => t.includes(needle));

/** JSON text of an answer, unwrapping one ```json fence; `fenced` says whether it was wrapped. */
function unwrapJson(text: string): { body: string; fenced: boolean } {
  const t = text.trim();
  if (t.startsWith('```')) {
    const firstNewline = t.indexOf('\n');
    const end = t.lastIndexOf('```');
    if (firstNewline !== -1 && end > firstNewline) return { body: t.slice(firstNewline + 1, end).trim(), fenced: true };
  }
  return { body: t, fenced: false };
}

function countUnits(text: string, unit: LengthLimit['unit']): number {
  switch (unit) {
    case 'word': {
      let words = 0;
      let inWord = false;
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        const space = c === 32 || c === 10 || c === 9 || c === 13;
        if (!space && !inWord) words++;
        inWord = !space;
      }
      return words;
    }
    case 'sentence': {
      // A terminator followed by whitespace or the end; "3.5" and "e.g." mid-word do not count.
      const n = (text.trim().match(/[.!?。！？]+(?=\s|$)/g) ?? []).length;
      return Math.max(n, text.trim() === '' ? 0 : 1);
    }
    case 'paragraph':
      return text.split(/\n\s*\n/).filter((p) => p.trim() !== '').length;
    case 'bullet':
      return (text.match(/^\s*(?:[-*•]|\d{1,3}[.)])\s/gm) ?? []).length;
    case 'line':
      return text.split('\n').filter((l) => l.trim() !== '').length;
  }
}

/** Slack before a limit counts as exceeded: counting is approximate (see countUnits). */
function allowance(limit: LengthLimit): number {
  if (limit.unit === 'word') return limit.max + Math.max(2, Math.ceil(limit.max * 0.2));
  return limit.max + 1;
}

function endsMidSentence(text: string): boolean {
  const t = text.trimEnd();
  if (t.length < MID_SENTENCE_MIN) return false;
  const lastLine = t.slice(t.lastIndexOf('\n') + 1).trimStart();
  // Lists, headings, tables and code lines legitimately end without a full stop.
  if (/^(?:[-*•#|>]|\d{1,3}[.)]|```)/.test(lastLine) || lastLine.length < 40) return false;
  const c = t.charCodeAt(t.length - 1);
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 44; // letter or comma
  return letter;
}

export function inlineCheck(req: CanonicalRequest, res: CanonicalResponse): QaScore {
  let accuracy = 1;
  let structure = 1;
  let fidelity = 1;
  let risk = 0;
  const reasons: string[] = [];
  /** Deducts a finding once; `details` become "code: detail" reasons (several allowed). */
  const found = (code: Finding, ...details: string[]) => {
    const f = FINDINGS[code];
    accuracy -= f.accuracy;
    structure -= f.structure;
    fidelity -= f.fidelity;
    if (details.length === 0) reasons.push(code);
    else for (const d of details) reasons.push(`${code}: ${d}`);
  };

  const text = answerText(res);
  const toolCalls = res.content.filter((p): p is ToolCallPart => p.type === 'tool_call');
  const hasText = text.trim() !== '';

  if (!hasText && toolCalls.length === 0) {
    return {
      accuracy: 0,
      structure: 0,
      instructionFidelity: 0,
      hallucinationRisk: 0,
      reasons: res.finishReason === 'content_filter' ? ['empty_output', 'content_filtered'] : ['empty_output'],
    };
  }

  // Finish reason.
  if (res.finishReason === 'length') found('truncated');
  else if (res.finishReason === 'content_filter') found('content_filtered');
  else if (res.finishReason === 'error') found('upstream_error');

  const head = text.length > ANSWER_WINDOW ? text.slice(0, ANSWER_WINDOW) : text;
  const instructions = readInstructions(req);
  const format = req.responseFormat?.type ?? 'text';
  const jsonWanted = format === 'json' || format === 'json_schema' || instructions.jsonInWords;

  // Refusal.
  if (hasText) {
    const opening = head.slice(0, REFUSAL_WINDOW).toLowerCase().replace(/\u2019/g, "'");
    if (REFUSALS.some((r) => opening.includes(r))) {
      found(text.length < FULL_REFUSAL_MAX ? 'refusal' : 'partial_refusal');
    }
  }

  // Echo: the answer is just the newest user message again.
  let lastUserText = '';
  for (let m = req.messages.length - 1; m >= 0 && lastUserText === ''; m--) {
    if (req.messages[m].role !== 'user') continue;
    for (const p of req.messages[m].content) if (p.type === 'text') lastUserText += p.text;
    lastUserText = lastUserText.trim();
  }
  if (hasText && lastUserText.length > 20 && text.trim() === lastUserText) found('echoed_prompt');

  // Truncation the finish reason did not admit, and broken markdown.
  if (res.finishReason === 'stop' && hasText && !jsonWanted && endsMidSentence(text)) found('ends_mid_sentence');
  if (hasText && !jsonWanted) {
    let fences = 0;
    for (let at = text.indexOf('```'); at !== -1; at = text.indexOf('```', at + 3)) fences++;
    if (fences % 2 === 1) found('unclosed_code_fence');
  }

  // Requested JSON and schema. A tool call answers instead of text, so it is judged below.
  if (jsonWanted && toolCalls.length === 0) {
    const { body, fenced } = unwrapJson(text);
    let parsed: { ok: true; value: unknown } | { ok: false } = { ok: false };
    try {
      parsed = { ok: true, value: JSON.parse(body) };
    } catch {
      parsed = { ok: false };
    }
    if (!parsed.ok) {
      found('json_unparseable');
    } else {
      // A fence is normal when JSON was asked for in words, a format slip under a response format.
      if (fenced && format !== 'text') found('json_fenced');
      if (req.responseFormat?.type === 'json_schema') {
        const errors = validateJsonSchema(req.responseFormat.schema, parsed.value);
        if (errors.length > 0) found('schema_violation', ...errors.slice(0, 3).map((e) => `${e.path} ${e.message}`));
      }
    }
  }

  // Tools.
  const choice = req.toolChoice;
  const declared = req.tools ?? [];
  if ((choice === 'required' || (typeof choice === 'object' && choice !== null)) && toolCalls.length === 0) {
    found('tool_call_missing');
  }
  if (typeof choice === 'object' && choice !== null && toolCalls.length > 0 && !toolCalls.some((t) => t.name === choice.name)) {
    found('tool_call_wrong_name', toolCalls[0].name);
  }
  if (choice === 'none' && toolCalls.length > 0) found('tool_call_unexpected');
  let argsUnparseable = false;
  let argsSchema = false;
  let undeclared = false;
  for (const call of toolCalls) {
    const def = declared.find((d) => d.name === call.name);
    if (!def) undeclared = true;
    let args: unknown;
    try {
      args = JSON.parse(call.arguments === '' ? '{}' : call.arguments);
    } catch {
      argsUnparseable = true;
      continue;
    }
    if (def && validateJsonSchema(def.parameters, args).length > 0) argsSchema = true;
  }
  if (argsUnparseable) found('tool_args_unparseable');
  if (argsSchema) found('tool_args_schema_violation');
  if (undeclared) {
    risk += RISK.undeclaredTool;
    reasons.push('tool_not_declared');
  }

  // Language and length instructions apply to prose answers only.
  if (hasText && !jsonWanted) {
    if (instructions.language) {
      if (languageVerdict(head, instructions.language) === 'mismatch') found('language_mismatch', instructions.language);
    }
    for (const limit of instructions.limits) {
      const n = countUnits(text, limit.unit);
      if (n > allowance(limit)) {
        found('length_exceeded', `${n} ${limit.unit}s for "${limit.phrase}"`);
        break;
      }
    }
  }

  // Hallucination heuristics on the answer window.
  if (hasText) {
    const prompt = promptTexts(req);
    const lower = head.toLowerCase();
    const hosts = new Set<string>();
    // Literal pre-checks keep the regexes off the common answer that has no link or citation.
    for (const m of lower.includes('http') ? head.matchAll(URL_RE) : []) {
      if (hosts.size >= MAX_CANDIDATES) break;
      const url = m[0].replace(/[.,;:!?]+$/, '');
      const host = url.replace(/^https?:\/\//, '').split(/[/?#]/)[0].toLowerCase();
      if (host && !inPrompt(prompt, host) && !inPrompt(prompt, url)) hosts.add(host);
    }
    if (hosts.size > 0) {
      risk += Math.min(RISK.unsourcedUrlCap, hosts.size * RISK.unsourcedUrl);
      reasons.push(`unsourced_url: ${[...hosts].slice(0, 3).join(', ')}`);
    }

    const citations = new Set<string>();
    const maybeCitation = lower.includes('et al') || lower.includes('10.') || lower.includes('arxiv');
    for (const m of maybeCitation ? head.matchAll(CITATION_RE) : []) {
      if (citations.size >= MAX_CANDIDATES) break;
      if (!inPrompt(prompt, m[0])) citations.add(m[0]);
    }
    if (citations.size > 0) {
      risk += Math.min(RISK.unsourcedCitationCap, citations.size * RISK.unsourcedCitation);
      reasons.push(`unsourced_citation: ${[...citations].slice(0, 3).join('; ')}`);
    }

    // Only when the prompt supplied no figures of its own: then precise numbers came from the model.
    if (!prompt.some((t) => /\d/.test(t))) {
      const figures = new Set<string>();
      for (const m of head.matchAll(FIGURE_RE)) {
        figures.add(m[0]);
        if (figures.size > MAX_CANDIDATES) break;
      }
      const suspect = figures.size - RISK.figuresAllowed;
      if (suspect > 0) {
        risk += Math.min(RISK.unsourcedFigureCap, suspect * RISK.unsourcedFigure);
        reasons.push(`unsourced_figures: ${figures.size}`);
      }
    }

    if (hosts.size === 0 && citations.size === 0) {
      const claims = OVERCONFIDENT.filter((p) => lower.includes(p));
      if (claims.length > 0) {
        risk += Math.min(RISK.overconfidentCap, claims.length * RISK.overconfident);
        reasons.push(`overconfident_claim: ${claims.slice(0, 2).join(', ')}`);
      }
    }
  }

  return {
    accuracy: clamp(accuracy),
    structure: clamp(structure),
    instructionFidelity: clamp(fidelity),
    hallucinationRisk: clamp(risk),
    reasons,
  };
}

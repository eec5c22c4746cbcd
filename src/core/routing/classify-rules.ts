// The hand-written Layer 1 classifier that D18 replaced (keyword lists and thresholds). It no longer
// routes traffic: it is kept, unchanged in behaviour, as the baseline `npm run eval:routing` and the
// tests compare the trained classifier with (classify.ts).
// Budget: Layer 1 must stay under 5 ms p99 (spec §8); this classifier targets well under 0.1 ms on
// an 8k-token prompt, so it never reads a prompt in full:
//  - prompt length comes from string lengths (O(1) per string, pricing/estimate.ts);
//  - code fences are counted with native indexOf over the whole text (memchr-speed, capped);
//  - every other signal comes from ONE character pass over bounded windows: the head and tail of
//    each text (the instruction is usually at one end, pasted material in the middle), newest
//    message first, under a global character budget, plus the head of the system prompt;
//  - keywords are matched without regexes or substrings: each word is FNV-hashed while it is
//    scanned, a 64 KiB bit filter rejects almost every word in one load, and only filter hits
//    touch a Map and are verified character by character (so a hash collision cannot misfire).
// Same request in, same classification out: no randomness, no clock, no locale-dependent calls.
import type { CanonicalRequest } from '../canonical/types.ts';
import { estimateInputTokens } from '../pricing/estimate.ts';
import { TASK_FAMILIES, type Complexity, type TaskFamily } from './vocabulary.ts';

/** Characters read from the start and end of each text. */
export const HEAD_WINDOW = 2048;
export const TAIL_WINDOW = 1024;
/** Characters read from the start of the system prompt (its role line and main rules). */
export const SYSTEM_WINDOW = 1024;
/** Total characters the message pass may read across all messages. */
export const SCAN_BUDGET = 6144;
/** Code-fence markers counted per text at most; more tells us nothing new. */
const MAX_FENCES = 64;

export interface RuleFeatures {
  /** Estimated input tokens of the whole request. */
  promptTokens: number;
  messageCount: number;
  /** ``` markers (two per fenced block). */
  codeFences: number;
  /** Code-like tokens: braces, semicolons, arrows, snake_case, camelCase, indented lines. */
  codeSignals: number;
  /** Math symbols and digit-operator-digit patterns. */
  mathSignals: number;
  questionMarks: number;
  /** Numbered or bulleted lines: several parts asked for at once. */
  listItems: number;
  /** Weighted keyword hits per family (newest user message counts double; complexity words do not). */
  keywordHits: Record<TaskFamily, number>;
  complexityUpHits: number;
  complexityDownHits: number;
  /** Non-ASCII characters in the scanned windows (other scripts, typography). */
  nonAsciiChars: number;
  toolCount: number;
  /** A JSON response format was requested. */
  jsonRequested: boolean;
  imageCount: number;
  maxTokens: number | null;
  /** Characters the pass actually read, for auditing the budget. */
  scannedChars: number;
}

export interface RuleClassification {
  taskFamily: TaskFamily;
  complexity: Complexity;
  features: RuleFeatures;
}

// ---------------------------------------------------------------------------------------------
// Keyword dictionary. Slots 0..8 are the families in TASK_FAMILIES order, then complexity up/down.
// "word:3" gives a weight; "two words" is a bigram (adjacent words, any separator between).

const UP = TASK_FAMILIES.length;
const DOWN = UP + 1;
const SLOTS = DOWN + 1;

const KEYWORDS: Record<TaskFamily | 'complexity-up' | 'complexity-down', readonly string[]> = {
  coding: [
    'code:2', 'coding:2', 'function', 'functions', 'bug:2', 'bugs', 'debug:2', 'debugging:2', 'compile', 'compiler',
    'exception', 'stacktrace', 'stack trace:2', 'typescript:2', 'javascript:2', 'python:2', 'java', 'rust', 'golang',
    'sql:2', 'regex:2', 'api', 'endpoint', 'refactor:2', 'refactoring:2', 'implement', 'implementation', 'method',
    'variable', 'repository', 'repo', 'git', 'docker', 'kubernetes', 'npm', 'async', 'await', 'unit test:2',
    'unit tests:2', 'pull request:2', 'segfault:2', 'null pointer', 'html', 'css', 'react', 'script', 'programming:2',
    'snippet', 'library', 'runtime', 'syntax', 'lint', 'dockerfile', 'bash', 'shell', 'query', 'architecture',
    'system design:2', 'microservices:2', 'database', 'backend', 'frontend', 'encryption', 'deploy', 'server',
  ],
  writing: [
    'write', 'essay:2', 'blog:2', 'post', 'article:2', 'story:2', 'poem:2', 'email:2', 'letter', 'draft:2', 'rewrite:2',
    'paraphrase:2', 'tone', 'headline:2', 'slogan:2', 'copy', 'cover letter:3', 'proofread:2', 'narrative', 'creative',
    'tagline:2', 'speech', 'newsletter:2', 'caption', 'lyrics:2', 'wording', 'polish',
  ],
  research: [
    'research:2', 'sources:2', 'cite', 'citation', 'citations', 'compare', 'comparison', 'history', 'explain',
    'why', 'evidence:2', 'study', 'studies', 'paper', 'papers', 'literature:2', 'overview', 'investigate',
    'background', 'trends', 'market', 'pros', 'cons', 'difference', 'differences', 'landscape',
  ],
  'data-analysis': [
    'data', 'dataset:2', 'csv:3', 'spreadsheet:3', 'excel:2', 'table', 'column', 'columns', 'rows', 'chart', 'plot',
    'statistics:2', 'statistical:2', 'regression:2', 'correlation:2', 'average', 'mean', 'median:2', 'pivot:2',
    'pandas:3', 'dataframe:3', 'metrics', 'kpi:2', 'visualize', 'visualise', 'aggregate', 'analyze', 'analyse',
    'cohort', 'variance', 'outliers:2', 'distribution',
  ],
  math: [
    'prove:2', 'proof:2', 'theorem:3', 'lemma:3', 'equation:2', 'equations:2', 'integral:3', 'derivative:3', 'solve',
    'calculate:2', 'compute', 'probability:2', 'matrix', 'algebra:2', 'geometry:2', 'calculus:3', 'polynomial:3',
    'eigenvalue:3', 'eigenvalues:3', 'formula', 'arithmetic:2', 'prime', 'factorial:2', 'sqrt:2', 'frac:2',
    'math:2', 'maths:2', 'mathematics:2', 'inequality', 'modulo',
  ],
  summarization: [
    'summarize:3', 'summarise:3', 'summary:3', 'summarization:3', 'tldr:3', 'tl dr:3', 'recap:2', 'condense:2',
    'gist:2', 'key points:2', 'key takeaways:2', 'takeaways', 'shorten', 'digest', 'synopsis:2', 'abstract',
  ],
  translation: [
    'translate:4', 'translation:4', 'translated:3', 'translating:3', 'french', 'spanish', 'german', 'italian',
    'portuguese', 'chinese', 'japanese', 'korean', 'russian', 'arabic', 'dutch', 'hindi', 'localize:2', 'localise:2',
  ],
  extraction: [
    'extract:3', 'extraction:3', 'parse:2', 'fields:2', 'entities:2', 'entity', 'json:2', 'yaml', 'xml', 'schema:2',
    'invoice', 'receipt', 'classify:2', 'categorize:2', 'categorise:2', 'label', 'labels', 'structured:2',
    'key value', 'ner', 'sentiment:2',
  ],
  conversation: [
    'hi', 'hello', 'hey', 'thanks', 'thank', 'how are', 'joke', 'advice', 'recommend', 'opinion', 'feel',
    'good morning', 'you think', 'chatting',
  ],
  'complexity-up': [
    // D12 names proofs and design as high complexity on their own.
    'prove:3', 'proof:3', 'design:2', 'architecture:2', 'architect', 'optimize', 'optimise', 'tradeoffs', 'trade offs',
    'comprehensive', 'thorough', 'detailed', 'in depth', 'step by', 'derive', 'rigorous', 'rigorously', 'scalable', 'distributed',
    'concurrency', 'edge cases', 'essay', 'article', 'report', 'multi', 'end to', 'production', 'benchmark',
    'complexity', 'analysis',
  ],
  'complexity-down': [
    'briefly', 'brief', 'short', 'quick', 'quickly', 'simple', 'one word', 'one sentence', 'tl dr', 'tldr',
    'yes or',
  ],
};

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const FILTER_MASK = 0xffff;
const FILTER_SINGLE = 1;
const FILTER_PAIR = 2;

interface Entry {
  first: string;
  second: string | null;
  targets: Array<[slot: number, weight: number]>;
}

const pairHash = (a: number, b: number): number => (Math.imul(a ^ 0x9e3779b9, FNV_PRIME) ^ b) >>> 0;

function hashAscii(word: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

const FILTER = new Uint8Array(FILTER_MASK + 1);
const SINGLE = new Map<number, Entry[]>();
const PAIR = new Map<number, Entry[]>();

function addKeyword(spec: string, slot: number): void {
  const [text, w] = spec.split(':');
  const weight = w === undefined ? 1 : Number(w);
  const words = text.split(' ');
  for (const word of words) {
    // Only [a-z0-9] words can ever match the scanner's folded hash; anything else is a typo here.
    if (!/^[a-z0-9]+$/.test(word) || words.length > 2) throw new Error(`bad routing keyword "${spec}"`);
  }
  const first = words[0];
  const second = words.length === 2 ? words[1] : null;
  const h = second === null ? hashAscii(first) : pairHash(hashAscii(first), hashAscii(second));
  const map = second === null ? SINGLE : PAIR;
  FILTER[h & FILTER_MASK] |= second === null ? FILTER_SINGLE : FILTER_PAIR;
  const list = map.get(h) ?? [];
  let entry = list.find((e) => e.first === first && e.second === second);
  if (!entry) {
    entry = { first, second, targets: [] };
    list.push(entry);
    map.set(h, list);
  }
  entry.targets.push([slot, weight]);
}

for (const [group, specs] of Object.entries(KEYWORDS)) {
  const slot = group === 'complexity-up' ? UP : group === 'complexity-down' ? DOWN : TASK_FAMILIES.indexOf(group as TaskFamily);
  for (const spec of specs) addKeyword(spec, slot);
}

// ---------------------------------------------------------------------------------------------
// The character pass.

/** Mutable tallies for one classify() call; a single object keeps property access monomorphic. */
interface Tally {
  slots: Int32Array;
  codeSignals: number;
  mathSignals: number;
  questionMarks: number;
  listItems: number;
  nonAscii: number;
  scanned: number;
}

// ASCII character classes, looked up once per character instead of a chain of range tests.
const C_OTHER = 0; // punctuation handled in the switch below
const C_LOWER = 1;
const C_UPPER = 2;
const C_DIGIT = 3;
const C_UNDERSCORE = 4;
const C_SPACE = 5;
const CLASS = new Uint8Array(128);
/** The lowercase of an ASCII letter, the code itself for anything else: hash input. */
const FOLD = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  FOLD[c] = c;
  if (c >= 97 && c <= 122) CLASS[c] = C_LOWER;
  else if (c >= 65 && c <= 90) {
    CLASS[c] = C_UPPER;
    FOLD[c] = c | 0x20;
  } else if (c >= 48 && c <= 57) CLASS[c] = C_DIGIT;
  else if (c === 95) CLASS[c] = C_UNDERSCORE;
  else if (c === 32 || c === 9 || c === 13) CLASS[c] = C_SPACE;
}

/** Case-folded comparison of s[start, start+len) with an ASCII lowercase word. */
function sameWord(s: string, start: number, len: number, word: string): boolean {
  if (len !== word.length) return false;
  for (let k = 0; k < len; k++) {
    const c = s.charCodeAt(start + k);
    if ((c < 128 ? FOLD[c] : c) !== word.charCodeAt(k)) return false;
  }
  return true;
}

function isMathSymbol(c: number): boolean {
  switch (c) {
    case 0x2211: // ∑
    case 0x222b: // ∫
    case 0x221a: // √
    case 0x2264: // ≤
    case 0x2265: // ≥
    case 0x2260: // ≠
    case 0x221e: // ∞
    case 0x03c0: // π
    case 0x00b1: // ±
    case 0x00d7: // ×
    case 0x00f7: // ÷
    case 0x2202: // ∂
    case 0x2207: // ∇
    case 0x2208: // ∈
    case 0x2200: // ∀
    case 0x2203: // ∃
    case 0x2248: // ≈
      return true;
    default:
      return false;
  }
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function applyTargets(slots: Int32Array, entry: Entry, weight: number): void {
  const targets = entry.targets;
  for (let k = 0; k < targets.length; k++) {
    const slot = targets[k][0];
    // Complexity words describe the task, not whose turn it is, so they are not weighted.
    slots[slot] += slot >= UP ? targets[k][1] : targets[k][1] * weight;
  }
}

/**
 * One pass over s[from, to). Words are runs of [A-Za-z0-9_] and non-ASCII letters; a word's hash
 * is folded to lowercase as it is read, and the previous word is kept for bigram keywords.
 * Word characters (most of any text) take the short path at the top of the loop.
 */
function scanRange(s: string, from: number, to: number, weight: number, t: Tally): void {
  const slots = t.slots;
  let h = FNV_OFFSET;
  let start = 0;
  let len = 0;
  let ascii = true;
  let prevH = 0;
  let prevStart = 0;
  let prevLen = 0;
  let prevClass = C_OTHER;
  let lastSignificant = 0;
  let atLineStart = from === 0;
  let indent = 0;
  let code = 0;
  let math = 0;
  let questions = 0;
  let lists = 0;
  let nonAscii = 0;

  // Index `to` is visited as a virtual space so the last word is flushed.
  for (let i = from; i <= to; i++) {
    const c = i < to ? s.charCodeAt(i) : 32;
    let k: number;
    if (c < 128) k = CLASS[c];
    else if (c === 0xa0 || c === 0x3000 || c === 0x2028 || isMathSymbol(c)) k = C_OTHER;
    else k = C_LOWER; // any other non-ASCII code unit continues a word (é, ß, 中, …)

    if (k >= C_LOWER && k <= C_UNDERSCORE) {
      if (len === 0) {
        start = i;
        if (atLineStart) {
          atLineStart = false;
          if (indent >= 4) code++;
          if (k === C_DIGIT) {
            const n1 = s.charCodeAt(i + 1);
            if (n1 === 46 || n1 === 41 || (isDigit(n1) && (s.charCodeAt(i + 2) === 46 || s.charCodeAt(i + 2) === 41))) lists++;
          }
        }
      } else if (k === C_UPPER && prevClass === C_LOWER) {
        code++; // camelCase
      }
      if (c < 128) {
        h = Math.imul(h ^ FOLD[c], FNV_PRIME);
        if (k === C_UNDERSCORE) code++; // snake_case
      } else {
        h = Math.imul(h ^ c, FNV_PRIME);
        ascii = false;
        nonAscii++;
      }
      prevClass = k;
      len++;
      continue;
    }

    // A separator: flush the current word through the keyword filter.
    if (len > 0) {
      const hw = h >>> 0;
      if (ascii && len <= 16) {
        if (FILTER[hw & FILTER_MASK] & FILTER_SINGLE) {
          const list = SINGLE.get(hw);
          if (list) for (const e of list) if (sameWord(s, start, len, e.first)) applyTargets(slots, e, weight);
        }
        if (prevLen > 0) {
          const ph = pairHash(prevH, hw);
          if (FILTER[ph & FILTER_MASK] & FILTER_PAIR) {
            const list = PAIR.get(ph);
            if (list) {
              for (const e of list) {
                if (sameWord(s, prevStart, prevLen, e.first) && sameWord(s, start, len, e.second as string)) applyTargets(slots, e, weight);
              }
            }
          }
        }
        prevH = hw;
        prevStart = start;
        prevLen = len;
      } else {
        prevLen = 0;
      }
      lastSignificant = s.charCodeAt(i - 1);
      h = FNV_OFFSET;
      len = 0;
      ascii = true;
      prevClass = C_OTHER;
    }

    if (k === C_SPACE) {
      if (atLineStart) indent += c === 9 ? 4 : c === 32 ? 1 : 0;
      continue;
    }
    if (c === 10) {
      atLineStart = true;
      indent = 0;
      continue;
    }

    switch (c) {
      case 123: // {
      case 125: // }
      case 59: // ;
        code++;
        break;
      case 40: // "()" is a call
        if (s.charCodeAt(i + 1) === 41) code++;
        break;
      case 60: // "</" closes a tag; digit < digit is math
        if (s.charCodeAt(i + 1) === 47) code++;
        else if (isDigit(lastSignificant)) math++;
        break;
      case 61: // "=>" is code; digit = digit is math
        if (s.charCodeAt(i + 1) === 62) code++;
        else if (isDigit(lastSignificant) && isDigit(nextNonSpace(s, i + 1, to))) math++;
        break;
      case 94: // ^
        math++;
        break;
      case 43: // +
      case 42: // *
      case 47: // /
      case 45: // -
        if (atLineStart && (c === 45 || c === 42) && s.charCodeAt(i + 1) === 32) lists++;
        else if (isDigit(lastSignificant) && isDigit(nextNonSpace(s, i + 1, to))) math++;
        break;
      case 63: // ?
        questions++;
        prevLen = 0;
        break;
      case 46: // . ! : end a sentence, so no bigram spans them
      case 33:
      case 58:
        prevLen = 0;
        break;
      case 0x2022: // • bullet
        if (atLineStart) lists++;
        break;
      default:
        if (c >= 128 && isMathSymbol(c)) math++;
    }
    if (atLineStart) {
      atLineStart = false;
      if (indent >= 4) code++;
    }
    lastSignificant = c;
  }

  t.codeSignals += code;
  t.mathSignals += math;
  t.questionMarks += questions;
  t.listItems += lists;
  t.nonAscii += nonAscii;
  t.scanned += to - from;
}

function nextNonSpace(s: string, i: number, to: number): number {
  const c = i < to ? s.charCodeAt(i) : 0;
  if (c !== 32) return c;
  return i + 1 < to ? s.charCodeAt(i + 1) : 0;
}

/** Head and tail windows of s, within what is left of the budget; returns the characters used. */
function scanText(s: string, weight: number, t: Tally, budget: number): number {
  const n = s.length;
  if (budget <= 0 || n === 0) return 0;
  if (n <= HEAD_WINDOW + TAIL_WINDOW && n <= budget) {
    scanRange(s, 0, n, weight, t);
    return n;
  }
  const head = Math.min(HEAD_WINDOW, budget, n);
  scanRange(s, 0, head, weight, t);
  const tail = Math.min(TAIL_WINDOW, budget - head, n - head);
  if (tail > 0) scanRange(s, n - tail, n, weight, t);
  return head + tail;
}

function countFences(s: string): number {
  let count = 0;
  let at = s.indexOf('```');
  while (at !== -1 && count < MAX_FENCES) {
    count++;
    at = s.indexOf('```', at + 3);
  }
  return count;
}

// ---------------------------------------------------------------------------------------------
// Decision.

/** Tie-break order: explicit intents before broad ones, conversation last. */
const PRIORITY: readonly TaskFamily[] = [
  'translation',
  'summarization',
  'extraction',
  'math',
  'coding',
  'data-analysis',
  'research',
  'writing',
  'conversation',
];

/** Complexity points: at or below LOW_MAX is low, at or above HIGH_MIN is high. */
const LOW_MAX = 0;
const HIGH_MIN = 3;
const LONG_CONTEXT_TOKENS = 6000;
const MEDIUM_CONTEXT_TOKENS = 1500;

export function classifyByRules(req: CanonicalRequest): RuleClassification {
  const t: Tally = { slots: new Int32Array(SLOTS), codeSignals: 0, mathSignals: 0, questionMarks: 0, listItems: 0, nonAscii: 0, scanned: 0 };

  let fences = 0;
  let images = 0;
  if (req.system) {
    fences += countFences(req.system);
    scanRange(req.system, 0, Math.min(req.system.length, SYSTEM_WINDOW), 1, t);
  }

  // Newest first: the latest user turn carries the instruction, so it gets the budget first and
  // counts double.
  let budget = SCAN_BUDGET;
  let latestUserSeen = false;
  for (let m = req.messages.length - 1; m >= 0; m--) {
    const message = req.messages[m];
    const weight = message.role === 'user' && !latestUserSeen ? 2 : 1;
    if (message.role === 'user') latestUserSeen = true;
    for (const part of message.content) {
      if (part.type === 'text') {
        fences += countFences(part.text);
        budget -= scanText(part.text, weight, t, budget);
      } else if (part.type === 'image') {
        images++;
      } else if (part.type === 'tool_result') {
        budget -= scanText(part.content, 1, t, budget);
      }
    }
  }

  const keywordHits = {} as Record<TaskFamily, number>;
  for (let f = 0; f < TASK_FAMILIES.length; f++) keywordHits[TASK_FAMILIES[f]] = t.slots[f];

  const jsonRequested = req.responseFormat?.type === 'json' || req.responseFormat?.type === 'json_schema';
  const features: RuleFeatures = {
    promptTokens: estimateInputTokens(req),
    messageCount: req.messages.length,
    codeFences: fences,
    codeSignals: t.codeSignals,
    mathSignals: t.mathSignals,
    questionMarks: t.questionMarks,
    listItems: t.listItems,
    keywordHits,
    complexityUpHits: t.slots[UP],
    complexityDownHits: t.slots[DOWN],
    nonAsciiChars: t.nonAscii,
    toolCount: req.tools?.length ?? 0,
    jsonRequested,
    imageCount: images,
    maxTokens: req.maxTokens ?? null,
    scannedChars: t.scanned,
  };
  return { taskFamily: pickFamily(features), complexity: pickComplexity(features), features };
}

/** Keyword scores plus structural evidence; conversation when nothing points anywhere. */
export function pickFamily(f: RuleFeatures): TaskFamily {
  const score = { ...f.keywordHits };
  score.coding += Math.min(f.codeFences, 6) + Math.min(f.codeSignals >> 2, 6);
  score.math += Math.min(f.mathSignals, 6);
  if (f.jsonRequested) score.extraction += 3;
  if (f.promptTokens >= MEDIUM_CONTEXT_TOKENS && score.summarization > 0) score.summarization += 2;
  let best: TaskFamily = 'conversation';
  let bestScore = 0;
  for (const family of PRIORITY) {
    if (score[family] > bestScore) {
      best = family;
      bestScore = score[family];
    }
  }
  return best;
}

/** D12: low = one step or short; medium = several steps or a page; high = multi-part, long context, large code. */
export function pickComplexity(f: RuleFeatures): Complexity {
  let points = 0;
  if (f.promptTokens >= LONG_CONTEXT_TOKENS) points += 3;
  else if (f.promptTokens >= MEDIUM_CONTEXT_TOKENS) points += 1;
  if (f.maxTokens !== null) {
    if (f.maxTokens >= 4000) points += 2;
    else if (f.maxTokens >= 1000) points += 1;
    else if (f.maxTokens <= 64) points -= 1;
  }
  if (f.codeFences >= 4) points += 1;
  if (f.codeSignals >= 40) points += 1;
  points += Math.min(f.complexityUpHits, 3);
  points -= Math.min(f.complexityDownHits, 2);
  if (f.questionMarks >= 3 || f.listItems >= 3) points += 1;
  if (f.toolCount >= 3) points += 1;
  if (f.messageCount >= 8) points += 1;
  if (f.imageCount >= 3) points += 1;
  if (points <= LOW_MAX) return 'low';
  if (points >= HIGH_MIN) return 'high';
  return 'medium';
}

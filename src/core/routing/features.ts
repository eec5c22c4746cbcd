// Layer 1 feature extraction (D18): hashed word and character n-grams plus structural features of a
// canonical request, shared by the classifier (which adds weights as features are found) and the
// offline training script (which records them), so training and serving can never disagree.
//
// Budget (D16: Layer 1 p99 under 0.2 ms on an 8k-token prompt): nothing reads a prompt in full.
//  - the newest user message is read in a head and a tail window (the instruction is usually at
//    one end, pasted material in the middle); the system prompt and earlier turns in short heads;
//  - code fences are counted with native indexOf (capped), lengths come from string lengths;
//  - words and n-grams are hashed while the window is scanned: no substrings, no regexes, no Map.
// Same request in, same features out: no randomness, no clock, no locale-dependent calls
// (String#toLowerCase is locale-independent; toLocaleLowerCase is not used).
import type { CanonicalRequest, Message } from '../canonical/types.ts';
import { estimateInputTokens } from '../pricing/estimate.ts';
import { CUES, type CueSlot } from './lexicon.ts';

/**
 * Hash buckets: 2^20, so the n-grams of fourteen languages rarely collide (with 2^16 the
 * cross-author CV read other authors' families 1.8 points worse than with 2^18, and 2^18 1.4
 * points worse than 2^20 on session 18's author-grouped folds); the dense table is 16 MiB.
 */
export const HASH_BITS = 20;
export const HASH_MASK = (1 << HASH_BITS) - 1;

/** Characters of the newest user message read from its start and from its end. */
export const HEAD_WINDOW = 1024;
export const TAIL_WINDOW = 384;
/** Characters of the newest user message read for character n-grams (start, then end). */
export const CHAR_HEAD = 160;
export const CHAR_TAIL = 64;
/** Characters read from the start of the system prompt. */
export const SYSTEM_WINDOW = 512;
/** Characters read from the start of each earlier message, and from all of them together. */
export const HISTORY_WINDOW = 256;
export const HISTORY_BUDGET = 1024;
/** Words of the newest user message kept as "opening" and "closing" words. */
export const EDGE_WORDS = 8;
const MAX_FENCES = 64;

/**
 * Feature namespaces. Text namespaces are scaled by 1/sqrt(features in the namespace), so a long
 * paste does not drown the instruction and a short prompt is not read as "no evidence".
 */
export const NS_STRUCT = 0;
export const NS_WORDS = 1;
export const NS_CHARS = 2;
export const NS_EDGE = 3;
export const NS_SYSTEM = 4;
export const NS_HISTORY = 5;
/** Words of the instruction proper: the opening paragraph and a short closing one. */
export const NS_INSTR = 6;
export const NAMESPACES = 7;

/** Characters of the opening and of the closing paragraph read as the instruction proper. */
export const INSTR_OPENING = 400;
export const INSTR_CLOSING = 400;

/** Receives every feature occurrence; value 1 each, scaled per namespace by the consumer. */
export interface FeatureSink {
  add(ns: number, bucket: number): void;
}

/** What the call-log row keeps: the request's shape as Layer 1 saw it. */
export interface Structure {
  promptTokens: number;
  messageCount: number;
  userTurns: number;
  systemChars: number;
  /** Characters of the newest user message (its text parts together). */
  instructionChars: number;
  /** ``` markers (two per fenced block) in all text. */
  codeFences: number;
  /** Lines in the read windows that look like code, a table row, or a list item. */
  codeLines: number;
  tableLines: number;
  listItems: number;
  questionMarks: number;
  mathSignals: number;
  /** The dominant non-Latin script of the instruction, or latin. */
  script: Script;
  jsonRequested: boolean;
  toolCount: number;
  imageCount: number;
  /** Characters the extraction actually read, for auditing the budget. */
  scannedChars: number;
}

export type Script = 'latin' | 'cjk' | 'kana' | 'hangul' | 'cyrillic' | 'arabic' | 'devanagari' | 'greek' | 'other';

// ---------------------------------------------------------------------------------------------
// Hashing. FNV-1a on UTF-16 code units, one seed per namespace and per feature kind.

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

const mix = (a: number, b: number): number => Math.imul(Math.imul(a ^ 0x9e3779b9, FNV_PRIME) ^ b, 0x85ebca6b) >>> 0;
const bucket = (h: number): number => (h ^ (h >>> 15)) & HASH_MASK;

function hashString(s: string, seed: number): number {
  let h = FNV_OFFSET ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

/** Bucket of a named structural feature, e.g. structBucket('tokens', 3). */
export const structBucket = (name: string, bin: number | string): number => bucket(hashString(`${name}=${bin}`, 0x51));

const SEED_UNI = 0x1001;
const SEED_BI = 0x2002;
const SEED_CHAR = 0x3003;
const SEED_FIRST = 0x4004;
const SEED_LAST = 0x5005;
const SEED_SYS = 0x6006;
const SEED_HIST = 0x7007;
/** A long word's first five characters: the stem its inflections and derivations share. */
const SEED_PREFIX = 0x8008;
const PREFIX_CHARS = 5;
const PREFIX_MIN_WORD = 7;

// ---------------------------------------------------------------------------------------------
// Character classes.

const K_SEP = 0;
const K_WORD = 1;
const K_DIGIT = 2;
/** A character that is a word on its own: CJK ideographs and kana, which are not space-separated. */
const K_SOLO = 3;

const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) ASCII[c] = K_WORD;
  else if (c >= 48 && c <= 57) ASCII[c] = K_DIGIT;
}

function kindOf(c: number): number {
  if (c < 128) return ASCII[c];
  if (c <= 0xbf || c === 0xd7 || c === 0xf7) return K_SEP; // Latin-1 punctuation, ×, ÷
  if (c >= 0x2000 && c <= 0x2bff) return K_SEP; // general punctuation, arrows, math, box drawing
  if (c >= 0x3000 && c <= 0x303f) return K_SEP; // CJK punctuation
  if (c >= 0xff00 && c <= 0xff20) return K_SEP; // full-width punctuation
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff)) return K_SOLO;
  if (c >= 0xd800 && c <= 0xdfff) return K_SEP; // surrogate halves (emoji): not words
  return K_WORD;
}

function isMathSymbol(c: number): boolean {
  return (c >= 0x2200 && c <= 0x22ff) || c === 0x03c0 || c === 0x00b1 || c === 0x00d7 || c === 0x00f7 || c === 0x221a;
}

// ---------------------------------------------------------------------------------------------
// Cue words (lexicon.ts), looked up by the same hashes the scan computes: a 64 KiB filter rejects
// almost every word in one load, and only a hit touches the Map.

export const CUE_SLOTS = Object.keys(CUES) as CueSlot[];
const CUE_MASK = 0xffff;
const CUE_FILTER = new Uint8Array(CUE_MASK + 1);
const CUE_WORDS = new Map<number, number[]>();

/** The word hashes the scan would compute for a cue: one word, or the bigram of the first two. */
function cueHash(cue: string): number {
  const words: number[] = [];
  let h = FNV_OFFSET ^ SEED_UNI;
  let len = 0;
  for (let i = 0; i <= cue.length; i++) {
    const c = i < cue.length ? cue.charCodeAt(i) : 32;
    const k = c < 128 ? ASCII[c] : kindOf(c);
    if (k === K_WORD || k === K_DIGIT) {
      h = Math.imul(h ^ c, FNV_PRIME);
      len++;
      continue;
    }
    if (len > 0) words.push(h >>> 0);
    h = FNV_OFFSET ^ SEED_UNI;
    len = 0;
    if (k === K_SOLO) words.push(Math.imul((FNV_OFFSET ^ SEED_UNI) ^ c, FNV_PRIME) >>> 0);
  }
  if (words.length === 0) throw new Error(`empty routing cue "${cue}"`);
  return words.length === 1 ? words[0] : mix(words[0] ^ SEED_BI, words[1]);
}

CUE_SLOTS.forEach((slot, i) => {
  for (const cue of CUES[slot]) {
    const h = cueHash(cue);
    const slots = CUE_WORDS.get(h) ?? [];
    if (!slots.includes(i)) slots.push(i);
    CUE_WORDS.set(h, slots);
    CUE_FILTER[h & CUE_MASK] = 1;
  }
});

const CUE_NAMES = CUE_SLOTS.map((slot) => `cue:${slot}`);
const ICUE_NAMES = CUE_SLOTS.map((slot) => `icue:${slot}`);
const SCUE_NAMES = CUE_SLOTS.map((slot) => `scue:${slot}`);

/** Structural buckets are few and fixed: hash each name=value once, not on every call. */
const STRUCT_CACHE = new Map<string, Map<number | string, number>>();
function cachedStructBucket(name: string, value: number | string): number {
  let byValue = STRUCT_CACHE.get(name);
  if (!byValue) {
    byValue = new Map();
    STRUCT_CACHE.set(name, byValue);
  }
  let b = byValue.get(value);
  if (b === undefined) {
    b = structBucket(name, value);
    byValue.set(value, b);
  }
  return b;
}

function countCue(slots: number[] | undefined, ns: number, t: Tally): void {
  if (!slots) return;
  for (const i of slots) {
    if (ns === NS_SYSTEM) {
      t.systemCues[i]++;
      continue;
    }
    t.cues[i]++;
    if (ns === NS_INSTR) t.instrCues[i]++;
  }
}

// ---------------------------------------------------------------------------------------------
// The word pass over one lowercased window.

/** Mutable counters of one extraction; a single object keeps property access monomorphic. */
interface Tally {
  codeLines: number;
  tableLines: number;
  listItems: number;
  questionMarks: number;
  mathSignals: number;
  kana: number;
  cjk: number;
  hangul: number;
  cyrillic: number;
  arabic: number;
  devanagari: number;
  greek: number;
  latinExt: number;
  otherScript: number;
  letters: number;
  scanned: number;
  /** Opening words of the newest user message still to emit. */
  firstLeft: number;
  /** Ring of the last EDGE_WORDS word hashes of the newest user message. */
  lastRing: Int32Array;
  lastCount: number;
  /** Cue words per slot (lexicon.ts): anywhere in the newest user message, and in its instruction. */
  cues: Int32Array;
  instrCues: Int32Array;
  /** Cue words in the system prompt, where apps often put the task itself. */
  systemCues: Int32Array;
}

const MODE_MAIN = 0;
const MODE_SYSTEM = 1;
const MODE_HISTORY = 2;

function noteScript(c: number, t: Tally): void {
  if (c >= 0x3040 && c <= 0x30ff) t.kana++;
  else if (c >= 0x3400 && c <= 0x9fff) t.cjk++;
  else if (c >= 0xac00 && c <= 0xd7af) t.hangul++;
  else if (c >= 0x0400 && c <= 0x04ff) t.cyrillic++;
  else if (c >= 0x0600 && c <= 0x06ff) t.arabic++;
  else if (c >= 0x0900 && c <= 0x097f) t.devanagari++;
  else if (c >= 0x0370 && c <= 0x03ff) t.greek++;
  else if (c < 0x0250) t.latinExt++;
  else t.otherScript++;
}

/**
 * Words (runs of letters and digits, or one CJK character) of s[from, to): unigrams, and in the
 * main window bigrams and line statistics too. Digits-only words hash by their length class, so
 * "2024" and "1999" are the same feature and a table of numbers is not a bag of unique words.
 */
function scanWords(s: string, from: number, to: number, mode: number, sink: FeatureSink, t: Tally, mainNs = NS_WORDS): void {
  const uniSeed = mode === MODE_MAIN ? SEED_UNI : mode === MODE_SYSTEM ? SEED_SYS : SEED_HIST;
  const ns = mode === MODE_MAIN ? mainNs : mode === MODE_SYSTEM ? NS_SYSTEM : NS_HISTORY;
  const main = mode === MODE_MAIN;
  let h = FNV_OFFSET ^ uniSeed;
  let h5 = 0;
  let len = 0;
  let digits = 0;
  let prev = 0;
  let hasPrev = false;
  // Line statistics (main window only).
  let lineStart = true;
  let indent = 0;
  let lineCode = 0;
  let lineCommas = 0;
  let linePipes = 0;
  let lineIsList = false;
  let lastSig = 0;

  for (let i = from; i <= to; i++) {
    const c = i < to ? s.charCodeAt(i) : 10;
    const k = c < 128 ? ASCII[c] : kindOf(c);
    if (k === K_WORD || k === K_DIGIT) {
      if (lineStart) {
        lineStart = false;
        if (indent >= 4) lineCode++;
        if (k === K_DIGIT) {
          const n1 = s.charCodeAt(i + 1);
          if (n1 === 46 || n1 === 41) lineIsList = true;
        }
      }
      h = Math.imul(h ^ c, FNV_PRIME);
      len++;
      if (len === PREFIX_CHARS) h5 = h;
      lastSig = c;
      if (k === K_DIGIT) digits++;
      else if (c >= 128 && main) {
        t.letters++;
        noteScript(c, t);
      } else if (main) t.letters++;
      continue;
    }
    // Flush the word in progress.
    if (len > 0) {
      const wh = digits === len ? hashString(len >= 4 ? '#4' : `#${len}`, uniSeed) : h >>> 0;
      emitWord(wh, ns, main, hasPrev, prev, sink, t);
      // "summarise", "summary", "summarization" (and "zusammenfassen", "zusammenfassung") share a stem.
      if (len >= PREFIX_MIN_WORD && digits === 0 && mode !== MODE_HISTORY) sink.add(ns, bucket(mix(SEED_PREFIX, h5 >>> 0)));
      prev = wh;
      hasPrev = true;
      h = FNV_OFFSET ^ uniSeed;
      len = 0;
      digits = 0;
    }
    if (k === K_SOLO) {
      if (main) {
        t.letters++;
        noteScript(c, t);
      }
      lineStart = false;
      const wh = Math.imul((FNV_OFFSET ^ uniSeed) ^ c, FNV_PRIME) >>> 0;
      emitWord(wh, ns, main, hasPrev, prev, sink, t);
      prev = wh;
      hasPrev = true;
      continue;
    }
    if (c === 10) {
      if (main) {
        if (lineCode > 0) t.codeLines++;
        if (lineCommas >= 2 || linePipes >= 2) t.tableLines++;
        if (lineIsList) t.listItems++;
      }
      lineStart = true;
      indent = 0;
      lineCode = 0;
      lineCommas = 0;
      linePipes = 0;
      lineIsList = false;
      hasPrev = false;
      continue;
    }
    if (c === 32 || c === 9 || c === 13) {
      if (lineStart) indent += c === 9 ? 4 : 1;
      continue;
    }
    if (!main) {
      if (c === 46 || c === 63 || c === 33) hasPrev = false;
      continue;
    }
    switch (c) {
      case 123: // {
      case 125: // }
      case 59: // ;
        lineCode++;
        break;
      case 40: // "()" is a call
        if (s.charCodeAt(i + 1) === 41) lineCode++;
        break;
      case 61: // "=>", "==", and "x = 1" style assignments
        if (s.charCodeAt(i + 1) === 62 || s.charCodeAt(i + 1) === 61) lineCode++;
        else if (lastSig >= 48 && lastSig <= 57) t.mathSignals++;
        break;
      case 44:
        lineCommas++;
        break;
      case 124:
        linePipes++;
        break;
      case 94: // ^
        t.mathSignals++;
        break;
      case 43: // + * / - between digits
      case 42:
      case 47:
      case 45:
        if (lineStart && (c === 45 || c === 42) && s.charCodeAt(i + 1) === 32) lineIsList = true;
        else if (lastSig >= 48 && lastSig <= 57) {
          const n = s.charCodeAt(i + 1) === 32 ? s.charCodeAt(i + 2) : s.charCodeAt(i + 1);
          if (n >= 48 && n <= 57) t.mathSignals++;
        }
        break;
      case 63: // ?
      case 0xff1f: // ？
        t.questionMarks++;
        hasPrev = false;
        break;
      case 46:
      case 33:
      case 0x3002: // 。
        hasPrev = false;
        break;
      case 0x2022: // •
        if (lineStart) lineIsList = true;
        break;
      default:
        if (c >= 128 && isMathSymbol(c)) t.mathSignals++;
    }
    lineStart = false;
    lastSig = c;
  }
  if (main) t.scanned += to - from;
}

function emitWord(wh: number, ns: number, main: boolean, hasPrev: boolean, prev: number, sink: FeatureSink, t: Tally): void {
  sink.add(ns, bucket(wh));
  if (ns === NS_SYSTEM) {
    if (CUE_FILTER[wh & CUE_MASK] !== 0) countCue(CUE_WORDS.get(wh), ns, t);
    if (hasPrev) {
      const bh = mix(prev ^ SEED_BI, wh);
      sink.add(ns, bucket(bh));
      if (CUE_FILTER[bh & CUE_MASK] !== 0) countCue(CUE_WORDS.get(bh), ns, t);
    }
    return;
  }
  if (!main) return;
  if (CUE_FILTER[wh & CUE_MASK] !== 0) countCue(CUE_WORDS.get(wh), ns, t);
  if (hasPrev) {
    const bh = mix(prev ^ SEED_BI, wh);
    sink.add(ns, bucket(bh));
    if (CUE_FILTER[bh & CUE_MASK] !== 0) countCue(CUE_WORDS.get(bh), ns, t);
  }
  if (t.firstLeft > 0) {
    t.firstLeft--;
    sink.add(NS_EDGE, bucket(mix(SEED_FIRST, wh)));
  }
  t.lastRing[t.lastCount % EDGE_WORDS] = wh | 0;
  t.lastCount++;
}

/** Character 4-grams of s[from, to), whitespace runs folded to one space. */
function scanChars(s: string, from: number, to: number, sink: FeatureSink): void {
  let a = 32;
  let b = 32;
  let c3 = 32;
  let n = 0;
  for (let i = from; i < to; i++) {
    let c = s.charCodeAt(i);
    if (c === 10 || c === 9 || c === 13) c = 32;
    if (c === 32 && c3 === 32) continue;
    if (n >= 3) sink.add(NS_CHARS, bucket(Math.imul(Math.imul(Math.imul((SEED_CHAR ^ a) * 31 + b, FNV_PRIME) ^ c3, FNV_PRIME) ^ c, 0x85ebca6b) >>> 0));
    a = b;
    b = c3;
    c3 = c;
    n++;
  }
}

/** End of the opening paragraph (or line) when it is short, else of its first INSTR_OPENING characters. */
function openingEnd(s: string): number {
  const para = s.indexOf('\n\n');
  if (para !== -1 && para <= INSTR_OPENING) return para;
  const line = s.indexOf('\n');
  if (line !== -1 && line <= INSTR_OPENING) return line;
  return Math.min(s.length, INSTR_OPENING);
}

/** Start of a short closing paragraph (or line), or s.length when the text ends in a long one. */
function closingStart(s: string): number {
  let end = s.length;
  while (end > 0 && (s.charCodeAt(end - 1) === 10 || s.charCodeAt(end - 1) === 32)) end--;
  const para = s.lastIndexOf('\n\n', end - 1);
  if (para !== -1 && end - para - 2 <= INSTR_CLOSING) return para + 2;
  const line = s.lastIndexOf('\n', end - 1);
  if (line !== -1 && end - line - 1 <= INSTR_CLOSING) return line + 1;
  return s.length;
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

/** The text of a message's text parts, joined as a client that sends one string would send it. */
function messageText(m: Message): string {
  let out = '';
  let first = true;
  for (const p of m.content) {
    if (p.type !== 'text') continue;
    out = first ? p.text : `${out}\n\n${p.text}`;
    first = false;
  }
  return out;
}

const bin = (v: number, edges: readonly number[]): number => {
  let i = 0;
  while (i < edges.length && v >= edges[i]) i++;
  return i;
};
const TOKEN_EDGES = [16, 48, 128, 320, 800, 1600, 3200, 6400, 12800];
const CHAR_EDGES = [20, 60, 150, 400, 1000, 2500, 6000, 15000, 40000];

function dominantScript(t: Tally): Script {
  const counts: Array<[Script, number]> = [
    ['kana', t.kana],
    ['cjk', t.cjk],
    ['hangul', t.hangul],
    ['cyrillic', t.cyrillic],
    ['arabic', t.arabic],
    ['devanagari', t.devanagari],
    ['greek', t.greek],
  ];
  let best: Script = 'latin';
  let bestCount = 0;
  for (const [script, n] of counts) {
    if (n > bestCount) {
      best = script;
      bestCount = n;
    }
  }
  // Japanese mixes kana and kanji: any real share of kana makes it kana.
  if (t.kana > 0 && t.kana * 5 >= t.cjk) best = 'kana';
  if (best === 'kana' || bestCount * 4 >= t.letters) return best;
  return t.otherScript * 4 >= t.letters && t.letters > 0 ? 'other' : 'latin';
}

/**
 * Extracts every feature of `req` into `sink` and returns the request's structure. The newest
 * user message is the instruction; the system prompt and the earlier turns are context.
 */
export function extractFeatures(req: CanonicalRequest, sink: FeatureSink): Structure {
  const t: Tally = {
    codeLines: 0,
    tableLines: 0,
    listItems: 0,
    questionMarks: 0,
    mathSignals: 0,
    kana: 0,
    cjk: 0,
    hangul: 0,
    cyrillic: 0,
    arabic: 0,
    devanagari: 0,
    greek: 0,
    latinExt: 0,
    otherScript: 0,
    letters: 0,
    scanned: 0,
    firstLeft: EDGE_WORDS,
    lastRing: new Int32Array(EDGE_WORDS),
    lastCount: 0,
    cues: new Int32Array(CUE_SLOTS.length),
    instrCues: new Int32Array(CUE_SLOTS.length),
    systemCues: new Int32Array(CUE_SLOTS.length),
  };

  let newest = -1;
  for (let m = req.messages.length - 1; m >= 0; m--) {
    const msg = req.messages[m];
    if (msg.role === 'user' && msg.content.some((p) => p.type === 'text')) {
      newest = m;
      break;
    }
  }

  let fences = 0;
  let images = 0;
  let userTurns = 0;
  for (const msg of req.messages) {
    if (msg.role === 'user') userTurns++;
    for (const p of msg.content) {
      if (p.type === 'text') fences += countFences(p.text);
      else if (p.type === 'image') images++;
    }
  }

  const instruction = newest >= 0 ? messageText(req.messages[newest]) : '';
  const n = instruction.length;
  if (n > 0) {
    const windowed = n <= HEAD_WINDOW + TAIL_WINDOW;
    const head = (windowed ? instruction : instruction.slice(0, HEAD_WINDOW)).toLowerCase();
    // The instruction proper: the opening paragraph (or its first INSTR_OPENING characters) and
    // a short closing paragraph; what lies between is usually pasted material.
    const opening = openingEnd(head);
    let rest = head;
    let restFrom = opening;
    if (!windowed) {
      scanWords(head, 0, opening, MODE_MAIN, sink, t, NS_INSTR);
      scanWords(head, opening, head.length, MODE_MAIN, sink, t);
      rest = instruction.slice(n - TAIL_WINDOW).toLowerCase();
      // The tail starts mid-word; skip to the first separator so no half-word becomes a feature.
      restFrom = 0;
      while (restFrom < rest.length && kindOf(rest.charCodeAt(restFrom)) !== K_SEP) restFrom++;
    } else {
      scanWords(head, 0, opening, MODE_MAIN, sink, t, NS_INSTR);
    }
    const closing = Math.max(restFrom, closingStart(rest));
    scanWords(rest, restFrom, closing, MODE_MAIN, sink, t);
    if (closing < rest.length) scanWords(rest, closing, rest.length, MODE_MAIN, sink, t, NS_INSTR);
    if (head.length <= CHAR_HEAD + CHAR_TAIL) scanChars(head, 0, head.length, sink);
    else {
      scanChars(head, 0, CHAR_HEAD, sink);
      const lower = windowed ? head : instruction.slice(n - CHAR_TAIL).toLowerCase();
      scanChars(lower, lower.length - CHAR_TAIL, lower.length, sink);
    }
    const last = Math.min(t.lastCount, EDGE_WORDS);
    for (let k = 0; k < last; k++) sink.add(NS_EDGE, bucket(mix(SEED_LAST, t.lastRing[k])));
  }

  const system = req.system ?? '';
  if (system.length > 0) {
    const head = system.slice(0, SYSTEM_WINDOW).toLowerCase();
    scanWords(head, 0, head.length, MODE_SYSTEM, sink, t);
    fences += countFences(system);
  }

  let budget = HISTORY_BUDGET;
  for (let m = req.messages.length - 1; m >= 0 && budget > 0; m--) {
    if (m === newest) continue;
    for (const p of req.messages[m].content) {
      const text = p.type === 'text' ? p.text : p.type === 'tool_result' ? p.content : '';
      if (text.length === 0 || budget <= 0) continue;
      const head = text.slice(0, Math.min(HISTORY_WINDOW, budget)).toLowerCase();
      budget -= head.length;
      scanWords(head, 0, head.length, MODE_HISTORY, sink, t);
    }
  }

  const promptTokens = estimateInputTokens(req);
  const jsonRequested = req.responseFormat?.type === 'json' || req.responseFormat?.type === 'json_schema';
  const script = dominantScript(t);
  const toolCount = req.tools?.length ?? 0;
  const messageCount = req.messages.length;

  const add = (name: string, value: number | string): void => sink.add(NS_STRUCT, cachedStructBucket(name, value));
  add('bias', 1);
  const tokenBin = bin(promptTokens, TOKEN_EDGES);
  const charBin = bin(n, CHAR_EDGES);
  add('tokens', tokenBin);
  add('instr', charBin);
  add('msgs', Math.min(messageCount, 7));
  add('turns', Math.min(userTurns, 5));
  add('sys', bin(system.length, [1, 120, 400, 1500]));
  add('fences', bin(fences, [1, 3, 7, 15]));
  add('codelines', bin(t.codeLines, [1, 3, 10, 30]));
  add('tables', bin(t.tableLines, [1, 3, 10, 40]));
  add('lists', bin(t.listItems, [1, 3, 6]));
  add('questions', bin(t.questionMarks, [1, 2, 4]));
  add('math', bin(t.mathSignals, [1, 2, 4, 8]));
  add('script', script);
  add('json', jsonRequested ? 1 : 0);
  add('tools', bin(toolCount, [1, 3]));
  for (let i = 0; i < CUE_SLOTS.length; i++) {
    if (t.cues[i] > 0) add(CUE_NAMES[i], bin(t.cues[i], [1, 2, 4, 8]));
    if (t.instrCues[i] > 0) add(ICUE_NAMES[i], bin(t.instrCues[i], [1, 2, 4]));
    if (t.systemCues[i] > 0) add(SCUE_NAMES[i], bin(t.systemCues[i], [1, 2, 4]));
  }
  add('images', bin(images, [1, 3]));
  // Crosses a linear model cannot form by itself: a long prompt means different things with
  // code, with a table, or as a short question after pasted text.
  add('tokens×fences', tokenBin * 10 + (fences > 0 ? 1 : 0));
  add('tokens×tables', tokenBin * 10 + (t.tableLines > 2 ? 1 : 0));
  add('tokens×instr', tokenBin * 10 + bin(n, [60, 400]));
  add('turns×tokens', Math.min(userTurns, 3) * 10 + tokenBin);

  return {
    promptTokens,
    messageCount,
    userTurns,
    systemChars: system.length,
    instructionChars: n,
    codeFences: fences,
    codeLines: t.codeLines,
    tableLines: t.tableLines,
    listItems: t.listItems,
    questionMarks: t.questionMarks,
    mathSignals: t.mathSignals,
    script,
    jsonRequested,
    toolCount,
    imageCount: images,
    scannedChars: t.scanned,
  };
}

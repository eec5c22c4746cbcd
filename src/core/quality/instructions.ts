// What the prompt asked for, read cheaply for the inline check (D5): a requested language, length
// limits, and whether JSON was asked for in words. Only bounded windows are read (the head of the
// system prompt, the head and tail of the newest user message), lowercased once; every regex is
// anchored on literal words with bounded repetition, so none can backtrack badly.
import type { CanonicalRequest } from '../canonical/types.ts';

export const INSTRUCTION_HEAD = 2048;
export const INSTRUCTION_TAIL = 1024;

export const LANGUAGES = [
  'english',
  'french',
  'spanish',
  'german',
  'italian',
  'portuguese',
  'dutch',
  'chinese',
  'japanese',
  'korean',
  'russian',
  'arabic',
  'hindi',
  'greek',
  'hebrew',
  'thai',
] as const;
export type Language = (typeof LANGUAGES)[number];

export type LengthUnit = 'word' | 'sentence' | 'paragraph' | 'bullet' | 'line';

export interface LengthLimit {
  unit: LengthUnit;
  max: number;
  /** The phrase that set it, for the reason text. */
  phrase: string;
}

export interface Instructions {
  language: Language | null;
  limits: LengthLimit[];
  /** JSON asked for in the prompt's words (the response format is read separately). */
  jsonInWords: boolean;
}

function windowOf(s: string): string {
  return s.length <= INSTRUCTION_HEAD + INSTRUCTION_TAIL ? s : `${s.slice(0, INSTRUCTION_HEAD)}\n${s.slice(-INSTRUCTION_TAIL)}`;
}

/** Newest user text and the system prompt, windowed and lowercased, newest first. */
export function instructionTexts(req: CanonicalRequest): string[] {
  const out: string[] = [];
  for (let m = req.messages.length - 1; m >= 0; m--) {
    const message = req.messages[m];
    if (message.role !== 'user') continue;
    const text = message.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
    if (text.trim() === '') continue;
    out.push(windowOf(text).toLowerCase().replace(/\u2019/g, "'"));
    break;
  }
  if (req.system) out.push(req.system.slice(0, INSTRUCTION_HEAD).toLowerCase().replace(/\u2019/g, "'"));
  return out;
}

const LANG = LANGUAGES.join('|');
const RESPOND_IN = new RegExp(
  `\\b(?:respond|answer|reply|write|speak|output|return)(?: it| this| that| back| the answer| your answer)?(?: only| entirely)? (?:in|using) (${LANG}|mandarin)\\b`,
);
const TRANSLATE_TO = new RegExp(`\\btranslat[a-z]*\\b[^.\\n]{0,80}?\\b(?:in|into|to) (${LANG}|mandarin)\\b`);
const IN_LANG_ONLY = new RegExp(`\\b(?:in|into) (${LANG}|mandarin),? only\\b|\\bonly in (${LANG}|mandarin)\\b`);

const ANY_LANGUAGE = new RegExp(`\\b(?:${LANG}|mandarin)\\b`);
const UNIT_WORDS = /\b(?:word|sentence|paragraph|bullet|line)/;
const NUMBER_WORDS: Record<string, number> = {
  one: 1, single: 1, 'a single': 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
};
const LIMIT = new RegExp(
  '\\b(in|under|within|at most|no more than|max|maximum|maximum of|up to|less than|fewer than|not exceeding|exactly)' +
    ' (\\d{1,4}|one|two|three|four|five|six|seven|eight|nine|ten|a single|single)' +
    ' (words?|sentences?|paragraphs?|bullet points?|bullets?|lines?)\\b',
  'g',
);
const ONE_WORD = /\b(?:one|single)[- ]word (?:answer|reply|response)\b|\banswer with (?:one|a single) word\b/;
const JSON_WORDS = /\b(?:in|as|return|output|respond with|reply with|valid|only) json\b|\bjson (?:format|object|only|array)\b/;

const unitOf = (raw: string): LengthUnit => {
  if (raw.startsWith('word')) return 'word';
  if (raw.startsWith('sentence')) return 'sentence';
  if (raw.startsWith('paragraph')) return 'paragraph';
  if (raw.startsWith('bullet')) return 'bullet';
  return 'line';
};

export function readInstructions(req: CanonicalRequest): Instructions {
  let language: Language | null = null;
  const limits: LengthLimit[] = [];
  let jsonInWords = false;
  for (const text of instructionTexts(req)) {
    // Cheap literal pre-checks skip the regexes for the common prompt that sets no such rule.
    if (language === null && ANY_LANGUAGE.test(text)) {
      const m = RESPOND_IN.exec(text) ?? TRANSLATE_TO.exec(text) ?? IN_LANG_ONLY.exec(text);
      const name = m ? (m[1] ?? m[2]) : undefined;
      if (name) language = name === 'mandarin' ? 'chinese' : (name as Language);
    }
    if (!UNIT_WORDS.test(text)) {
      if (!jsonInWords && text.includes('json') && JSON_WORDS.test(text)) jsonInWords = true;
      continue;
    }
    for (const m of text.matchAll(LIMIT)) {
      const n = /^\d/.test(m[2]) ? Number(m[2]) : NUMBER_WORDS[m[2]];
      // "exactly N" is checked as a maximum too: going over is the violation that matters here.
      if (n > 0) limits.push({ unit: unitOf(m[3]), max: n, phrase: m[0] });
    }
    const one = ONE_WORD.exec(text);
    if (one) limits.push({ unit: 'word', max: 1, phrase: one[0] });
    if (!jsonInWords && text.includes('json') && JSON_WORDS.test(text)) jsonInWords = true;
  }
  return { language, limits, jsonInWords };
}

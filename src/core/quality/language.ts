// Does a text look like it is written in a given language? Cheap heuristics for the inline check
// (D5, instruction fidelity), reading at most the first SAMPLE characters:
//  - languages with their own script (Chinese, Japanese, Korean, Russian, Arabic, Hindi, Greek,
//    Hebrew, Thai) are checked by the share of letters in that script;
//  - Latin-script languages are told apart by counting very common function words (stopwords).
// The verdict is three-valued: 'unknown' whenever the sample is too short or mostly not prose
// (code, JSON, numbers), so a terse or structured answer is never penalised on a guess.
import type { Language } from './instructions.ts';

export const SAMPLE = 1200;
const MIN_LETTERS = 20;
const MIN_STOPWORDS = 4;
/** Share of letters in the expected script for a script-based language to count as present. */
const SCRIPT_SHARE = 0.3;

type Script = 'latin' | 'cyrillic' | 'greek' | 'arabic' | 'hebrew' | 'devanagari' | 'thai' | 'hangul' | 'kana' | 'han' | 'other';

function scriptOf(c: number): Script {
  if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7)) return 'latin';
  if (c >= 0x400 && c <= 0x4ff) return 'cyrillic';
  if (c >= 0x370 && c <= 0x3ff) return 'greek';
  if (c >= 0x600 && c <= 0x6ff) return 'arabic';
  if (c >= 0x590 && c <= 0x5ff) return 'hebrew';
  if (c >= 0x900 && c <= 0x97f) return 'devanagari';
  if (c >= 0xe00 && c <= 0xe7f) return 'thai';
  if ((c >= 0xac00 && c <= 0xd7af) || (c >= 0x1100 && c <= 0x11ff)) return 'hangul';
  if (c >= 0x3040 && c <= 0x30ff) return 'kana';
  if (c >= 0x4e00 && c <= 0x9fff) return 'han';
  return 'other';
}

const SCRIPT_OF_LANGUAGE: Partial<Record<Language, readonly Script[]>> = {
  chinese: ['han'],
  japanese: ['kana', 'han'],
  korean: ['hangul'],
  russian: ['cyrillic'],
  arabic: ['arabic'],
  hindi: ['devanagari'],
  greek: ['greek'],
  hebrew: ['hebrew'],
  thai: ['thai'],
};

const LATIN_STOPWORDS: Partial<Record<Language, ReadonlySet<string>>> = {
  english: new Set(['the', 'and', 'is', 'are', 'of', 'to', 'in', 'that', 'it', 'with', 'for', 'this', 'you', 'was', 'be', 'on', 'not']),
  french: new Set(['le', 'la', 'les', 'et', 'est', 'des', 'une', 'du', 'que', 'pour', 'dans', 'pas', 'sont', 'avec', 'nous', 'vous', 'ce']),
  spanish: new Set(['el', 'los', 'las', 'y', 'es', 'del', 'una', 'que', 'para', 'por', 'con', 'son', 'pero', 'como', 'está', 'muy', 'lo']),
  german: new Set(['der', 'die', 'das', 'und', 'ist', 'nicht', 'ein', 'eine', 'mit', 'für', 'auf', 'sind', 'ich', 'sie', 'zu', 'den', 'auch']),
  italian: new Set(['il', 'di', 'che', 'è', 'gli', 'della', 'per', 'con', 'sono', 'una', 'non', 'anche', 'come', 'del', 'nel', 'questo']),
  portuguese: new Set(['o', 'os', 'as', 'e', 'é', 'do', 'da', 'que', 'para', 'com', 'não', 'uma', 'são', 'mais', 'em', 'como', 'muito']),
  dutch: new Set(['de', 'het', 'een', 'en', 'is', 'van', 'dat', 'niet', 'met', 'voor', 'zijn', 'ook', 'op', 'maar', 'wij', 'ik']),
};

export type LanguageVerdict = 'match' | 'mismatch' | 'unknown';

/** Whether `text` appears to be written in `language` (see module header for the method). */
export function languageVerdict(text: string, language: Language): LanguageVerdict {
  const sample = text.length > SAMPLE ? text.slice(0, SAMPLE) : text;
  const counts: Record<Script, number> = {
    latin: 0, cyrillic: 0, greek: 0, arabic: 0, hebrew: 0, devanagari: 0, thai: 0, hangul: 0, kana: 0, han: 0, other: 0,
  };
  let letters = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c < 65 || (c > 90 && c < 97) || (c > 122 && c < 0xc0)) continue; // digits, spaces, punctuation
    const s = scriptOf(c);
    if (s === 'other') continue;
    counts[s]++;
    letters++;
  }
  if (letters < MIN_LETTERS) return 'unknown';

  const scripts = SCRIPT_OF_LANGUAGE[language];
  if (scripts) {
    const share = scripts.reduce((n, s) => n + counts[s], 0) / letters;
    if (share >= SCRIPT_SHARE) {
      // Japanese is told from Chinese by kana; Chinese with a lot of kana is Japanese.
      if (language === 'chinese' && counts.kana > counts.han * 0.2) return 'mismatch';
      return 'match';
    }
    return 'mismatch';
  }

  // A Latin-script language: first, was the answer in Latin script at all?
  if (counts.latin / letters < 0.5) return 'mismatch';
  const expected = LATIN_STOPWORDS[language];
  if (!expected) return 'unknown';
  const hits: Partial<Record<Language, number>> = {};
  let total = 0;
  for (const word of sample.toLowerCase().split(/[^a-zà-ÿ]+/)) {
    if (word === '') continue;
    for (const [lang, set] of Object.entries(LATIN_STOPWORDS) as Array<[Language, ReadonlySet<string>]>) {
      if (set.has(word)) {
        hits[lang] = (hits[lang] ?? 0) + 1;
        total++;
      }
    }
  }
  if (total < MIN_STOPWORDS) return 'unknown';
  const mine = hits[language] ?? 0;
  let bestOther = 0;
  for (const [lang, n] of Object.entries(hits) as Array<[Language, number]>) if (lang !== language && n > bestOther) bestOther = n;
  // Shared words ("de", "que", "is") make neighbours score too; only a clear loss is a mismatch.
  return mine * 2 < bestOther ? 'mismatch' : 'match';
}

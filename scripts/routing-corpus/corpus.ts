// Builds the training split (D18) from the hand-written parts in this folder: each
// hand-written request is placed in several real-world settings (wire shape, the app's system
// prompt, an earlier exchange, pasted material, a formatting wish), drawn by a seeded generator,
// so the output is the same on every run; then the retired held-out rows (data/routing/retired/,
// whole requests as their author wrote them) are added. Every row is checked with the project's
// own wire parser. The corpus is not kept in the repository (it is 35 MB and every change of a part
// rewrites it): training, evaluation and the tests build it in memory (`trainingText()` in
// load.ts); `npm run corpus:routing` writes it to data/routing/train.jsonl to read.
import { readdirSync, readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { parseRequest as parseOpenai } from '../../src/wire/openai/request.ts';
import { parseRequest as parseAnthropic } from '../../src/wire/anthropic/request.ts';
import { parseRequest as parseGemini } from '../../src/wire/gemini/request.ts';
import { COMPLEXITIES, TASK_FAMILIES, type Complexity, type TaskFamily } from '../../src/core/routing/vocabulary.ts';
import { coding } from './coding.ts';
import { writing } from './writing.ts';
import { research } from './research.ts';
import { dataAnalysis } from './data-analysis.ts';
import { math } from './math.ts';
import { summarization } from './summarization.ts';
import { translation } from './translation.ts';
import { extraction } from './extraction.ts';
import { conversation } from './conversation.ts';
import { CODE, CSV, DOC, EMAIL, FILE_NAMES, FOREIGN_DOC, LOG } from './materials.ts';
import { EARLIER_EXCHANGES, FAMILY_PERSONAS, FORMAT_HINTS, GENERIC_PERSONAS, LEAD_INS, SIGN_OFFS, type Persona } from './wrappers.ts';
import { coding2, writing2 } from './voices-coding-writing.ts';
import { dataAnalysis2, math2, research2 } from './voices-research-data-math.ts';
import { conversation2, extraction2, summarization2, translation2 } from './voices-sum-tra-ext-con.ts';
import * as mixed from './voices-mixed.ts';
import * as apps from './voices-apps.ts';
import * as borders from './voices-borders.ts';
import * as everyday from './voices-everyday.ts';
import * as people from './voices-people-a.ts';
import * as people2 from './voices-people-b.ts';
import * as people3 from './voices-people-c.ts';
import * as people4 from './voices-people-d.ts';
import * as people5 from './voices-people-e.ts';
import * as people6 from './voices-people-f.ts';
import * as people7 from './voices-people-g.ts';
import * as people8 from './voices-people-h.ts';
import * as people9 from './voices-people-i.ts';
import * as people10 from './voices-people-j.ts';
import * as people11 from './voices-people-k.ts';
import * as people12 from './voices-people-l.ts';
import * as people13 from './voices-people-m.ts';
import * as people14 from './voices-people-n.ts';
import * as people15 from './voices-people-o.ts';
import * as people16 from './voices-people-p.ts';
import * as people17 from './voices-people-q.ts';
import * as people18 from './voices-people-r.ts';
import * as people19 from './voices-people-s.ts';
import type { FamilyItems, Item } from './types.ts';
import { mulberry32 as rng } from '../rng.ts';

/** Who wrote a batch of hand-written requests: the first part of every row's `author`. */
const LAYER1_HELPER = 'layer1-helper';
const ROUTING_HELPER = 'routing-helper';
/** Session 8's Layer 1 helper, a third author (voices-people-i.ts, -j.ts, -k.ts). */
const S8 = 'layer1-s8';
/** Session 8's second Layer 1 helper, a fourth author (voices-people-l.ts … -s.ts). */
const S8B = 'layer1-s8b';
type Batch = readonly [author: string, items: FamilyItems];
interface Cell { items: Item[]; authors: string[] }

const join = (...batches: Batch[]): Record<Complexity, Cell> => {
  const cell = (c: Complexity): Cell => ({
    items: batches.flatMap(([, b]) => b[c]),
    authors: batches.flatMap(([a, b]) => b[c].map(() => a)),
  });
  return { low: cell('low'), medium: cell('medium'), high: cell('high') };
};
const first = (...batches: FamilyItems[]): Batch[] => batches.map((b) => [LAYER1_HELPER, b] as const);

const ITEMS: Record<TaskFamily, Record<Complexity, Cell>> = {
  coding: join(...first(coding, coding2, mixed.coding3, apps.coding4, borders.coding5, everyday.coding6), [ROUTING_HELPER, people.coding7], [ROUTING_HELPER, people3.coding8], [ROUTING_HELPER, people5.coding9], [ROUTING_HELPER, people6.coding10], [ROUTING_HELPER, people8.coding12], [S8, people9.coding13], [S8, people10.coding14], [S8, people11.coding15], [S8B, people13.coding16], [S8B, people17.coding17], [S8B, people19.coding18]),
  writing: join(...first(writing, writing2, mixed.writing3, apps.writing4, borders.writing5, everyday.writing6), [ROUTING_HELPER, people.writing7], [ROUTING_HELPER, people3.writing8], [ROUTING_HELPER, people5.writing9], [ROUTING_HELPER, people6.writing10], [ROUTING_HELPER, people8.writing12], [S8, people9.writing13], [S8, people10.writing14], [S8, people11.writing15], [S8B, people13.writing16], [S8B, people15.writing17], [S8B, people19.writing18]),
  research: join(...first(research, research2, mixed.research3, apps.research4, borders.research5, everyday.research6), [ROUTING_HELPER, people.research7], [ROUTING_HELPER, people3.research8], [ROUTING_HELPER, people5.research9], [ROUTING_HELPER, people6.research10], [ROUTING_HELPER, people7.research11], [S8, people9.research13], [S8, people10.research14], [S8, people11.research15], [S8B, people12.research16], [S8B, people14.research17], [S8B, people16.research18], [S8B, people17.research19], [S8B, people18.research20]),
  'data-analysis': join(...first(dataAnalysis, dataAnalysis2, mixed.dataAnalysis3, apps.dataAnalysis4, borders.dataAnalysis5, everyday.dataAnalysis6), [ROUTING_HELPER, people.dataAnalysis7], [ROUTING_HELPER, people3.dataAnalysis8], [ROUTING_HELPER, people5.dataAnalysis9], [ROUTING_HELPER, people6.dataAnalysis10], [ROUTING_HELPER, people7.dataAnalysis11], [ROUTING_HELPER, people8.dataAnalysis12], [S8, people9.dataAnalysis13], [S8, people10.dataAnalysis14], [S8, people11.dataAnalysis15], [S8B, people12.dataAnalysis16], [S8B, people14.dataAnalysis17], [S8B, people15.dataAnalysis18], [S8B, people17.dataAnalysis19], [S8B, people18.dataAnalysis20]),
  math: join(...first(math, math2, mixed.math3, apps.math4, borders.math5, everyday.math6), [ROUTING_HELPER, people.math7], [ROUTING_HELPER, people3.math8], [ROUTING_HELPER, people5.math9], [ROUTING_HELPER, people6.math10], [S8, people9.math13], [S8, people10.math14], [S8, people11.math15], [S8B, people13.math16], [S8B, people17.math17], [S8B, people18.math18]),
  summarization: join(...first(summarization, summarization2, mixed.summarization3, apps.summarization4, borders.summarization5, everyday.summarization6), [ROUTING_HELPER, people2.summarization7], [ROUTING_HELPER, people4.summarization8], [ROUTING_HELPER, people5.summarization9], [ROUTING_HELPER, people6.summarization10], [ROUTING_HELPER, people7.summarization11], [ROUTING_HELPER, people8.summarization12], [S8, people9.summarization13], [S8, people10.summarization14], [S8, people11.summarization15], [S8B, people13.summarization16], [S8B, people15.summarization17], [S8B, people18.summarization18], [S8B, people19.summarization19]),
  translation: join(...first(translation, translation2, mixed.translation3, apps.translation4, borders.translation5, everyday.translation6), [ROUTING_HELPER, people2.translation7], [ROUTING_HELPER, people4.translation8], [ROUTING_HELPER, people5.translation9], [ROUTING_HELPER, people6.translation10], [S8, people9.translation13], [S8, people10.translation14], [S8, people11.translation15], [S8B, people13.translation16], [S8B, people17.translation17], [S8B, people19.translation18]),
  extraction: join(...first(extraction, extraction2, mixed.extraction3, apps.extraction4, borders.extraction5, everyday.extraction6), [ROUTING_HELPER, people2.extraction7], [ROUTING_HELPER, people4.extraction8], [ROUTING_HELPER, people5.extraction9], [ROUTING_HELPER, people6.extraction10], [ROUTING_HELPER, people7.extraction11], [ROUTING_HELPER, people8.extraction12], [S8, people9.extraction13], [S8, people10.extraction14], [S8, people11.extraction15], [S8B, people12.extraction16], [S8B, people14.extraction17], [S8B, people15.extraction18], [S8B, people17.extraction19], [S8B, people18.extraction20]),
  conversation: join(...first(conversation, conversation2, mixed.conversation3, apps.conversation4, borders.conversation5, everyday.conversation6), [ROUTING_HELPER, people2.conversation7], [ROUTING_HELPER, people4.conversation8], [ROUTING_HELPER, people5.conversation9], [ROUTING_HELPER, people6.conversation10], [ROUTING_HELPER, people7.conversation11], [ROUTING_HELPER, people8.conversation12], [S8, people9.conversation13], [S8, people10.conversation14], [S8, people11.conversation15], [S8B, people13.conversation16], [S8B, people14.conversation17], [S8B, people16.conversation18]),
};
/** Rows per family × complexity cell: twice the largest cell's hand-written requests (190,
 *  research/medium), so every request is placed at least twice; 27 cells × 380 = 10,260 rows. */
const ROWS_PER_CELL = 380;
for (const f of TASK_FAMILIES) for (const c of COMPLEXITIES as readonly Complexity[]) {
  if (2 * ITEMS[f][c].items.length > ROWS_PER_CELL) throw new Error(`${f}/${c} has ${ITEMS[f][c].items.length} hand-written requests: raise ROWS_PER_CELL so each is placed at least twice`);
}
const SHAPES = ['openai', 'anthropic', 'gemini'] as const;
type Shape = (typeof SHAPES)[number];

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const between = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** A few pages: what a medium (or a one-line low) request pastes without being "long context". */
function pages(r: Rand): string {
  const n = between(r, 3, 9);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(pick(r, DOC));
  return out.join('\n\n');
}

/** Tens of pages: mostly 1.5k-6k tokens, a quarter of them 6k-15k. */
function longDoc(r: Rand): string {
  const paragraphs = r() < 0.25 ? between(r, 60, 130) : between(r, 14, 50);
  const out: string[] = [pick(r, ['# Report', '# Collected documents', '# Draft', '# Annual review', '# Notes and sources'])];
  let section = 1;
  for (let i = 0; i < paragraphs; i++) {
    if (i % between(r, 2, 4) === 0) out.push(`## ${section++}. ${pick(r, ['Background', 'Findings', 'Context', 'Discussion', 'Details', 'Evidence', 'Stakeholders', 'Costs', 'Timeline', 'Risks', 'Appendix'])}`);
    const roll = r();
    out.push(roll < 0.08 ? pick(r, EMAIL) : roll < 0.13 ? '```\n' + pick(r, CSV) + '\n```' : pick(r, DOC));
  }
  return out.join('\n\n');
}

function bigCode(r: Rand): string {
  const files = between(r, 6, 48);
  const out: string[] = [];
  for (let i = 0; i < files; i++) out.push(`// file: ${pick(r, FILE_NAMES)}\n${pick(r, CODE)}`);
  return out.join('\n\n');
}

function longCsv(r: Rand, n = between(r, 80, 500)): string {
  const [header, ...rows] = pick(r, CSV).split('\n');
  const out = [header];
  for (let i = 0; i < n; i++) {
    const base = rows[i % rows.length];
    out.push(base.replace(/\d+(\.\d+)?/g, (m) => {
      const v = Number(m) * (0.8 + r() * 0.4);
      return m.includes('.') ? v.toFixed(m.split('.')[1].length) : String(Math.round(v));
    }));
  }
  return out.join('\n');
}

function fill(text: string, r: Rand): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, kind: string) => {
    switch (kind) {
      case 'code': return pick(r, CODE);
      case 'log': return pick(r, LOG);
      case 'csv': return pick(r, CSV);
      case 'doc': return pick(r, DOC);
      case 'fdoc': return pick(r, FOREIGN_DOC)[1];
      case 'email': return pick(r, EMAIL);
      case 'longdoc': return longDoc(r);
      case 'bigcode': return bigCode(r);
      case 'longcsv': return longCsv(r);
      case 'pages': return pages(r);
      case 'midcsv': return longCsv(r, between(r, 15, 60));
      default: throw new Error(`unknown material {{${kind}}}`);
    }
  });
}

interface Turn { role: 'user' | 'assistant'; text: string }

function turnsOf(item: Item): { turns: Turn[]; language: string; json: boolean; sys?: string } {
  if (typeof item === 'object' && 'sys' in item) return { ...turnsOf(item.turns), sys: item.sys };
  const texts = typeof item === 'string' ? [item] : [...(item as readonly string[])];
  let language = 'en';
  let json = false;
  const turns = texts.map((t, i): Turn => {
    let text = t;
    const lang = /^(fr|de|es|ja|zh|pt|ru|it|ko|nl|pl|tr|sv):/.exec(text);
    if (lang) {
      text = text.slice(3);
      if (i === texts.length - 1) language = lang[1];
    }
    if (text.endsWith(' #json')) {
      text = text.slice(0, -6);
      json = true;
    }
    return { role: i % 2 === 0 ? 'user' : 'assistant', text };
  });
  return { turns, language, json };
}

interface Built { shape: Shape; persona: Persona; request: Record<string, unknown> }

function build(item: Item, family: TaskFamily, complexity: Complexity, r: Rand, shape: Shape): Built & { language: string } {
  const { turns, language, json, sys } = turnsOf(item);
  // A page of pasted text or a longer table does not make a task harder: some low and medium
  // rows get them, so length alone never decides.
  const lengthen = complexity === 'low' ? 0.2 : complexity === 'medium' ? 0.35 : 0;
  for (const t of turns) {
    if (r() < lengthen) t.text = t.text.replace('{{doc}}', '{{pages}}').replace('{{csv}}', '{{midcsv}}');
    t.text = fill(t.text, r);
    // Not everyone leaves a blank line between what they ask and what they paste.
    if (t.role === 'user' && r() < 0.3) t.text = t.text.replace('\n\n', r() < 0.7 ? '\n' : ' ');
  }
  const last = turns[turns.length - 1];
  // People's own framing, only where it reads naturally (English, one-turn, not starting with paste).
  if (language === 'en' && turns.length === 1 && !sys && !last.text.startsWith('```')) {
    if (r() < 0.22) last.text = pick(r, LEAD_INS) + last.text.charAt(0).toLowerCase() + last.text.slice(1);
    if (r() < 0.18 && !last.text.includes('\n')) last.text += pick(r, SIGN_OFFS);
    if (r() < 0.1 && family !== 'translation') last.text += pick(r, FORMAT_HINTS);
  }
  if (turns.length === 1 && r() < 0.15) {
    const [u, a] = pick(r, EARLIER_EXCHANGES);
    turns.unshift({ role: 'user', text: u }, { role: 'assistant', text: a });
  }
  const roll = r();
  // An app's persona usually fits the work, but not always: a coding assistant is asked for an
  // email, a tutor for a translation. Some rows get another family's persona so the system prompt
  // is evidence, not the answer.
  // Apps built on a template put the instruction in the system prompt and send only the material.
  const last0 = turns[turns.length - 1].text;
  const cut = last0.indexOf('\n\n');
  const moved = !sys && turns.length === 1 && cut > 0 && cut < 400 && r() < 0.12;
  if (moved) turns[0].text = last0.slice(cut + 2);
  const persona: Persona = moved
    ? { id: 'instruction-as-system-prompt', system: last0.slice(0, cut) }
    : sys
    ? { id: 'task-in-system-prompt', system: fill(sys, r) }
    : roll < 0.22
      ? pick(r, FAMILY_PERSONAS[family])
      : roll < 0.34
        ? pick(r, FAMILY_PERSONAS[pick(r, TASK_FAMILIES)])
        : pick(r, GENERIC_PERSONAS);
  const system = persona.system;
  // Split the newest message into instruction and pasted material, as clients that send parts do.
  const splitLast = (text: string): string[] => {
    const at = text.indexOf('\n\n');
    return at > 0 && r() < 0.35 ? [text.slice(0, at), text.slice(at + 2)] : [text];
  };

  let request: Record<string, unknown>;
  if (shape === 'openai') {
    const messages: Record<string, unknown>[] = [];
    if (system) messages.push({ role: 'system', content: system });
    turns.forEach((t, i) => {
      const parts = i === turns.length - 1 ? splitLast(t.text) : [t.text];
      const content = parts.length > 1 || (t.role === 'user' && r() < 0.2) ? parts.map((text) => ({ type: 'text', text })) : parts[0];
      messages.push({ role: t.role, content });
    });
    request = { model: pick(r, ['gpt-4o', 'gpt-4o-mini', 'auto', 'gpt-4.1', 'gpt-4.1-mini']), messages };
    if (r() < 0.5) request.max_tokens = pick(r, [256, 512, 1024, 2048, 4096]);
    if (r() < 0.3) request.temperature = pick(r, [0, 0.2, 0.7, 1]);
    if (json) request.response_format = { type: 'json_object' };
  } else if (shape === 'anthropic') {
    const messages = turns.map((t, i) => {
      const parts = i === turns.length - 1 ? splitLast(t.text) : [t.text];
      return { role: t.role, content: parts.length > 1 || r() < 0.2 ? parts.map((text) => ({ type: 'text', text })) : parts[0] };
    });
    request = { model: pick(r, ['claude-sonnet-4-5', 'claude-3-5-haiku-latest', 'claude-opus-4-1', 'auto']), max_tokens: pick(r, [512, 1024, 2048, 4096, 8192]), messages };
    if (system) request.system = r() < 0.3 ? [{ type: 'text', text: system }] : system;
  } else {
    const contents = turns.map((t, i) => ({
      role: t.role === 'user' ? 'user' : 'model',
      parts: (i === turns.length - 1 ? splitLast(t.text) : [t.text]).map((text) => ({ text })),
    }));
    request = { contents };
    if (system) request.systemInstruction = { parts: [{ text: system }] };
    const config: Record<string, unknown> = {};
    if (r() < 0.4) config.maxOutputTokens = pick(r, [256, 1024, 2048, 8192]);
    if (json) config.responseMimeType = 'application/json';
    if (Object.keys(config).length > 0) request.generationConfig = config;
  }
  return { shape, persona, request, language };
}

function check(shape: Shape, body: unknown, id: string): void {
  const parsed = shape === 'openai' ? parseOpenai(body) : shape === 'anthropic' ? parseAnthropic(body) : parseGemini(body, { model: 'gemini-2.5-flash' });
  if (!parsed.ok) throw new Error(`${id}: ${shape} body does not parse: ${parsed.message}`);
}

const ABBREV: Record<TaskFamily, string> = {
  coding: 'cod', writing: 'wri', research: 'res', 'data-analysis': 'dat', math: 'mat',
  summarization: 'sum', translation: 'tra', extraction: 'ext', conversation: 'con',
};

/** The old held-out split (eval-helper's 663 rows), retired into training in session 10. */
export const RETIRED_DIR = new URL('../../data/routing/retired/', import.meta.url).pathname;
/**
 * How many times each retired row is in the training split. Its rows are whole requests in one
 * setting each, where a hand-written part is placed in two or more; chosen by cross-author CV
 * (docs/routing.md, session 10), never by the held-out split.
 */
export const RETIRED_COPIES = 3;
/** Whole requests written as training rows (session 10 on): as a person sends them, no generated setting. */
export const WHOLE_DIR = new URL('../../data/routing/whole/', import.meta.url).pathname;
/** How many times each whole-request training row is in the split; chosen by cross-author CV. */
export const WHOLE_COPIES = 5;

/** The rows of every *.jsonl under `dir` as training rows: request and labels as written, `copies` times each. */
function wholeLines(dir: string, copies: number, idPrefix: string, groupPrefix: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl')).sort();
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names) {
    for (const line of readFileSync(joinPath(dir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { id: string; author: string; shape: Shape; family: TaskFamily; complexity: Complexity; language: string; request: unknown };
      check(row.shape, row.request, row.id);
      for (let k = 1; k <= copies; k++) {
        out.push(JSON.stringify({
          id: `${idPrefix}${row.id}-${k}`,
          author: row.author,
          split: 'train',
          shape: row.shape,
          family: row.family,
          complexity: row.complexity,
          language: row.language,
          group: `${groupPrefix}${row.id}`,
          request: row.request,
        }));
      }
    }
  }
  return out;
}

/** The whole training split as JSON lines (the text of train.jsonl), the same on every run. */
export function buildTraining(opts: { retiredCopies?: number; wholeCopies?: number } = {}): string {
  const lines: string[] = [];
  let seed = 20261124;
  for (const family of TASK_FAMILIES) {
    for (const complexity of COMPLEXITIES as readonly Complexity[]) {
      const { items, authors } = ITEMS[family][complexity];
      for (let k = 0; k < ROWS_PER_CELL; k++) {
        const index = k % items.length;
        const r = rng(seed++);
        // Each use of an item gets the next shape, so every item is seen in several shapes.
        const shape = SHAPES[(index + Math.floor(k / items.length)) % SHAPES.length];
        const built = build(items[index], family, complexity, r, shape);
        const id = `tr-${ABBREV[family]}-${complexity[0]}-${String(k + 1).padStart(3, '0')}`;
        check(shape, built.request, id);
        lines.push(JSON.stringify({
          id,
          author: `${authors[index]}/generator:${built.persona.id}`,
          split: 'train',
          shape,
          family,
          complexity,
          language: built.language,
          group: `${family}/${complexity}/${index}`,
          request: built.request,
        }));
      }
    }
  }
  lines.push(...wholeLines(RETIRED_DIR, opts.retiredCopies ?? RETIRED_COPIES, 'tr-retired-', 'retired/'));
  lines.push(...wholeLines(WHOLE_DIR, opts.wholeCopies ?? WHOLE_COPIES, 'tr-whole-', 'whole/'));
  return lines.join('\n') + '\n';
}

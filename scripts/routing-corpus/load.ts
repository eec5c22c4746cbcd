// Reads routing corpus files (data/routing/README.md) into canonical requests with the project's
// own wire parsers, rejecting any row that breaks the schema, naming it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CanonicalRequest } from '../../src/core/canonical/types.ts';
import { COMPLEXITIES, TASK_FAMILIES, type Complexity, type TaskFamily } from '../../src/core/routing/vocabulary.ts';
import { parseRequest as parseOpenai } from '../../src/wire/openai/request.ts';
import { parseRequest as parseAnthropic } from '../../src/wire/anthropic/request.ts';
import { parseRequest as parseGemini } from '../../src/wire/gemini/request.ts';
import { buildTraining } from './corpus.ts';

export const ROUTING_DATA = new URL('../../data/routing/', import.meta.url).pathname;
export const TRAIN_FILE = join(ROUTING_DATA, 'train.jsonl');
export const EVAL_DIR = join(ROUTING_DATA, 'eval');

export interface CorpusRow {
  id: string;
  author: string;
  split: 'train' | 'eval';
  shape: 'openai' | 'anthropic' | 'gemini';
  family: TaskFamily;
  complexity: Complexity;
  language: string;
  group: string;
  request: CanonicalRequest;
}

export function parseBody(shape: CorpusRow['shape'], body: unknown) {
  return shape === 'openai' ? parseOpenai(body) : shape === 'anthropic' ? parseAnthropic(body) : parseGemini(body, { model: 'gemini-2.5-flash' });
}

export function loadFile(path: string, split: 'train' | 'eval', ids = new Set<string>()): CorpusRow[] {
  return parseCorpus(readFileSync(path, 'utf8'), path, split, ids);
}

/** Rows of a corpus text (JSON lines); `path` names where it came from in errors. */
export function parseCorpus(text: string, path: string, split: 'train' | 'eval', ids = new Set<string>()): CorpusRow[] {
  const rows: CorpusRow[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `${path}:${i + 1}`;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new Error(`${where}: not JSON (${(e as Error).message})`);
    }
    const id = raw.id;
    if (typeof id !== 'string' || id === '') throw new Error(`${where}: "id" must be a non-empty string`);
    if (ids.has(id)) throw new Error(`${where}: duplicate id ${id}`);
    ids.add(id);
    if (typeof raw.author !== 'string' || raw.author === '') throw new Error(`${where} (${id}): "author" is required`);
    if (raw.split !== split) throw new Error(`${where} (${id}): "split" must be "${split}" in this file`);
    const shape = raw.shape;
    if (shape !== 'openai' && shape !== 'anthropic' && shape !== 'gemini') throw new Error(`${where} (${id}): bad "shape"`);
    if (!(TASK_FAMILIES as readonly unknown[]).includes(raw.family)) throw new Error(`${where} (${id}): bad "family" ${String(raw.family)}`);
    if (!(COMPLEXITIES as readonly unknown[]).includes(raw.complexity)) throw new Error(`${where} (${id}): bad "complexity" ${String(raw.complexity)}`);
    if (typeof raw.language !== 'string' || !/^[a-z]{2}$/.test(raw.language)) throw new Error(`${where} (${id}): "language" must be an ISO 639-1 code`);
    const parsed = parseBody(shape, raw.request);
    if (!parsed.ok) throw new Error(`${where} (${id}): request does not parse as ${shape}: ${parsed.message}`);
    rows.push({
      id,
      author: raw.author,
      split,
      shape,
      family: raw.family as TaskFamily,
      complexity: raw.complexity as Complexity,
      language: raw.language,
      group: typeof raw.group === 'string' ? raw.group : id,
      request: parsed.value,
    });
  });
  return rows;
}

let built: string | undefined;
/**
 * The training split's text, built in memory from the hand-written parts (corpus.ts), once per
 * process. ROUTING_RETIRED_COPIES and ROUTING_WHOLE_COPIES override how often each retired and
 * whole-request row is in it (for the cross-author CV that chose the numbers; the shipped weights
 * use the defaults).
 */
export function trainingText(): string {
  const retired = process.env.ROUTING_RETIRED_COPIES;
  const whole = process.env.ROUTING_WHOLE_COPIES;
  built ??= buildTraining({
    ...(retired === undefined ? {} : { retiredCopies: Number(retired) }),
    ...(whole === undefined ? {} : { wholeCopies: Number(whole) }),
  });
  return built;
}

export const loadTraining = (): CorpusRow[] => parseCorpus(trainingText(), 'the training split (scripts/routing-corpus/corpus.ts)', 'train');

/** Every *.jsonl under data/routing/eval/, sorted by name; empty if there is none yet. */
export function loadHeldOut(): { files: string[]; rows: CorpusRow[] } {
  let names: string[] = [];
  try {
    names = readdirSync(EVAL_DIR).filter((n) => n.endsWith('.jsonl')).sort();
  } catch {
    return { files: [], rows: [] };
  }
  const ids = new Set<string>();
  const rows = names.flatMap((n) => loadFile(join(EVAL_DIR, n), 'eval', ids));
  return { files: names, rows };
}

// The checker an author of routing rows runs on their file before handing it in (data/routing/brief.md,
// brief-eval.md): the schema and the wire parse of every row (load.ts), 162 rows, 6 per family ×
// complexity cell, at least 45 per wire shape, at most 55 % English and at least nine languages,
// no repeated request body, and the id and author patterns of the author's tag.
//
//   node --import tsx scripts/routing-corpus/check-author.ts FILE TAG
//   TAG: wNN for a training author (ids tr-wNN-0001, authors whole-wNN/…), evN for a held-out
//   author (ids ev-Nxxx-0001, authors evN-<topic>/…).
// Prints the file's counts and PASS, or FAIL with the problems (exit code 1).
import { readFileSync } from 'node:fs';
import { COMPLEXITIES, TASK_FAMILIES } from '../../src/core/routing/vocabulary.ts';
import { parseCorpus, type CorpusRow } from './load.ts';

interface RawRow {
  id: string;
  author: string;
  request: { system?: unknown; systemInstruction?: unknown; messages?: { role: string }[]; contents?: unknown[] };
}

const [file, tag] = process.argv.slice(2);
if (!file || !tag || !/^(w\d+|ev\d+)$/.test(tag)) {
  console.error('usage: node --import tsx scripts/routing-corpus/check-author.ts FILE TAG   (TAG: w74, ev8, …)');
  process.exit(2);
}
const heldOut = tag.startsWith('ev');
const text = readFileSync(file, 'utf8');
let rows: CorpusRow[];
try {
  rows = parseCorpus(text, file, heldOut ? 'eval' : 'train');
} catch (e) {
  console.log(`FAIL\n${(e as Error).message}`);
  process.exit(1);
}
const raw = text
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RawRow);

const problems: string[] = [];
const count = <K>(keys: K[]): Map<K, number> => keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<K, number>());

if (rows.length !== 162) problems.push(`${rows.length} rows (want 162)`);
const cells = count(rows.map((r) => `${r.family}/${r.complexity}`));
for (const f of TASK_FAMILIES)
  for (const c of COMPLEXITIES) {
    const n = cells.get(`${f}/${c}`) ?? 0;
    if (n !== 6) problems.push(`cell ${f}/${c} has ${n} rows (want 6)`);
  }
const shapes = count(rows.map((r) => r.shape));
for (const s of ['openai', 'anthropic', 'gemini'] as const) if ((shapes.get(s) ?? 0) < 45) problems.push(`${shapes.get(s) ?? 0} ${s} rows (want at least 45)`);
const langs = count(rows.map((r) => r.language));
const english = (langs.get('en') ?? 0) / Math.max(rows.length, 1);
if (english > 0.55) problems.push(`${Math.round(english * 100)} % of rows in English (at most 55 %)`);
if (langs.size < 9) problems.push(`${langs.size} languages (want at least 9)`);
const bodies = new Set<string>();
for (const r of raw) {
  const body = JSON.stringify(r.request);
  if (bodies.has(body)) problems.push(`${r.id}: the same request body as an earlier row`);
  bodies.add(body);
}
const n = tag.replace(/^\D+/, '');
const idPattern = heldOut ? new RegExp(`^ev-${n}[a-z]{3}-\\d{4}$`) : new RegExp(`^tr-${tag}-\\d{4}$`);
const authorPattern = heldOut ? new RegExp(`^${tag}-[a-z]+/.+`) : new RegExp(`^whole-${tag}/.+`);
for (const r of raw) {
  if (!idPattern.test(r.id)) problems.push(`${r.id}: the id should match ${idPattern.source}`);
  if (!authorPattern.test(r.author)) problems.push(`${r.id}: the author ${r.author} should match ${authorPattern.source}`);
}

const withSystem = raw.filter((r) => r.request.system !== undefined || r.request.systemInstruction !== undefined || (r.request.messages ?? []).some((m) => m.role === 'system')).length;
const threads = raw.filter((r) => (r.request.messages ?? r.request.contents ?? []).filter((m) => (m as { role?: string }).role !== 'system').length > 1).length;
const long = raw.filter((r) => JSON.stringify(r.request).split(/\s+/).length > 1500).length;
const list = (m: Map<string, number>): string => [...m].map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`${rows.length} rows; shapes: ${list(shapes)}; ${langs.size} languages (${list(langs)}), English ${Math.round(english * 100)} %; system prompts ${withSystem}; threads ${threads}; rows over 1,500 words ${long}`);
if (problems.length > 0) {
  console.log(`FAIL\n${[...new Set(problems)].slice(0, 40).join('\n')}`);
  process.exit(1);
}
console.log('PASS');

// `npm run eval:routing`: Layer 1 on the held-out split (data/routing/eval/*.jsonl, written by
// other authors than the training rows, never trained on): accuracy, per-family precision and
// recall, both confusion matrices, and complexity errors split into quality cost (too low) and
// money cost (too high), beside the hand-written classifier it replaced on the same rows.
// With --train it reports the same on the training split (fit, not generalisation).
import '../src/infra/routing-weights.ts';
import { classifyByRules } from '../src/core/routing/classify-rules.ts';
import { classify, CLASSIFIER_VERSION } from '../src/core/routing/classify.ts';
import { ROUTING_TABLE_VERSION } from '../src/core/routing/routing-table.ts';
import { loadHeldOut, loadTraining, type CorpusRow } from './routing-corpus/load.ts';
import { formatReport, report } from './routing-corpus/metrics.ts';

const onTraining = process.argv.includes('--train');
let rows: CorpusRow[];
let source: string;
if (onTraining) {
  rows = loadTraining();
  source = 'the training split (built from scripts/routing-corpus/; this is fit, not a held-out result)';
} else {
  const heldOut = loadHeldOut();
  if (heldOut.rows.length === 0) {
    console.error('no held-out rows: data/routing/eval/*.jsonl is empty or missing (see data/routing/README.md)');
    process.exit(1);
  }
  rows = heldOut.rows;
  source = `data/routing/eval/ (${heldOut.files.join(', ')})`;
  // The issue's rule: the held-out split is written by other people than the training rows.
  const trainingAuthors = new Set(loadTraining().map((r) => r.author.split('/')[0]));
  const shared = [...new Set(rows.map((r) => r.author.split('/')[0]))].filter((a) => trainingAuthors.has(a));
  if (shared.length > 0) {
    console.error(`held-out rows by authors who also wrote training rows: ${shared.join(', ')}; the held-out split must be another author's`);
    process.exit(1);
  }
}

const truth = rows.map((r) => ({ id: r.id, family: r.family, complexity: r.complexity }));
const trained = rows.map((r) => {
  const c = classify(r.request);
  return { family: c.taskFamily, complexity: c.complexity };
});
const rules = rows.map((r) => {
  const c = classifyByRules(r.request);
  return { family: c.taskFamily, complexity: c.complexity };
});

const authors = new Map<string, number>();
for (const r of rows) authors.set(r.author.split('/')[0], (authors.get(r.author.split('/')[0]) ?? 0) + 1);
const by = (key: (r: CorpusRow) => string): string =>
  [...rows.reduce((m, r) => m.set(key(r), (m.get(key(r)) ?? 0) + 1), new Map<string, number>())].map(([k, v]) => `${k} ${v}`).join(', ');

console.log(`Layer 1 evaluation: classifier ${CLASSIFIER_VERSION}, routing table ${ROUTING_TABLE_VERSION}`);
console.log(`rows from ${source}`);
console.log(`authors: ${[...authors].map(([a, n]) => `${a} ${n}`).join(', ')}${onTraining ? '' : ' (none of them wrote training rows)'}`);
console.log(`shapes: ${by((r) => r.shape)}`);
console.log(`languages: ${by((r) => r.language)}`);
console.log('');
const main = report(truth, trained);
const base = report(truth, rules);
console.log(formatReport('trained classifier (D18), baseline = hand-written rules', main, base));
console.log('');
console.log(formatReport('hand-written rules (pre-D18), for comparison', base));
console.log('');
const targets = [
  ['task family accuracy >= 92%', main.familyAccuracy >= 0.92],
  ['complexity accuracy >= 80%', main.complexityAccuracy >= 0.8],
  ['every family recall >= 85%', Object.values(main.perFamily).every((f) => f.support === 0 || f.recall >= 0.85)],
] as const;
for (const [name, ok] of targets) console.log(`${ok ? 'met    ' : 'NOT met'}  ${name}`);

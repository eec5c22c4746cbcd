// `npm run train:routing`: trains Layer 1 (D18) on the training split (built in memory from scripts/routing-corpus/, data/routing/README.md) and writes
// src/core/routing/layer1-weights.json and layer1-weights.bin (its dense table). It never reads data/routing/eval/.
//   --cv      grouped 5-fold cross-validation on the training split, beside the rule baseline
//   --cv-author  for each author of the training split, train on the other authors' rows and score
//             that author's: the closest the training split gets to the held-out question
//             (another person's words)
//   --check   retrain and fail if the shipped weights differ from what the corpus produces
import { readFileSync, writeFileSync } from 'node:fs';
import { classifyByRules } from '../src/core/routing/classify-rules.ts';
import { decodeModel, score } from '../src/core/routing/classify.ts';
import { COMPLEXITIES, TASK_FAMILIES } from '../src/core/routing/vocabulary.ts';
import { loadTraining, trainingText } from './routing-corpus/load.ts';
import { formatReport, report, type Prediction } from './routing-corpus/metrics.ts';
import { corpusHash, groupFolds, PARAMS, serialise, train } from './routing-corpus/train-lib.ts';

export const WEIGHTS_FILE = new URL('../src/core/routing/layer1-weights.json', import.meta.url).pathname;
export const TABLE_FILE = new URL('../src/core/routing/layer1-weights.bin', import.meta.url).pathname;

const args = new Set(process.argv.slice(2));
const rows = loadTraining();
const sha = corpusHash(trainingText());

// Trying other parameters: ROUTING_PARAMS='{"epochs":20}' npm run train:routing -- --cv
const params = { ...PARAMS, ...(JSON.parse(process.env.ROUTING_PARAMS ?? '{}') as Partial<typeof PARAMS>) };
const authorOf = (author: string): string => author.split('/')[0];

if (args.has('--cv-author')) {
  // ROUTING_CV_AUTHORS=a,b: only those directions (the others' rows still train every direction).
  const only = process.env.ROUTING_CV_AUTHORS?.split(',').filter(Boolean);
  const all = [...new Set(rows.map((r) => authorOf(r.author)))].sort();
  const authors = all.filter((a) => !only || only.includes(a));
  if (all.length < 2 || authors.length === 0) {
    console.error('--cv-author needs training rows by at least two authors (and ROUTING_CV_AUTHORS, if set, naming one of them)');
    process.exit(1);
  }
  for (const held of authors) {
    const trainRows = rows.filter((r) => authorOf(r.author) !== held);
    const testRows = rows.filter((r) => authorOf(r.author) === held);
    const model = decodeModel(train(trainRows, sha, params));
    const predicted = testRows.map((r) => {
      const s = score(model, r.request);
      return { family: TASK_FAMILIES[s.family], complexity: COMPLEXITIES[s.complexity] };
    });
    const baseline = testRows.map((r) => {
      const c = classifyByRules(r.request);
      return { family: c.taskFamily, complexity: c.complexity };
    });
    const truth = testRows.map((r) => ({ id: r.id, family: r.family, complexity: r.complexity }));
    console.log(formatReport(`trained without ${held}'s rows (${trainRows.length}), scored on them (${testRows.length})`, report(truth, predicted), report(truth, baseline)));
    console.log('');
  }
} else if (args.has('--cv')) {
  const K = 5;
  const fold = groupFolds(rows, K, PARAMS.seed);
  const predicted: Prediction[] = new Array(rows.length);
  for (let f = 0; f < K; f++) {
    const trainRows = rows.filter((_, i) => fold[i] !== f);
    const model = decodeModel(train(trainRows, sha, params));
    rows.forEach((r, i) => {
      if (fold[i] !== f) return;
      const s = score(model, r.request);
      predicted[i] = { family: TASK_FAMILIES[s.family], complexity: COMPLEXITIES[s.complexity] };
    });
    console.error(`fold ${f + 1}/${K} done`);
  }
  const baseline = rows.map((r) => {
    const c = classifyByRules(r.request);
    return { family: c.taskFamily, complexity: c.complexity };
  });
  const truth = rows.map((r) => ({ id: r.id, family: r.family, complexity: r.complexity }));
  console.log(formatReport(`grouped ${K}-fold cross-validation on the training split`, report(truth, predicted), report(truth, baseline)));
} else {
  const { json, table } = serialise(train(rows, sha));
  if (args.has('--check')) {
    if (readFileSync(WEIGHTS_FILE, 'utf8') !== json || !Buffer.from(table).equals(readFileSync(TABLE_FILE))) {
      console.error('layer1-weights.json or layer1-weights.bin differs from what the training split produces: run npm run train:routing');
      process.exit(1);
    }
    console.log('layer1-weights.json and layer1-weights.bin are reproduced bit for bit from the corpus');
  } else {
    writeFileSync(TABLE_FILE, table);
    writeFileSync(WEIGHTS_FILE, json);
    const file = JSON.parse(json) as { version: string };
    console.log(`trained on ${rows.length} rows; wrote ${WEIGHTS_FILE} (${file.version}) and its table ${TABLE_FILE} (${table.byteLength} bytes)`);
  }
}

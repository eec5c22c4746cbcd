// `npm run corpus:routing`: writes the training split (built by corpus.ts, the same on every run)
// to data/routing/train.jsonl, to read or to diff. Training, evaluation and the tests do not need
// the file: they build the same text in memory.
import { writeFileSync } from 'node:fs';
import { TRAIN_FILE } from './load.ts';
import { buildTraining } from './corpus.ts';

const text = buildTraining();
writeFileSync(TRAIN_FILE, text);
console.log(`wrote ${text.split('\n').length - 1} rows to ${TRAIN_FILE}`);

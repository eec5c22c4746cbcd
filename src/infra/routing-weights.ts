// Hands Layer 1 its weights table (src/core/routing/layer1-weights.bin, 16 MiB of int8, described by
// layer1-weights.json): the core does no I/O, so the process that classifies reads the file and
// gives the core its bytes, once, on the first classification. Imported for this effect by the
// runtime, the routing scripts and the test runner (scripts/test.ts).
//
// From the source tree the file sits beside classify.ts; in the server bundle it is copied beside
// dist/main.js by scripts/build-server.ts. The first of the two places that holds it is used.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { provideLayer1Table, SHIPPED_WEIGHTS } from '../core/routing/classify.ts';

const name = SHIPPED_WEIGHTS.table.file;

export const LAYER1_TABLE_PLACES = [new URL(`./${name}`, import.meta.url), new URL(`../core/routing/${name}`, import.meta.url)].map((u) => fileURLToPath(u));

export function layer1TablePath(): string {
  const found = LAYER1_TABLE_PLACES.find((p) => existsSync(p));
  if (!found) throw new Error(`Layer 1 weights table ${name} not found (looked in ${LAYER1_TABLE_PLACES.join(', ')}): run npm run build:server, or npm run train:routing from a checkout`);
  return found;
}

provideLayer1Table(() => readFileSync(layer1TablePath()));

// Layer 1 classifier (D12, D18): a trained linear model over the hashed n-grams and structural
// features of features.ts, with two softmax heads (task family, complexity). The weights are data,
// written by `npm run train:routing` from the training split: layer1-weights.json (the version,
// scales, biases and the table's length and SHA-256, imported statically) and layer1-weights.bin
// (the dense int8 table itself, in the very layout scoring reads, 16 MiB). The core does no I/O, so
// the table's bytes are handed in by whoever starts the process (src/infra/routing-weights.ts, which
// the runtime, the scripts and the test runner import): the process holds the table once, with no
// JSON text or base64 copy of it beside. The version of the weights is recorded with every decision
// so a call-log row can be explained later.
//
// Scoring adds int8 weights into integer accumulators per namespace, then scales once: the hot
// loop is a few thousand small integer additions, and the same request always gives the same
// sums in the same order, so the decision is deterministic.
import type { CanonicalRequest } from '../canonical/types.ts';
import { COMPLEXITIES, TASK_FAMILIES, type Complexity, type TaskFamily } from './vocabulary.ts';
import { extractFeatures, HASH_BITS, NAMESPACES, NS_STRUCT, type FeatureSink, type Structure } from './features.ts';
import { createHash } from 'node:crypto';
import shippedMeta from './layer1-weights.json' with { type: 'json' };

/** Outputs of the model: the nine family scores, then the three complexity scores. */
export const OUTPUTS = TASK_FAMILIES.length + COMPLEXITIES.length;

/** The weights file as `npm run train:routing` writes it. */
export interface WeightsFile {
  version: string;
  hashBits: number;
  families: readonly string[];
  complexities: readonly string[];
  /** Per output: weight = int8 × scale. */
  scale: readonly number[];
  bias: readonly number[];
  /** Extra cost of reading a task too low, used to pick the complexity (see pickComplexity). */
  underCost: number;
  /** Used buckets, ascending, as base64 of LEB128 gaps. */
  buckets: string;
  /** OUTPUTS int8 weights per used bucket, base64. */
  weights: string;
  /** sha256 of the training corpus and of the trainer's parameters, for the reproducibility test. */
  trainedOn: { corpusSha256: string; rows: number; params: string };
}

/**
 * What is shipped: the weights file without its two base64 strings, which become the dense table
 * (layer1-weights.bin, `table` describes it). The version is the trainer's, unchanged.
 */
export interface ShippedWeights extends Omit<WeightsFile, 'buckets' | 'weights'> {
  /** Bytes per bucket row of the table (STRIDE). */
  stride: number;
  table: { file: string; bytes: number; sha256: string };
}

export interface Features extends Structure {
  /** Version of the weights that made the decision (D18), beside the routing table's. */
  classifierVersion: string;
  /** Softmax probability of the chosen family and of the chosen complexity, rounded to 0.001. */
  familyConfidence: number;
  complexityConfidence: number;
  /** The runner-up family and its probability: what the classifier hesitated with. */
  runnerUp: TaskFamily;
  runnerUpConfidence: number;
}

export interface Classification {
  taskFamily: TaskFamily;
  complexity: Complexity;
  features: Features;
}

/**
 * Row stride of the dense weights: 16 bytes per bucket, so a feature's twelve weights always sit
 * in one cache line (scoring is bound by those random reads, not by the additions).
 */
export const STRIDE = 16;

/** Dense weights of a decoded file: bucket × STRIDE int8, plus the scalars. */
export interface Model {
  version: string;
  dense: Int8Array;
  scale: Float64Array;
  bias: Float64Array;
  underCost: number;
}

function checkShape(file: Pick<WeightsFile, 'hashBits' | 'families' | 'complexities'>): void {
  if (file.hashBits !== HASH_BITS) throw new Error(`weights for 2^${file.hashBits} buckets, features use 2^${HASH_BITS}`);
  if (file.families.join() !== TASK_FAMILIES.join() || file.complexities.join() !== COMPLEXITIES.join()) {
    throw new Error('weights were trained for another routing vocabulary');
  }
}

/** Decodes a trainer's weights file into a model (training, cross-validation, the shipped table). */
export function decodeModel(file: WeightsFile): Model {
  checkShape(file);
  const dense = new Int8Array((1 << HASH_BITS) * STRIDE);
  const gaps = Buffer.from(file.buckets, 'base64');
  const w = Buffer.from(file.weights, 'base64');
  let at = 0;
  let b = 0;
  let row = 0;
  while (at < gaps.length) {
    let gap = 0;
    let shift = 0;
    for (;;) {
      const byte = gaps[at++];
      gap |= (byte & 0x7f) << shift;
      if (byte < 0x80) break;
      shift += 7;
    }
    b += gap;
    for (let k = 0; k < OUTPUTS; k++) dense[b * STRIDE + k] = (w[row * OUTPUTS + k] << 24) >> 24;
    row++;
  }
  if (row * OUTPUTS !== w.length) throw new Error('weights file is inconsistent: bucket and weight counts differ');
  return { version: file.version, dense, scale: Float64Array.from(file.scale), bias: Float64Array.from(file.bias), underCost: file.underCost };
}

/** The shipped pair for a trainer's weights file: the metadata and the table's bytes. */
export function toShipped(file: WeightsFile, tableFile = 'layer1-weights.bin'): { meta: ShippedWeights; table: Uint8Array } {
  const dense = decodeModel(file).dense;
  const table = new Uint8Array(dense.buffer, dense.byteOffset, dense.byteLength);
  const { buckets: _b, weights: _w, trainedOn, ...rest } = file;
  const meta: ShippedWeights = { ...rest, stride: STRIDE, table: { file: tableFile, bytes: table.byteLength, sha256: createHash('sha256').update(table).digest('hex') }, trainedOn };
  return { meta, table };
}

/**
 * The model of shipped metadata and its table's bytes, used in place (no copy). A table of another
 * length or checksum (a stale or half-copied file) is refused, saying how to fix it.
 */
export function modelFromTable(meta: ShippedWeights, table: Uint8Array): Model {
  checkShape(meta);
  if (meta.stride !== STRIDE) throw new Error(`weights table rows of ${meta.stride} bytes, scoring reads ${STRIDE}`);
  const want = (1 << HASH_BITS) * STRIDE;
  const fix = 'run npm run train:routing, or rebuild so the table is copied beside the code';
  if (table.byteLength !== want || meta.table.bytes !== want) throw new Error(`Layer 1 weights table ${meta.table.file} has ${table.byteLength} bytes, expected ${want}: ${fix}`);
  if (createHash('sha256').update(table).digest('hex') !== meta.table.sha256) throw new Error(`Layer 1 weights table ${meta.table.file} does not match ${meta.version}: ${fix}`);
  return {
    version: meta.version,
    dense: new Int8Array(table.buffer, table.byteOffset, table.byteLength),
    scale: Float64Array.from(meta.scale),
    bias: Float64Array.from(meta.bias),
    underCost: meta.underCost,
  };
}

/**
 * Collects the features of one request (bucket and namespace), then sums their weights in one
 * tight loop: the extraction's call site stays cheap and the summing loop is monomorphic.
 */
class Collector implements FeatureSink {
  buckets = new Int32Array(2048);
  spaces = new Uint8Array(2048);
  length = 0;
  add(ns: number, bucket: number): void {
    if (this.length === this.buckets.length) {
      const b = new Int32Array(this.length * 2);
      b.set(this.buckets);
      this.buckets = b;
      const s = new Uint8Array(this.length * 2);
      s.set(this.spaces);
      this.spaces = s;
    }
    this.buckets[this.length] = bucket;
    this.spaces[this.length++] = ns;
  }
}

/** Per namespace and output: the sum of int8 weights; and the number of features per namespace. */
function sumWeights(dense: Int8Array, c: Collector, sums: Int32Array, counts: Int32Array): void {
  const buckets = c.buckets;
  const spaces = c.spaces;
  for (let i = 0; i < c.length; i++) {
    const base = buckets[i] * STRIDE;
    const ns = spaces[i];
    const o = ns * OUTPUTS;
    counts[ns]++;
    sums[o] += dense[base];
    sums[o + 1] += dense[base + 1];
    sums[o + 2] += dense[base + 2];
    sums[o + 3] += dense[base + 3];
    sums[o + 4] += dense[base + 4];
    sums[o + 5] += dense[base + 5];
    sums[o + 6] += dense[base + 6];
    sums[o + 7] += dense[base + 7];
    sums[o + 8] += dense[base + 8];
    sums[o + 9] += dense[base + 9];
    sums[o + 10] += dense[base + 10];
    sums[o + 11] += dense[base + 11];
  }
}

/** 1/sqrt(count) for text namespaces, 1 for structural features: training uses the same values. */
export const namespaceScale = (ns: number, count: number): number => (ns === NS_STRUCT ? 1 : 1 / Math.sqrt(Math.max(1, count)));

/** Softmax of scores[from, to) in place. */
function softmax(scores: Float64Array, from: number, to: number): void {
  let max = -Infinity;
  for (let k = from; k < to; k++) if (scores[k] > max) max = scores[k];
  let sum = 0;
  for (let k = from; k < to; k++) {
    scores[k] = Math.exp(scores[k] - max);
    sum += scores[k];
  }
  for (let k = from; k < to; k++) scores[k] /= sum;
}

/**
 * The complexity that costs least in expectation when reading a task too low costs `underCost`
 * times more than reading it too high (a too-low read sends hard work to a cheap class, which
 * fails and escalates; a too-high read only costs money). Cost grows with the distance.
 */
export function pickComplexity(p: ArrayLike<number>, underCost: number): number {
  let best = 0;
  let bestCost = Infinity;
  for (let c = 0; c < p.length; c++) {
    let cost = 0;
    for (let t = 0; t < p.length; t++) cost += p[t] * (c < t ? underCost * (t - c) : c - t);
    if (cost < bestCost - 1e-12) {
      best = c;
      bestCost = cost;
    }
  }
  return best;
}

const COLLECTOR = new Collector();
const SUMS = new Int32Array(NAMESPACES * OUTPUTS);
const COUNTS = new Int32Array(NAMESPACES);

export interface Scored {
  family: number;
  complexity: number;
  /** Family probabilities (nine), then complexity probabilities (three). */
  probabilities: Float64Array;
  structure: Structure;
}

/** Runs the model on a request; exported for the training script's evaluation of shipped weights. */
export function score(model: Model, req: CanonicalRequest): Scored {
  // Scratch reused across calls: scoring is synchronous, so no two calls ever share it at once.
  const collector = COLLECTOR;
  collector.length = 0;
  const structure = extractFeatures(req, collector);
  const sums = SUMS.fill(0);
  const counts = COUNTS.fill(0);
  sumWeights(model.dense, collector, sums, counts);
  const p = new Float64Array(OUTPUTS);
  for (let k = 0; k < OUTPUTS; k++) {
    let sum = 0;
    for (let ns = 0; ns < NAMESPACES; ns++) sum += sums[ns * OUTPUTS + k] * namespaceScale(ns, counts[ns]);
    p[k] = model.bias[k] + model.scale[k] * sum;
  }
  const F = TASK_FAMILIES.length;
  softmax(p, 0, F);
  softmax(p, F, OUTPUTS);
  let family = 0;
  for (let k = 1; k < F; k++) if (p[k] > p[family]) family = k;
  const complexity = pickComplexity(p.subarray(F), model.underCost);
  return { family, complexity, probabilities: p, structure };
}

/** The shipped weights' metadata (the table's bytes come from provideLayer1Table). */
export const SHIPPED_WEIGHTS = shippedMeta as ShippedWeights;
export const CLASSIFIER_VERSION = SHIPPED_WEIGHTS.version;

let readTable: (() => Uint8Array) | null = null;
let shipped: Model | null = null;

/**
 * Hands the core the reader of the shipped table (src/infra/routing-weights.ts). It is read and
 * checked on the first classification, so the training script can import this module while it
 * rewrites the files.
 */
export function provideLayer1Table(read: () => Uint8Array): void {
  readTable = read;
  shipped = null;
}

/** The shipped model, read on first use. */
export function shippedModel(): Model {
  if (shipped) return shipped;
  if (!readTable) throw new Error('Layer 1 weights table not provided: import src/infra/routing-weights.ts at start-up (the runtime, the scripts and the test runner do)');
  shipped = modelFromTable(SHIPPED_WEIGHTS, readTable());
  return shipped;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

export function classify(req: CanonicalRequest): Classification {
  const model = shipped ?? shippedModel();
  const s = score(model, req);
  const F = TASK_FAMILIES.length;
  let runnerUp = s.family === 0 ? 1 : 0;
  for (let k = 0; k < F; k++) if (k !== s.family && s.probabilities[k] > s.probabilities[runnerUp]) runnerUp = k;
  const st = s.structure;
  return {
    taskFamily: TASK_FAMILIES[s.family],
    complexity: COMPLEXITIES[s.complexity],
    // Spelled out (Structure's keys in extractFeatures' order) rather than `{ ...s.structure, … }`:
    // on Node 20 a spread followed by more properties takes V8's slow path, ≈ 6 µs per call here.
    features: {
      promptTokens: st.promptTokens,
      messageCount: st.messageCount,
      userTurns: st.userTurns,
      systemChars: st.systemChars,
      instructionChars: st.instructionChars,
      codeFences: st.codeFences,
      codeLines: st.codeLines,
      tableLines: st.tableLines,
      listItems: st.listItems,
      questionMarks: st.questionMarks,
      mathSignals: st.mathSignals,
      script: st.script,
      jsonRequested: st.jsonRequested,
      toolCount: st.toolCount,
      imageCount: st.imageCount,
      scannedChars: st.scannedChars,
      classifierVersion: model.version,
      familyConfidence: round3(s.probabilities[s.family]),
      complexityConfidence: round3(s.probabilities[F + s.complexity]),
      runnerUp: TASK_FAMILIES[runnerUp],
      runnerUpConfidence: round3(s.probabilities[runnerUp]),
    },
  };
}

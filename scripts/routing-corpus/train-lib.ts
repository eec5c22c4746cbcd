// The Layer 1 trainer (D18): multinomial logistic regression, one softmax head for the task
// family and one for complexity, over the features of src/core/routing/features.ts, fitted by
// AdaGrad with L2 in a seeded order, then quantised to int8 per output. Everything is
// deterministic: the same corpus and parameters give the same weights file, byte for byte.
import { createHash } from 'node:crypto';
import type { CanonicalRequest } from '../../src/core/canonical/types.ts';
import { extractFeatures, HASH_BITS, NAMESPACES, NS_HISTORY, NS_WORDS, type FeatureSink } from '../../src/core/routing/features.ts';
import { namespaceScale, OUTPUTS, toShipped, type WeightsFile } from '../../src/core/routing/classify.ts';
import { COMPLEXITIES, TASK_FAMILIES } from '../../src/core/routing/vocabulary.ts';
import type { CorpusRow } from './load.ts';
import { mulberry32 as rng } from '../rng.ts';

export interface TrainParams {
  epochs: number;
  /** AdaGrad base step. */
  rate: number;
  /** L2 strength, applied to the weights a step touches. */
  l2: number;
  seed: number;
  /** Cost of reading complexity one step too low, relative to one step too high. */
  underCost: number;
  /**
   * L2 multiplier for the words of pasted material and earlier turns: the corpus reuses its
   * pasted documents across families, and a held-out author pastes others, so what those words
   * say about the family is mostly chance and is held down harder.
   */
  materialL2: number;
}

export const PARAMS: TrainParams = { epochs: 12, rate: 0.2, l2: 1e-4, seed: 18, underCost: 2.25, materialL2: 50 };

export interface Vector {
  idx: Int32Array;
  val: Float64Array;
  /** 1 where the feature came only from material or history namespaces, else 0. */
  material: Uint8Array;
}

class Recorder implements FeatureSink {
  readonly ns: number[] = [];
  readonly buckets: number[] = [];
  add(ns: number, bucket: number): void {
    this.ns.push(ns);
    this.buckets.push(bucket);
  }
}

/** The request's features as a sparse vector, with the values the classifier uses. */
export function vectorize(req: CanonicalRequest): Vector {
  const r = new Recorder();
  extractFeatures(req, r);
  const counts = new Array<number>(NAMESPACES).fill(0);
  for (const ns of r.ns) counts[ns]++;
  const values = new Map<number, number>();
  const other = new Set<number>();
  r.buckets.forEach((b, i) => {
    values.set(b, (values.get(b) ?? 0) + namespaceScale(r.ns[i], counts[r.ns[i]]));
    if (r.ns[i] !== NS_WORDS && r.ns[i] !== NS_HISTORY) other.add(b);
  });
  const idx = Int32Array.from([...values.keys()].sort((a, b) => a - b));
  const val = Float64Array.from(idx, (b) => values.get(b) as number);
  const material = Uint8Array.from(idx, (b) => (other.has(b) ? 0 : 1));
  return { idx, val, material };
}


export interface FloatModel {
  w: Float64Array;
  bias: Float64Array;
}

const F = TASK_FAMILIES.length;

export function trainFloat(rows: readonly CorpusRow[], vectors: readonly Vector[], p: TrainParams): FloatModel {
  const size = (1 << HASH_BITS) * OUTPUTS;
  const w = new Float64Array(size);
  const g2 = new Float64Array(size);
  const bias = new Float64Array(OUTPUTS);
  const b2 = new Float64Array(OUTPUTS);
  const target = rows.map((r) => [TASK_FAMILIES.indexOf(r.family), F + COMPLEXITIES.indexOf(r.complexity)]);
  const order = rows.map((_, i) => i);
  const random = rng(p.seed);
  const z = new Float64Array(OUTPUTS);
  for (let epoch = 0; epoch < p.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const n of order) {
      const { idx, val, material } = vectors[n];
      for (let k = 0; k < OUTPUTS; k++) z[k] = bias[k];
      for (let j = 0; j < idx.length; j++) {
        const base = idx[j] * OUTPUTS;
        for (let k = 0; k < OUTPUTS; k++) z[k] += w[base + k] * val[j];
      }
      softmaxInPlace(z, 0, F);
      softmaxInPlace(z, F, OUTPUTS);
      const [tf, tc] = target[n];
      z[tf] -= 1;
      z[tc] -= 1;
      for (let k = 0; k < OUTPUTS; k++) {
        b2[k] += z[k] * z[k];
        bias[k] -= (p.rate * z[k]) / Math.sqrt(b2[k] + 1e-8);
      }
      for (let j = 0; j < idx.length; j++) {
        const base = idx[j] * OUTPUTS;
        const l2 = material[j] === 1 ? p.l2 * p.materialL2 : p.l2;
        for (let k = 0; k < OUTPUTS; k++) {
          const at = base + k;
          const g = z[k] * val[j] + l2 * w[at];
          g2[at] += g * g;
          w[at] -= (p.rate * g) / Math.sqrt(g2[at] + 1e-8);
        }
      }
    }
  }
  return { w, bias };
}

function softmaxInPlace(z: Float64Array, from: number, to: number): void {
  let max = -Infinity;
  for (let k = from; k < to; k++) if (z[k] > max) max = z[k];
  let sum = 0;
  for (let k = from; k < to; k++) {
    z[k] = Math.exp(z[k] - max);
    sum += z[k];
  }
  for (let k = from; k < to; k++) z[k] /= sum;
}

/** Rounds to 6 significant digits so the JSON text is stable and short. */
const r6 = (x: number): number => Number(x.toPrecision(6));

/** int8 per output with one scale each; buckets whose weights all round to zero are dropped. */
export function quantize(m: FloatModel, p: TrainParams, trainedOn: WeightsFile['trainedOn']): WeightsFile {
  const buckets = 1 << HASH_BITS;
  const scale = new Array<number>(OUTPUTS).fill(0);
  for (let b = 0; b < buckets; b++) for (let k = 0; k < OUTPUTS; k++) scale[k] = Math.max(scale[k], Math.abs(m.w[b * OUTPUTS + k]));
  for (let k = 0; k < OUTPUTS; k++) scale[k] = r6(scale[k] / 127 || 1);
  const gaps: number[] = [];
  const weights: number[] = [];
  let last = 0;
  for (let b = 0; b < buckets; b++) {
    const q = new Array<number>(OUTPUTS);
    let any = false;
    for (let k = 0; k < OUTPUTS; k++) {
      q[k] = Math.max(-127, Math.min(127, Math.round(m.w[b * OUTPUTS + k] / scale[k])));
      if (q[k] !== 0) any = true;
    }
    if (!any) continue;
    let gap = b - last;
    last = b;
    do {
      const byte = gap & 0x7f;
      gap >>>= 7;
      gaps.push(gap > 0 ? byte | 0x80 : byte);
    } while (gap > 0);
    for (const v of q) weights.push(v & 0xff);
  }
  const body = {
    hashBits: HASH_BITS,
    families: [...TASK_FAMILIES],
    complexities: [...COMPLEXITIES],
    scale,
    bias: Array.from(m.bias, r6),
    underCost: p.underCost,
    buckets: Buffer.from(gaps).toString('base64'),
    weights: Buffer.from(weights).toString('base64'),
    trainedOn,
  };
  const version = `l1w-${createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12)}`;
  return { version, ...body };
}

export const corpusHash = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Trains on rows and returns the weights file the classifier imports. */
export function train(rows: readonly CorpusRow[], corpusSha256: string, p: TrainParams = PARAMS): WeightsFile {
  const vectors = rows.map((r) => vectorize(r.request));
  const model = trainFloat(rows, vectors, p);
  return quantize(model, p, { corpusSha256, rows: rows.length, params: JSON.stringify(p) });
}

/** k folds that keep every group (rows built from one hand-written request) in one fold. */
export function groupFolds(rows: readonly CorpusRow[], k: number, seed: number): number[] {
  const groups = [...new Set(rows.map((r) => r.group))].sort();
  const random = rng(seed);
  for (let i = groups.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [groups[i], groups[j]] = [groups[j], groups[i]];
  }
  const foldOf = new Map(groups.map((g, i) => [g, i % k]));
  return rows.map((r) => foldOf.get(r.group) as number);
}

/** The two shipped files of a trained model: layer1-weights.json (text) and layer1-weights.bin. */
export function serialise(file: WeightsFile): { json: string; table: Uint8Array } {
  const { meta, table } = toShipped(file);
  return { json: `${JSON.stringify(meta, null, 2)}\n`, table };
}

// The six detectors of D15 as pure functions over aggregates the repo reads from patterns,
// endpoint windows and coverage snapshots. Each firing carries the would-be routing override a
// proposal would carry (family, complexity, floor band → class, or an endpoint preference).
import { classRank, climb, MODEL_CLASSES, type ModelClass } from '../../core/model-class.ts';
import { DEFAULT_QUALITY_FLOOR } from '../../core/quality/score.ts';
import { DEFAULT_BAND_FROM, FLOOR_BANDS, STRICT_BAND_FROM, type FloorBand } from '../../core/routing/routing-table.ts';
import { tableClassForBand, type RoutingOverride } from '../../core/routing/override.ts';
import { isTaskFamily, type Complexity, type TaskFamily } from '../../core/routing/vocabulary.ts';

export const DETECTORS = ['cost', 'quality', 'latency', 'drift', 'coverage', 'escalation'] as const;
export type Detector = (typeof DETECTORS)[number];

export const PRIORITY: Record<Detector, 'high' | 'medium' | 'low'> = {
  quality: 'high',
  escalation: 'high',
  cost: 'medium',
  latency: 'medium',
  drift: 'low',
  coverage: 'low',
};

/** Upper bounds (ms) of the latency histogram buckets; the last bucket is open-ended. */
export const LATENCY_BOUNDS_MS = [25, 50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 8000, 13000, 21000, Infinity];
export const latencyBucket = (ms: number): number => LATENCY_BOUNDS_MS.findIndex((b) => ms <= b);

/**
 * The floor a cell is judged against, per band: the default floor for 'default', the band's lower
 * bound for the others (a lenient project's floor is below 0.5, a strict one's at least 0.75).
 */
export const BAND_FLOOR: Record<FloorBand, number> = { lenient: DEFAULT_BAND_FROM, default: DEFAULT_QUALITY_FLOOR, strict: STRICT_BAND_FROM };
/** A cell escalating more often than this is under-served by its class. */
export const ESCALATION_RATE_BOUND = 0.2;
/** Below-floor share a cheaper class may have and still count as "at or above the floor". */
export const COST_BELOW_FLOOR_TOLERANCE = 0.1;
/** Latency: the last hour's p95 at least this many times the previous 23 hours'. */
export const LATENCY_REGRESSION_RATIO = 1.5;
/** Drift: a pattern's share of its family's calls moved by more than this (absolute)... */
export const DRIFT_SHARE_BOUND = 0.2;
/** ...or its mean tokens per call moved by more than this fraction. */
export const DRIFT_TOKENS_BOUND = 0.5;

export interface Cell {
  taskFamily: string;
  complexity: string;
  floorBand: string;
  modelClass: string;
  calls: number;
  scored: number;
  qualitySum: number;
  belowFloor: number;
  escalated: number;
}

export interface DriftRow {
  taskFamily: string;
  complexity: string;
  recentCalls: number;
  recentTokens: number;
  recentFamilyCalls: number;
  baseCalls: number;
  baseTokens: number;
  baseFamilyCalls: number;
}

export interface EndpointRow {
  providerKey: string;
  modelId: string;
  region: string;
  modelClass: string;
  recent: number[];
  base: number[];
}

export interface CoverageRow {
  taskFamily: string;
  calls: number;
  topComplexity: string | null;
}

export interface Firing {
  detector: Detector;
  subjectKey: string;
  taskFamily?: string;
  complexity?: string;
  floorBand?: string;
  modelClass?: string;
  providerKey?: string;
  override: RoutingOverride;
  title: string;
  observed: Record<string, unknown>;
}

const isBand = (b: string): b is FloorBand => (FLOOR_BANDS as readonly string[]).includes(b);
const isClass = (c: string): c is ModelClass => (MODEL_CLASSES as readonly string[]).includes(c);
const isComplexity = (c: string): c is Complexity => c === 'low' || c === 'medium' || c === 'high';
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function classMove(f: TaskFamily, c: Complexity, band: FloorBand, to: ModelClass): RoutingOverride | null {
  const from = tableClassForBand(f, c, band);
  return from === to ? null : { kind: 'class', taskFamily: f, complexity: c, floorBand: band, fromClass: from, toClass: to };
}

/** cost, quality and escalation: judged per cell (family × complexity × band × served class). */
export function detectCells(cells: readonly Cell[], minEvidence: number): Firing[] {
  const out: Firing[] = [];
  for (const x of cells) {
    if (!isTaskFamily(x.taskFamily) || !isComplexity(x.complexity) || !isBand(x.floorBand) || !isClass(x.modelClass)) continue;
    const f = x.taskFamily, c = x.complexity, band = x.floorBand, cls = x.modelClass;
    const floor = BAND_FLOOR[band];
    const cellKey = `${f}/${c}/${band}`;
    const mean = x.scored > 0 ? x.qualitySum / x.scored : 0;
    if (x.scored >= minEvidence && mean < floor) {
      const o = classMove(f, c, band, climb(cls, 1));
      if (o) out.push({ detector: 'quality', subjectKey: `${cellKey}/${cls}`, taskFamily: f, complexity: c, floorBand: band, modelClass: cls, override: o,
        title: `${f} ${c} (${band} floor): ${cls} scores ${r3(mean)} on average, below ${floor}; route it to ${o.kind === 'class' ? o.toClass : ''}`,
        observed: { scored: x.scored, meanQuality: r3(mean), floor } });
    }
    if (x.calls >= minEvidence && x.escalated / x.calls > ESCALATION_RATE_BOUND) {
      const o = classMove(f, c, band, climb(cls, 1));
      if (o) out.push({ detector: 'escalation', subjectKey: `${cellKey}/${cls}`, taskFamily: f, complexity: c, floorBand: band, modelClass: cls, override: o,
        title: `${f} ${c} (${band} floor): ${Math.round((100 * x.escalated) / x.calls)}% of ${cls} answers escalate; start one rung up`,
        observed: { calls: x.calls, escalated: x.escalated, rate: r3(x.escalated / x.calls), bound: ESCALATION_RATE_BOUND } });
    }
    // cost: a class cheaper than this band's table class already meets this band's floor.
    const table = tableClassForBand(f, c, band);
    if (classRank(cls) < classRank(table) && x.scored >= minEvidence && mean >= floor && x.belowFloor / x.scored <= COST_BELOW_FLOOR_TOLERANCE) {
      const o = classMove(f, c, band, cls)!;
      out.push({ detector: 'cost', subjectKey: `${cellKey}/${cls}`, taskFamily: f, complexity: c, floorBand: band, modelClass: cls, override: o,
        title: `${f} ${c} (${band} floor): ${cls} already scores ${r3(mean)}, at or above ${floor}; route it there instead of ${table}`,
        observed: { scored: x.scored, meanQuality: r3(mean), belowFloor: x.belowFloor, floor, tableClass: table } });
    }
  }
  return out;
}

/** Cells aggregated over every served class are re-keyed for the cost detector: it needs evidence for a cheaper class under a stricter band's floor. */
export function costCellsAcrossBands(cells: readonly Cell[]): Cell[] {
  // Evidence of a class served in one band (e.g. economy for a lenient project) is also evidence
  // for the same family and complexity under the other bands: the score does not know the band.
  const out: Cell[] = [];
  for (const band of FLOOR_BANDS) {
    const byClass = new Map<string, Cell>();
    for (const x of cells) {
      const k = `${x.taskFamily}/${x.complexity}/${x.modelClass}`;
      const acc = byClass.get(k) ?? { ...x, floorBand: band, calls: 0, scored: 0, qualitySum: 0, belowFloor: 0, escalated: 0 };
      acc.calls += x.calls;
      acc.scored += x.scored;
      acc.qualitySum += x.qualitySum;
      // belowFloor was judged against each call's own project floor; re-judged below by the mean.
      acc.belowFloor += x.belowFloor;
      byClass.set(k, acc);
    }
    out.push(...byClass.values());
  }
  return out;
}

export function detectDrift(rows: readonly DriftRow[], minEvidence: number): Firing[] {
  const out: Firing[] = [];
  for (const d of rows) {
    if (!isTaskFamily(d.taskFamily) || !isComplexity(d.complexity)) continue;
    if (d.recentCalls < minEvidence || d.baseCalls < minEvidence) continue;
    const shareNow = d.recentCalls / Math.max(1, d.recentFamilyCalls);
    const shareBase = d.baseCalls / Math.max(1, d.baseFamilyCalls);
    const tokNow = d.recentTokens / d.recentCalls;
    const tokBase = d.baseTokens / d.baseCalls;
    const tokMove = tokBase > 0 ? (tokNow - tokBase) / tokBase : 0;
    const shareMove = shareNow - shareBase;
    const byTokens = Math.abs(tokMove) > DRIFT_TOKENS_BOUND;
    if (!byTokens && Math.abs(shareMove) <= DRIFT_SHARE_BOUND) continue;
    const up = byTokens ? tokMove > 0 : shareMove > 0;
    const table = tableClassForBand(d.taskFamily, d.complexity, 'default');
    const o = classMove(d.taskFamily, d.complexity, 'default', climb(table, up ? 1 : -1));
    if (!o) continue;
    out.push({ detector: 'drift', subjectKey: `${d.taskFamily}/${d.complexity}/${up ? 'up' : 'down'}`, taskFamily: d.taskFamily, complexity: d.complexity,
      floorBand: 'default', modelClass: table, override: o,
      title: `${d.taskFamily} ${d.complexity}: ${byTokens ? `tokens per call moved ${Math.round(tokMove * 100)}%` : `share of the family moved ${Math.round(shareMove * 100)} points`} against the previous window; re-rate its class`,
      observed: { shareNow: r3(shareNow), shareBase: r3(shareBase), tokensNow: r3(tokNow), tokensBase: r3(tokBase) } });
  }
  return out;
}

/** p95 from a histogram: the upper bound of the bucket holding the 95th percentile (the last finite bound for the open bucket). */
export function histogramP95(buckets: readonly number[]): number | null {
  const n = buckets.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const rank = Math.ceil(0.95 * n);
  let seen = 0;
  for (let i = 0; i < buckets.length; i++) {
    seen += buckets[i];
    if (seen >= rank) return Number.isFinite(LATENCY_BOUNDS_MS[i]) ? LATENCY_BOUNDS_MS[i] : LATENCY_BOUNDS_MS[i - 1] * 2;
  }
  return null;
}

export function detectLatency(rows: readonly EndpointRow[], minEvidence: number): Firing[] {
  const out: Firing[] = [];
  for (const e of rows) {
    if (!isClass(e.modelClass)) continue;
    const nRecent = e.recent.reduce((a, b) => a + b, 0);
    const nBase = e.base.reduce((a, b) => a + b, 0);
    if (nRecent < minEvidence || nBase < minEvidence) continue;
    const pNow = histogramP95(e.recent)!;
    const pBase = histogramP95(e.base)!;
    if (pNow < pBase * LATENCY_REGRESSION_RATIO) continue;
    out.push({ detector: 'latency', subjectKey: `${e.providerKey}/${e.modelId}/${e.region}/${e.modelClass}`, modelClass: e.modelClass, providerKey: e.providerKey,
      override: { kind: 'endpoint', modelClass: e.modelClass, avoid: { providerKey: e.providerKey, modelId: e.modelId, region: e.region } },
      title: `${e.modelClass} endpoint ${e.providerKey} (${e.region || 'any region'}): p95 rose to ≤${pNow} ms from ≤${pBase} ms; prefer other endpoints`,
      observed: { p95RecentMs: pNow, p95BaseMs: pBase, recentCalls: nRecent, baseCalls: nBase } });
  }
  return out;
}

/** coverage: a family with some, but too little, evidence; until it has more, serve its commonest complexity one rung up. */
export function detectCoverage(rows: readonly CoverageRow[], coverageMin: number): Firing[] {
  const out: Firing[] = [];
  for (const r of rows) {
    if (!isTaskFamily(r.taskFamily) || r.calls === 0 || r.calls >= coverageMin || !r.topComplexity || !isComplexity(r.topComplexity)) continue;
    const table = tableClassForBand(r.taskFamily, r.topComplexity, 'default');
    const o = classMove(r.taskFamily, r.topComplexity, 'default', climb(table, 1));
    if (!o) continue;
    out.push({ detector: 'coverage', subjectKey: `${r.taskFamily}/${r.topComplexity}`, taskFamily: r.taskFamily, complexity: r.topComplexity, floorBand: 'default',
      modelClass: table, override: o,
      title: `${r.taskFamily}: only ${r.calls} call(s) in 24 h, under ${coverageMin}; serve ${r.topComplexity} requests one rung up until evidence exists`,
      observed: { calls: r.calls, needed: coverageMin } });
  }
  return out;
}

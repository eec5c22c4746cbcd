// Pure parts of validation (spec §4): each synthetic case's quality scores, the replay of an
// accepted case through the proposal's would-be rule (Layer 1 with the override applied in memory,
// D15), and the two gates' arithmetic.
import { classify } from '../../core/routing/classify.ts';
import { decideWithOverride, type RoutingOverride } from '../../core/routing/override.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import type { FloorBand } from '../../core/routing/routing-table.ts';
import type { GeneratedCase } from './generators.ts';

export interface CaseScore {
  duplicationScore: number;
  noveltyScore: number;
  discriminativePower: number;
  coverageContribution: number;
  accepted: boolean;
  rejectionReason: string | null;
}

/** Cases at least this similar (word Jaccard) to another case of the batch are near-duplicates. */
export const DUPLICATE_BOUND = 0.8;

const words = (c: { inputBlob: CanonicalRequest }): Set<string> =>
  new Set(
    c.inputBlob.messages
      .flatMap((m) => m.content)
      .map((p) => (p.type === 'text' ? p.text : ''))
      .join(' ')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter += 1;
  return inter / (a.size + b.size - inter);
}

const r4 = (x: number) => Math.round(x * 10_000) / 10_000;

/**
 * Scores for each case of a batch, in order. `earlier` are the proposal's cases from earlier
 * batches: an exact repeat (same caseHash) is a duplicate, and similarity to them lowers novelty.
 *  - duplicationScore: 1 for a repeat, else the highest similarity to an earlier case of this batch;
 *  - noveltyScore: 1 − the highest similarity to the proposal's earlier cases;
 *  - discriminativePower: how squarely the case hits the proposal's cell (family 0.5 + complexity 0.5),
 *    as Layer 1's classifier sees it — a case outside the family cannot tell the rule apart;
 *  - coverageContribution: 1 / (1 + earlier cases of the batch landing in the same classified cell
 *    and prompt-length band): the first case of a kind adds the most.
 */
export function scoreCases(cases: readonly GeneratedCase[], earlier: ReadonlyArray<{ caseHash: string; inputBlob: CanonicalRequest }>): CaseScore[] {
  const earlierHashes = new Set(earlier.map((e) => e.caseHash));
  const earlierWords = earlier.map(words);
  const seen: Set<string>[] = [];
  const kinds = new Map<string, number>();
  return cases.map((c) => {
    const w = words(c);
    const repeat = earlierHashes.has(c.caseHash);
    const dup = repeat ? 1 : Math.max(0, ...seen.map((s) => jaccard(w, s)));
    const novelty = 1 - Math.max(0, ...earlierWords.map((s) => jaccard(w, s)));
    const cl = classify(c.inputBlob);
    const disc = (cl.taskFamily === c.expectedBlob.taskFamily ? 0.5 : 0) + (cl.complexity === c.expectedBlob.complexity ? 0.5 : 0);
    const kind = `${cl.taskFamily}/${cl.complexity}/${Math.min(4, Math.floor(cl.features.promptTokens / 16))}`;
    const before = kinds.get(kind) ?? 0;
    kinds.set(kind, before + 1);
    seen.push(w);
    let reason: string | null = null;
    if (repeat) reason = 'duplicate of an earlier case of this proposal';
    else if (dup >= DUPLICATE_BOUND) reason = `near-duplicate of another case in the batch (similarity ${r4(dup)})`;
    else if (cl.taskFamily !== c.expectedBlob.taskFamily) reason = `classified as ${cl.taskFamily}, outside the proposal's family ${c.expectedBlob.taskFamily}`;
    return {
      duplicationScore: r4(dup),
      noveltyScore: r4(novelty),
      discriminativePower: disc,
      coverageContribution: r4(1 / (1 + before)),
      accepted: reason === null,
      rejectionReason: reason,
    };
  });
}

export interface ReplayOutcome {
  actualOutput: Record<string, unknown>;
  expectedOutput: Record<string, unknown>;
  passed: boolean;
  divergenceReason: string | null;
}

/** The band a proposal's rule applies in (endpoint preferences are judged in the default band). */
export const bandOf = (o: RoutingOverride): FloorBand => (o.kind === 'class' ? o.floorBand : 'default');

/** Replay one case: the would-be decision (actualOutput) against the case's expected decision. */
export function replayCase(input: CanonicalRequest, expected: { taskFamily: string; complexity: string; modelClass: string }, override: RoutingOverride): ReplayOutcome {
  const d = decideWithOverride(input, bandOf(override), override);
  const actualOutput: Record<string, unknown> = { taskFamily: d.taskFamily, complexity: d.complexity, floorBand: d.floorBand, modelClass: d.modelClass, overridden: d.overridden };
  if (d.avoidEndpoint) actualOutput.avoidEndpoint = d.avoidEndpoint;
  const diffs: string[] = [];
  if (d.taskFamily !== expected.taskFamily) diffs.push(`task family ${d.taskFamily}, expected ${expected.taskFamily}`);
  if (d.complexity !== expected.complexity) diffs.push(`complexity ${d.complexity}, expected ${expected.complexity}`);
  if (d.modelClass !== expected.modelClass) diffs.push(`class ${d.modelClass}, expected ${expected.modelClass}`);
  if (!d.overridden && diffs.length === 0) diffs.push('the rule did not apply to this request');
  return { actualOutput, expectedOutput: { ...expected }, passed: diffs.length === 0, divergenceReason: diffs.length ? diffs.join('; ') : null };
}

export interface GateVerdict {
  passed: boolean;
  numerator: number;
  denominator: number;
  threshold: number;
  reason: string;
}

/** Gates 1 and 2: PASS when numerator / denominator is at least the threshold; no cases never passes. */
export function gateVerdict(numerator: number, denominator: number, threshold: number, what: string): GateVerdict {
  if (denominator === 0) return { passed: false, numerator, denominator, threshold, reason: `no ${what} to judge` };
  // Compared at 1e-6 resolution, like every score comparison (core/quality roundScore).
  const passed = Math.round((numerator * 1e6) / denominator) >= Math.round(threshold * 1e6);
  return { passed, numerator, denominator, threshold, reason: `${numerator}/${denominator} ${what} ${passed ? 'meets' : 'is below'} the threshold ${threshold}` };
}

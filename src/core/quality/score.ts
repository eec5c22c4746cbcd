// QA score arithmetic and the escalation decision (D5). Dimensions are 0..1; the overall score
// and its weights are fixed by D5. Comparisons happen at a resolution of 1e-6 so that a score
// whose exact value equals the floor (0.6 computed as 0.6000000000000001 or 0.5999999999999999)
// counts as meeting it: the floor is a product rule, not an artefact of binary fractions.

export interface QaScore {
  /** Factual correctness against prompt intent, 0..1. */
  accuracy: number;
  /** Respected the requested format, 0..1. */
  structure: number;
  /** Higher = more likely fabricated, 0..1. */
  hallucinationRisk: number;
  /** Followed system and user instructions, 0..1. */
  instructionFidelity: number;
  /** Stable reason codes ("code" or "code: detail") for every deduction. */
  reasons: string[];
}

export const DEFAULT_QUALITY_FLOOR = 0.6;
/** Version of the QA method, stored with every score. */
export const QA_METHOD_VERSION = 'qa-v1';

/**
 * The full QA score as the call log and the ledger entry store it: the four dimensions, the
 * overall score, the decision against the floor, the inline check's reasons, and how it was made
 * ('inline', or 'inline+judge' with a judge model, D5/D5a).
 */
export function qaDocument(q: Omit<QaScore, 'reasons'>, reasons: readonly string[], floor: number, method: string): Record<string, unknown> {
  return {
    accuracy: q.accuracy,
    structure: q.structure,
    hallucinationRisk: q.hallucinationRisk,
    instructionFidelity: q.instructionFidelity,
    overall: overallScore(q),
    belowFloor: shouldEscalate(q, floor),
    floor,
    reasons: [...reasons],
    method,
    version: QA_METHOD_VERSION,
  };
}
/** Escalate when hallucinationRisk is strictly above this, whatever the overall score (D5). */
export const ESCALATION_HALLUCINATION_THRESHOLD = 0.5;

const RESOLUTION = 1e6;
/** Rounds to 1e-6, the resolution of every score comparison. */
export const roundScore = (x: number): number => Math.round(x * RESOLUTION) / RESOLUTION;

/** 0.35·accuracy + 0.20·structure + 0.25·instructionFidelity + 0.20·(1 − hallucinationRisk). */
export function overallScore(q: Omit<QaScore, 'reasons'>): number {
  // Integer weights and one division keep the sum as exact as binary floating point allows.
  return roundScore(
    (35 * q.accuracy + 20 * q.structure + 25 * q.instructionFidelity + 20 * (1 - q.hallucinationRisk)) / 100,
  );
}

/** True when the overall score is below the floor or hallucinationRisk exceeds 0.50 (D5). */
export function shouldEscalate(q: Omit<QaScore, 'reasons'>, floor: number = DEFAULT_QUALITY_FLOOR): boolean {
  return overallScore(q) < roundScore(floor) || roundScore(q.hallucinationRisk) > ESCALATION_HALLUCINATION_THRESHOLD;
}

/**
 * The attempt the user should receive (D5: "the user receives the best answer"): highest overall
 * score; on a tie the lower hallucination risk; on a further tie the later attempt, which came from
 * the higher rung. Null for no attempts.
 */
export function pickBest<T extends { qa: Omit<QaScore, 'reasons'> }>(attempts: readonly T[]): T | null {
  let best: T | null = null;
  let bestOverall = -1;
  let bestRisk = 2;
  for (const a of attempts) {
    const overall = overallScore(a.qa);
    const risk = roundScore(a.qa.hallucinationRisk);
    if (overall > bestOverall || (overall === bestOverall && risk <= bestRisk)) {
      best = a;
      bestOverall = overall;
      bestRisk = risk;
    }
  }
  return best;
}

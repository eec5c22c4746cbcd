import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_QUALITY_FLOOR, ESCALATION_HALLUCINATION_THRESHOLD, overallScore, pickBest, shouldEscalate } from './score.ts';

const q = (accuracy: number, structure: number, instructionFidelity: number, hallucinationRisk: number) => ({
  accuracy,
  structure,
  instructionFidelity,
  hallucinationRisk,
  reasons: [] as string[],
});

describe('overallScore (D5 weights)', () => {
  test('perfect and worst answers', () => {
    assert.equal(overallScore(q(1, 1, 1, 0)), 1);
    assert.equal(overallScore(q(0, 0, 0, 1)), 0);
  });

  test('each weight in isolation', () => {
    assert.equal(overallScore(q(1, 0, 0, 1)), 0.35);
    assert.equal(overallScore(q(0, 1, 0, 1)), 0.2);
    assert.equal(overallScore(q(0, 0, 1, 1)), 0.25);
    assert.equal(overallScore(q(0, 0, 0, 0)), 0.2);
  });

  test('floating-point noise is rounded away (1e-6 resolution)', () => {
    // Exactly 0.6 in real arithmetic; the textbook float formula lands on either side of it.
    const naive = (a: number, s: number, f: number, h: number) => 0.35 * a + 0.2 * s + 0.25 * f + 0.2 * (1 - h);
    assert.equal(naive(0.33, 0.71, 0.57, 0), 0.5999999999999999);
    assert.equal(naive(0, 0.75, 1, 0), 0.6000000000000001);
    assert.equal(overallScore(q(0.33, 0.71, 0.57, 0)), 0.6);
    assert.equal(overallScore(q(0, 0.75, 1, 0)), 0.6);
    assert.equal(overallScore(q(0.6, 0.6, 0.6, 0.4)), 0.6);
  });
});

describe('shouldEscalate (D5)', () => {
  test('default floor is 0.6 and the risk threshold 0.5', () => {
    assert.equal(DEFAULT_QUALITY_FLOOR, 0.6);
    assert.equal(ESCALATION_HALLUCINATION_THRESHOLD, 0.5);
  });

  test('a score exactly at the floor does not escalate', () => {
    assert.equal(shouldEscalate(q(0.6, 0.6, 0.6, 0.4), 0.6), false);
    // The float formula would say 0.5999999999999999 < 0.6 and escalate a passing answer.
    assert.equal(shouldEscalate(q(0.33, 0.71, 0.57, 0), 0.6), false);
    assert.equal(shouldEscalate(q(0.6, 0.6, 0.6, 0.4)), false); // default floor
  });

  test('a score just below the floor escalates', () => {
    const s = q(0.6, 0.6, 0.6, 0.40001);
    assert.ok(overallScore(s) < 0.6);
    assert.equal(shouldEscalate(s, 0.6), true);
  });

  test('hallucinationRisk exactly 0.5 does not escalate; just above does', () => {
    assert.equal(shouldEscalate(q(1, 1, 1, 0.5), 0.6), false);
    assert.equal(shouldEscalate(q(1, 1, 1, 0.500001), 0.6), true);
  });

  test('risk escalates even with a high overall score; low score escalates even with no risk', () => {
    const risky = q(1, 1, 1, 0.51);
    assert.ok(overallScore(risky) >= 0.85);
    assert.equal(shouldEscalate(risky, 0.6), true);
    assert.equal(shouldEscalate(q(0.2, 0.2, 0.2, 0), 0.6), true);
  });

  test('the floor is a parameter', () => {
    const s = q(0.8, 0.8, 0.8, 0.2); // 0.8
    assert.equal(shouldEscalate(s, 0.8), false);
    assert.equal(shouldEscalate(s, 0.81), true);
    assert.equal(shouldEscalate(s, 0), false);
  });
});

describe('pickBest', () => {
  test('highest overall wins', () => {
    const a = { id: 'a', qa: q(0.5, 0.5, 0.5, 0.5) };
    const b = { id: 'b', qa: q(0.9, 0.9, 0.9, 0.1) };
    const c = { id: 'c', qa: q(0.7, 0.7, 0.7, 0.3) };
    assert.equal(pickBest([a, b, c])?.id, 'b');
  });

  test('ties go to the lower risk, then to the later (higher-rung) attempt', () => {
    // Same overall (0.6) with different risks.
    const lowRisk = { id: 'low', qa: q(0.6, 0.6, 0.6, 0.4) };
    const highRisk = { id: 'high', qa: q(0.6, 0.6, 0.92, 0.8) };
    assert.equal(overallScore(lowRisk.qa), overallScore(highRisk.qa));
    assert.equal(pickBest([highRisk, lowRisk])?.id, 'low');
    assert.equal(pickBest([lowRisk, highRisk])?.id, 'low');
    const first = { id: 'first', qa: q(0.7, 0.7, 0.7, 0.3) };
    const second = { id: 'second', qa: q(0.7, 0.7, 0.7, 0.3) };
    assert.equal(pickBest([first, second])?.id, 'second');
  });

  test('no attempts, no winner', () => {
    assert.equal(pickBest([]), null);
  });
});

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  CLASS_SUPPRESS_MIN_SAMPLES,
  ENDPOINT_SUPPRESS_MIN_SAMPLES,
  ESCALATE_MIN_SAMPLES,
  ESCALATE_RATE,
  ESCALATION_TTL_MS,
  SUPPRESSION_TTL_MS,
  SUPPRESS_FAILURE_RATE,
  deriveRules,
  type ScoreStats,
} from './derive-rules.ts';
import { LAYER3_RULES_VERSION, escalationRuleId, suppressionRuleId, type Layer3Rule } from '../routing/rules.ts';
import { decideLayer1 } from '../routing/layer1.ts';
import { chooseEndpoints, endpointsFromPriceBook } from '../routing/layer2.ts';
import type { CanonicalRequest } from '../canonical/types.ts';

const NOW = 1_800_000_000_000;
const A = 'openai/gpt-4o-mini@us-east';
const B = 'google/gemini-2.5-flash-lite@eu-west';
const C = 'mistral/mistral-small@eu-west';

const row = (endpoint: string, attempts: number, belowFloor: number, escalations = 0, over: Partial<ScoreStats> = {}): ScoreStats => ({
  taskFamily: 'coding',
  modelClass: 'economy',
  endpoint,
  attempts,
  belowFloor,
  escalations,
  ...over,
});
const ids = (rules: Layer3Rule[]) => rules.map((r) => r.id);

describe('deriveRules: thresholds', () => {
  test('constants are sane', () => {
    assert.ok(SUPPRESS_FAILURE_RATE > 0 && SUPPRESS_FAILURE_RATE < 1);
    assert.ok(ESCALATE_RATE > 0 && ESCALATE_RATE < 1);
    assert.ok(ENDPOINT_SUPPRESS_MIN_SAMPLES > 0 && CLASS_SUPPRESS_MIN_SAMPLES > 0 && ESCALATE_MIN_SAMPLES > 0);
  });

  test('no stats, no rules', () => {
    assert.deepEqual(deriveRules([], NOW, []), { version: LAYER3_RULES_VERSION, rules: [], added: [], removed: [], renewed: [] });
  });

  test('endpoint suppression needs the minimum sample and the failure rate, both inclusive', () => {
    const n = ENDPOINT_SUPPRESS_MIN_SAMPLES;
    const fails = Math.ceil(n * SUPPRESS_FAILURE_RATE);
    const healthy = [row(B, 100, 0), row(C, 100, 0)];
    // Exactly at both thresholds: minted.
    const at = deriveRules([row(A, n, fails), ...healthy], NOW, []);
    assert.deepEqual(ids(at.added), [suppressionRuleId('coding', 'economy', A)]);
    const rule = at.added[0];
    assert.equal(rule.kind, 'suppress');
    assert.equal(rule.version, LAYER3_RULES_VERSION);
    assert.equal(rule.createdAtMs, NOW);
    assert.equal(rule.expiresAtMs, NOW + SUPPRESSION_TTL_MS);
    assert.match(rule.reason, /below floor/);
    // One sample short, or one failure short: nothing.
    assert.deepEqual(deriveRules([row(A, n - 1, n - 1), ...healthy], NOW, []).rules, []);
    assert.deepEqual(deriveRules([row(A, n, fails - 1), ...healthy], NOW, []).rules, []);
  });

  test('rows for the same subject are summed before judging', () => {
    const half = ENDPOINT_SUPPRESS_MIN_SAMPLES / 2;
    const d = deriveRules([row(A, half, half), row(A, half, half), row(B, 100, 0)], NOW, []);
    assert.deepEqual(ids(d.rules), [suppressionRuleId('coding', 'economy', A)]);
  });

  test('one bad endpoint does not suppress its class; a broadly failing class is suppressed', () => {
    const oneBad = deriveRules([row(A, 100, 90), row(B, 100, 5), row(C, 100, 5)], NOW, []);
    assert.deepEqual(ids(oneBad.rules), [suppressionRuleId('coding', 'economy', A)]);
    const broad = deriveRules([row(A, 15, 10), row(B, 15, 10), row(C, 15, 10)], NOW, []);
    assert.deepEqual(ids(broad.rules), [suppressionRuleId('coding', 'economy', null)]);
  });

  test('the top class is never suppressed as a whole', () => {
    const frontier = (e: string) => row(e, 15, 15, 0, { modelClass: 'frontier' });
    const d = deriveRules([frontier(A), frontier(B), frontier(C)], NOW, []);
    assert.deepEqual(d.rules, []);
  });

  test('a family that keeps escalating starts one rung higher', () => {
    // n calls of which `esc` escalated: n + esc attempts in all.
    const n = ESCALATE_MIN_SAMPLES;
    const esc = Math.ceil(n * ESCALATE_RATE);
    const d = deriveRules([row(A, n + esc, 0, esc, { taskFamily: 'math' })], NOW, []);
    assert.deepEqual(ids(d.rules), [escalationRuleId('math')]);
    const rule = d.rules[0];
    assert.equal(rule.kind, 'escalate');
    assert.equal(rule.kind === 'escalate' && rule.rungs, 1);
    assert.equal(rule.expiresAtMs, NOW + ESCALATION_TTL_MS);
    assert.deepEqual(deriveRules([row(A, n + esc - 1, 0, esc - 1, { taskFamily: 'math' })], NOW, []).rules, []);
    assert.deepEqual(deriveRules([row(A, 2 * (n - 1), 0, n - 1, { taskFamily: 'math' })], NOW, []).rules, []);
  });

  test('a family where every call escalates once reads as 100 %, not 50 %', () => {
    const d = deriveRules(
      [row(A, 60, 60, 60, { taskFamily: 'math' }), row(B, 60, 0, 0, { taskFamily: 'math', modelClass: 'standard' })],
      NOW,
      [],
    );
    const rule = d.rules.find((r) => r.kind === 'escalate');
    assert.ok(rule);
    assert.match(rule.reason, /60\/60 \(100\.0%\) calls escalated/);
  });
});

describe('deriveRules: lifecycle and diff', () => {
  const failing = [row(A, 50, 40), row(B, 100, 0)];

  test('renewal keeps id and creation time, pushes expiry, and is not "added"', () => {
    const first = deriveRules(failing, NOW, []);
    const later = NOW + 60_000;
    const second = deriveRules(failing, later, first.rules);
    assert.deepEqual(second.added, []);
    assert.deepEqual(second.removed, []);
    assert.deepEqual(ids(second.renewed), ids(first.rules));
    assert.equal(second.rules[0].createdAtMs, NOW);
    assert.equal(second.rules[0].expiresAtMs, later + SUPPRESSION_TTL_MS);
  });

  test('a rule whose condition stopped holding stays until it expires, then is removed', () => {
    const first = deriveRules(failing, NOW, []);
    const quiet = deriveRules([], NOW + 1000, first.rules);
    assert.deepEqual(quiet.rules, first.rules);
    assert.deepEqual(quiet.added, []);
    assert.deepEqual(quiet.removed, []);
    const expiredAt = first.rules[0].expiresAtMs;
    const after = deriveRules([], expiredAt, first.rules);
    assert.deepEqual(after.rules, []);
    assert.deepEqual(ids(after.removed), ids(first.rules));
  });

  test('an expired rule whose condition holds again is re-added with a fresh creation time', () => {
    const first = deriveRules(failing, NOW, []);
    const t = first.rules[0].expiresAtMs + 5;
    const again = deriveRules(failing, t, first.rules);
    assert.deepEqual(ids(again.added), ids(first.rules));
    assert.deepEqual(ids(again.removed), ids(first.rules));
    assert.equal(again.rules[0].createdAtMs, t);
  });

  test('rules of another version are dropped', () => {
    const old = { ...deriveRules(failing, NOW, []).rules[0], version: 'l3r-v0' } as unknown as Layer3Rule;
    const d = deriveRules([], NOW, [old]);
    assert.deepEqual(d.rules, []);
    assert.deepEqual(d.removed, [old]);
  });

  test('output is sorted by id and deterministic', () => {
    const stats = [
      row(A, 50, 40, 0, { taskFamily: 'writing' }),
      row(A, 90, 0, 30, { taskFamily: 'math' }),
      row(B, 50, 40, 0, { taskFamily: 'coding' }),
      row(C, 100, 0, 0, { taskFamily: 'coding' }),
    ];
    const d = deriveRules(stats, NOW, []);
    const sorted = [...ids(d.rules)].sort();
    assert.deepEqual(ids(d.rules), sorted);
    assert.deepEqual(deriveRules([...stats].reverse(), NOW, []), d);
  });
});

describe('deriveRules feeds Layers 1 and 2', () => {
  test('minted rules change the decisions they are meant to change', () => {
    const req: CanonicalRequest = {
      shape: 'openai',
      model: 'auto',
      stream: false,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi there!' }] }],
    };
    const stats: ScoreStats[] = [
      row(A, 60, 0, 30, { taskFamily: 'conversation', modelClass: 'economy' }),
      row('openai/gpt-4.1-mini@us-east', 20, 15, 0, { taskFamily: 'conversation', modelClass: 'standard' }),
      row('openai/gpt-4.1-mini@us-west', 20, 0, 0, { taskFamily: 'conversation', modelClass: 'standard' }),
    ];
    const { rules } = deriveRules(stats, NOW, []);
    const d = decideLayer1(req, { qualityFloor: 0.6, rules, now: NOW + 1 });
    assert.equal(d.modelClass, 'standard');
    assert.deepEqual(d.appliedRules, [escalationRuleId('conversation')]);
    const c = chooseEndpoints({ modelClass: d.modelClass, taskFamily: d.taskFamily, candidates: endpointsFromPriceBook(), health: {}, rules, now: NOW + 1 });
    assert.ok(!c.endpoints.some((e) => e.key === 'openai/gpt-4.1-mini@us-east'));
    assert.ok(c.endpoints.some((e) => e.key === 'openai/gpt-4.1-mini@us-west'));
  });
});

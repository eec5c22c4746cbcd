import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { CanonicalRequest } from '../canonical/types.ts';
import { MODEL_CLASSES, classRank, nextRung, climb } from '../model-class.ts';
import { decideLayer1 } from './layer1.ts';
import { CLASSIFIER_VERSION } from './classify.ts';
import { ROUTING_TABLE, ROUTING_TABLE_VERSION, FLOOR_BANDS, floorBand, tableClass } from './routing-table.ts';
import { LAYER3_RULES_VERSION, escalationRuleId, suppressionRuleId, type Layer3Rule } from './rules.ts';
import { COMPLEXITIES, TASK_FAMILIES, type TaskFamily } from './vocabulary.ts';
import { benchmarkRequest, layer1BenchCase } from './bench.ts';
import { estimateInputTokens } from '../pricing/estimate.ts';
import type { ModelClass } from '../model-class.ts';

const req = (text: string): CanonicalRequest => ({
  shape: 'openai',
  model: 'auto',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
});

const NOW = 1_800_000_000_000;
const escalate = (family: TaskFamily, expiresAtMs = NOW + 60_000): Layer3Rule => ({
  id: escalationRuleId(family),
  version: LAYER3_RULES_VERSION,
  kind: 'escalate',
  rungs: 1,
  taskFamily: family,
  createdAtMs: NOW - 60_000,
  expiresAtMs,
  reason: 'test',
});
const suppress = (family: TaskFamily, modelClass: ModelClass, endpoint: string | null = null, expiresAtMs = NOW + 60_000): Layer3Rule => ({
  id: suppressionRuleId(family, modelClass, endpoint),
  version: LAYER3_RULES_VERSION,
  kind: 'suppress',
  modelClass,
  endpoint,
  taskFamily: family,
  createdAtMs: NOW - 60_000,
  expiresAtMs,
  reason: 'test',
});

describe('model-class ladder', () => {
  test('nextRung climbs economy → standard → premium → frontier → null', () => {
    assert.equal(nextRung('economy'), 'standard');
    assert.equal(nextRung('standard'), 'premium');
    assert.equal(nextRung('premium'), 'frontier');
    assert.equal(nextRung('frontier'), null);
  });

  test('climb stops at the top', () => {
    assert.equal(climb('premium', 1), 'frontier');
    assert.equal(climb('premium', 5), 'frontier');
    assert.equal(climb('standard', 0), 'standard');
  });
});

describe('routing table', () => {
  test('version string and full coverage with valid classes', () => {
    assert.match(ROUTING_TABLE_VERSION, /^rt-\d{4}-\d{2}-\d{2}$/);
    for (const f of TASK_FAMILIES) {
      for (const c of COMPLEXITIES) {
        const row = ROUTING_TABLE[f][c];
        assert.equal(row.length, FLOOR_BANDS.length);
        for (const cls of row) assert.ok(MODEL_CLASSES.includes(cls), `${f} ${c}`);
      }
    }
  });

  test('never cheaper for a stricter floor or a harder task', () => {
    for (const f of TASK_FAMILIES) {
      for (let ci = 0; ci < COMPLEXITIES.length; ci++) {
        const row = ROUTING_TABLE[f][COMPLEXITIES[ci]];
        for (let b = 1; b < row.length; b++) assert.ok(classRank(row[b]) >= classRank(row[b - 1]), `${f} band`);
        if (ci > 0) {
          const lower = ROUTING_TABLE[f][COMPLEXITIES[ci - 1]];
          for (let b = 0; b < row.length; b++) assert.ok(classRank(row[b]) >= classRank(lower[b]), `${f} complexity`);
        }
      }
    }
  });

  test('floor bands at their exact boundaries', () => {
    assert.equal(floorBand(0), 'lenient');
    assert.equal(floorBand(0.4999), 'lenient');
    assert.equal(floorBand(0.5), 'default');
    assert.equal(floorBand(0.6), 'default');
    assert.equal(floorBand(0.7499), 'default');
    assert.equal(floorBand(0.75), 'strict');
    assert.equal(floorBand(1), 'strict');
    for (const bad of [-0.01, 1.01, Number.NaN, Number.POSITIVE_INFINITY]) assert.throws(() => floorBand(bad), RangeError);
  });

  test('tableClass reads the right cell', () => {
    assert.equal(tableClass('coding', 'high', 0.9), 'frontier');
    assert.equal(tableClass('conversation', 'low', 0.6), 'economy');
    assert.equal(tableClass('math', 'medium', 0.6), 'premium');
  });
});

describe('decideLayer1', () => {
  test('without rules: the table decides and the decision is explained', () => {
    const d = decideLayer1(req('Prove rigorously, step by step, that there are infinitely many primes.'), { qualityFloor: 0.6 });
    assert.equal(d.taskFamily, 'math');
    assert.equal(d.complexity, 'high');
    assert.equal(d.modelClass, tableClass('math', 'high', 0.6));
    assert.equal(d.tableVersion, ROUTING_TABLE_VERSION);
    assert.deepEqual(d.appliedRules, []);
    assert.equal(d.features.classifierVersion, CLASSIFIER_VERSION);
    assert.ok(d.features.familyConfidence > 0.5);
  });

  test('is deterministic', () => {
    const r = req('Summarize this: ' + 'the market grew. '.repeat(500));
    assert.deepEqual(decideLayer1(r, { qualityFloor: 0.6 }), decideLayer1(r, { qualityFloor: 0.6 }));
  });

  test('a stricter floor never lowers the class', () => {
    const r = req('Write a short poem about autumn.');
    const lenient = decideLayer1(r, { qualityFloor: 0.3 }).modelClass;
    const strict = decideLayer1(r, { qualityFloor: 0.9 }).modelClass;
    assert.ok(classRank(strict) >= classRank(lenient));
  });

  test('an escalation rule starts the family one rung higher', () => {
    const r = req('Hi there! How are you today?');
    const base = decideLayer1(r, { qualityFloor: 0.6 });
    assert.equal(base.modelClass, 'economy');
    const d = decideLayer1(r, { qualityFloor: 0.6, rules: [escalate('conversation')], now: NOW });
    assert.equal(d.modelClass, 'standard');
    assert.deepEqual(d.appliedRules, [escalationRuleId('conversation')]);
  });

  test('several escalation rules still climb one rung only', () => {
    const r = req('Hi there!');
    const d = decideLayer1(r, { qualityFloor: 0.6, rules: [escalate('conversation'), escalate('conversation')], now: NOW });
    assert.equal(d.modelClass, 'standard');
    assert.equal(d.appliedRules.length, 1);
  });

  test('an expired rule (now == expiresAt) and another family\'s rule do nothing', () => {
    const r = req('Hi there!');
    const d = decideLayer1(r, { qualityFloor: 0.6, rules: [escalate('conversation', NOW), escalate('coding')], now: NOW });
    assert.equal(d.modelClass, 'economy');
    assert.deepEqual(d.appliedRules, []);
    const justBefore = decideLayer1(r, { qualityFloor: 0.6, rules: [escalate('conversation', NOW + 1)], now: NOW });
    assert.equal(justBefore.modelClass, 'standard');
  });

  test('a rule of another rule-set version does not apply', () => {
    const foreign = { ...escalate('conversation'), version: 'l3r-v0' } as unknown as Layer3Rule;
    const d = decideLayer1(req('Hi there!'), { qualityFloor: 0.6, rules: [foreign], now: NOW });
    assert.equal(d.modelClass, 'economy');
    assert.deepEqual(d.appliedRules, []);
  });

  test('a suppressed class is skipped upward, chained if needed', () => {
    const r = req('Hi there!');
    const one = decideLayer1(r, { qualityFloor: 0.6, rules: [suppress('conversation', 'economy')], now: NOW });
    assert.equal(one.modelClass, 'standard');
    assert.deepEqual(one.appliedRules, [suppressionRuleId('conversation', 'economy', null)]);
    const two = decideLayer1(r, {
      qualityFloor: 0.6,
      rules: [suppress('conversation', 'standard'), suppress('conversation', 'economy')],
      now: NOW,
    });
    assert.equal(two.modelClass, 'premium');
    assert.equal(two.appliedRules.length, 2);
  });

  test('escalation then suppression compose', () => {
    const r = req('Hi there!');
    const d = decideLayer1(r, { qualityFloor: 0.6, rules: [escalate('conversation'), suppress('conversation', 'standard')], now: NOW });
    assert.equal(d.modelClass, 'premium');
    assert.deepEqual(d.appliedRules, [escalationRuleId('conversation'), suppressionRuleId('conversation', 'standard', null)]);
  });

  test('frontier is never skipped, and endpoint suppressions are left to Layer 2', () => {
    const r = req('Hi there!');
    const d = decideLayer1(r, {
      qualityFloor: 0.6,
      rules: [
        suppress('conversation', 'economy'),
        suppress('conversation', 'standard'),
        suppress('conversation', 'premium'),
        suppress('conversation', 'frontier'),
      ],
      now: NOW,
    });
    assert.equal(d.modelClass, 'frontier');
    assert.equal(d.appliedRules.length, 3);
    const e = decideLayer1(r, { qualityFloor: 0.6, rules: [suppress('conversation', 'economy', 'openai/gpt-4o-mini@us-east')], now: NOW });
    assert.equal(e.modelClass, 'economy');
    assert.deepEqual(e.appliedRules, []);
  });
});

describe('benchmark fixture', () => {
  test('builds an ~8k-token request deterministically and runs Layer 1 on it', () => {
    const r = benchmarkRequest();
    const tokens = estimateInputTokens(r);
    assert.ok(tokens >= 8192 && tokens <= 8192 + 64, `${tokens}`);
    assert.deepEqual(benchmarkRequest(), r);
    const bench = layer1BenchCase();
    const d = bench.run();
    assert.deepEqual(bench.run(), d);
    assert.equal(d.taskFamily, 'coding');
    assert.ok(d.features.scannedChars < 8192);
  });
});

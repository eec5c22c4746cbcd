import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { allModels } from '../pricing/price-book.ts';
import { DEFAULT_CIRCUIT_CONFIG as CFG, closedCircuit, recordFailure, type CircuitState } from './circuit.ts';
import {
  HALF_OPEN_PENALTY,
  chooseEndpoints,
  endpointsFromPriceBook,
  matchesResidency,
  requiredCapabilities,
  type ChooseEndpointsInput,
  type EndpointCandidate,
} from './layer2.ts';
import { LAYER3_RULES_VERSION, endpointKey, suppressionRuleId, type Layer3Rule } from './rules.ts';
import type { ModelClass } from '../model-class.ts';
import type { TaskFamily } from './vocabulary.ts';

const NOW = 1_800_000_000_000;
const ALL = endpointsFromPriceBook();

const cand = (provider: EndpointCandidate['provider'], model: string, region: string, inMicros: bigint, outMicros: bigint, modelClass: ModelClass = 'economy'): EndpointCandidate => ({
  provider,
  model,
  region,
  modelClass,
  inputMicrosPerMTok: inMicros,
  outputMicrosPerMTok: outMicros,
  capabilities: ['tools', 'json', 'vision', 'streaming'],
});

const open = (): CircuitState => {
  let s = closedCircuit(NOW - 1000);
  for (let i = 0; i < CFG.consecutiveFailures; i++) s = recordFailure(s, NOW - 1000);
  return s;
};

const suppress = (family: TaskFamily, modelClass: ModelClass, endpoint: string | null, expiresAtMs = NOW + 1000): Layer3Rule => ({
  id: suppressionRuleId(family, modelClass, endpoint),
  version: LAYER3_RULES_VERSION,
  kind: 'suppress',
  taskFamily: family,
  modelClass,
  endpoint,
  createdAtMs: NOW - 1000,
  expiresAtMs,
  reason: 'test',
});

const base = (over: Partial<ChooseEndpointsInput> = {}): ChooseEndpointsInput => ({
  modelClass: 'economy',
  taskFamily: 'conversation',
  candidates: ALL,
  health: {},
  now: NOW,
  ...over,
});

describe('endpointsFromPriceBook', () => {
  test('one candidate per model and region', () => {
    const expected = allModels().reduce((n, m) => n + m.regions.length, 0);
    assert.equal(ALL.length, expected);
    assert.equal(new Set(ALL.map(endpointKey)).size, ALL.length);
  });
});

describe('chooseEndpoints', () => {
  test('serves the asked class, ordered by price when latency is unknown', () => {
    const c = chooseEndpoints(base());
    assert.equal(c.modelClass, 'economy');
    assert.ok(c.endpoints.length > 0);
    for (const e of c.endpoints) assert.equal(e.modelClass, 'economy');
    for (let i = 1; i < c.endpoints.length; i++) assert.ok(c.endpoints[i].score >= c.endpoints[i - 1].score);
    // ministral-8b has the lowest blended (3×in + out) price in economy; its three regions tie
    // and fall back to key order.
    assert.deepEqual(c.endpoints.slice(0, 3).map((e) => e.key), [
      'mistral/ministral-8b@eu-central',
      'mistral/ministral-8b@eu-west',
      'mistral/ministral-8b@us-east',
    ]);
  });

  test('lower observed latency can beat a lower price', () => {
    const cheapSlow = cand('deepseek', 'cheap', 'asia-east', 100_000n, 100_000n);
    const dearFast = cand('openai', 'fast', 'us-east', 120_000n, 120_000n);
    const c = chooseEndpoints(
      base({
        candidates: [cheapSlow, dearFast],
        health: { latencyEwmaMs: { [endpointKey(cheapSlow)]: 3000, [endpointKey(dearFast)]: 400 } },
      }),
    );
    assert.deepEqual(c.endpoints.map((e) => e.model), ['fast', 'cheap']);
  });

  test('equal scores tie-break on the endpoint key (deterministic)', () => {
    const a = cand('openai', 'a', 'us-east', 1n, 1n);
    const b = cand('anthropic', 'b', 'us-east', 1n, 1n);
    assert.deepEqual(chooseEndpoints(base({ candidates: [a, b] })).endpoints.map((e) => e.key), [endpointKey(b), endpointKey(a)]);
    assert.deepEqual(chooseEndpoints(base({ candidates: [b, a] })).endpoints.map((e) => e.key), [endpointKey(b), endpointKey(a)]);
  });

  test('an endpoint with no latency data is ranked as typical (median), not first or last', () => {
    const fast = cand('openai', 'fast', 'us-east', 100n, 100n);
    const slow = cand('openai', 'slow', 'us-east', 100n, 100n);
    const fresh = cand('openai', 'fresh', 'us-east', 100n, 100n);
    const mid = cand('openai', 'mid', 'us-east', 100n, 100n);
    const c = chooseEndpoints(
      base({
        candidates: [fresh, slow, fast, mid],
        health: { latencyEwmaMs: { [endpointKey(fast)]: 100, [endpointKey(mid)]: 200, [endpointKey(slow)]: 300 } },
      }),
    );
    assert.deepEqual(c.endpoints.map((e) => e.model), ['fast', 'fresh', 'mid', 'slow']);
  });

  test('skips every endpoint of a provider whose circuit is open', () => {
    const c = chooseEndpoints(base({ health: { circuits: { deepseek: open() } } }));
    assert.ok(c.endpoints.every((e) => e.provider !== 'deepseek'));
    assert.ok(c.skipped.some((s) => s.reason === 'circuit_open' && s.endpoint.startsWith('deepseek/')));
  });

  test('skips a single endpoint whose own circuit is open', () => {
    const key = 'openai/gpt-4o-mini@us-east';
    const c = chooseEndpoints(base({ health: { circuits: { [key]: open() } } }));
    assert.ok(!c.endpoints.some((e) => e.key === key));
    assert.ok(c.endpoints.some((e) => e.key === 'openai/gpt-4o-mini@us-west'));
  });

  test('a half-open circuit keeps the endpoint as a penalised trial', () => {
    const a = cand('openai', 'a', 'us-east', 100n, 100n);
    const b = cand('anthropic', 'b', 'us-east', 100n, 100n);
    const c = chooseEndpoints(base({ candidates: [a, b], health: { circuits: { openai: open() } }, now: NOW + CFG.coolDownMs }));
    assert.deepEqual(c.endpoints.map((e) => [e.model, e.trial]), [['b', false], ['a', true]]);
    assert.equal(c.endpoints[1].score - c.endpoints[0].score, HALF_OPEN_PENALTY);
  });

  test('honours residency by region prefix', () => {
    const eu = chooseEndpoints(base({ residency: 'eu' }));
    assert.ok(eu.endpoints.length > 0);
    assert.ok(eu.endpoints.every((e) => e.region.startsWith('eu-')));
    assert.ok(eu.skipped.some((s) => s.reason === 'residency' && s.endpoint.startsWith('deepseek/')));
    assert.equal(matchesResidency('eu-west', 'eu'), true);
    assert.equal(matchesResidency('eu', 'eu'), true);
    assert.equal(matchesResidency('europe-west', 'eu'), false);
    assert.equal(matchesResidency('us-east', 'eu'), false);
  });

  test('honours the allowed providers', () => {
    const c = chooseEndpoints(base({ allowedProviders: ['anthropic'] }));
    assert.ok(c.endpoints.length > 0 && c.endpoints.every((e) => e.provider === 'anthropic'));
  });

  test('drops endpoints lacking a required capability', () => {
    const c = chooseEndpoints(base({ requiredCapabilities: ['vision'] }));
    assert.ok(c.endpoints.every((e) => e.capabilities.includes('vision')));
    assert.ok(c.skipped.some((s) => s.reason === 'missing_capability' && s.endpoint.startsWith('deepseek/')));
  });

  test('drops endpoints suppressed for the family, only while the rule is active', () => {
    const key = 'mistral/ministral-8b@eu-central';
    const rule = suppress('conversation', 'economy', key);
    const c = chooseEndpoints(base({ rules: [rule] }));
    assert.ok(!c.endpoints.some((e) => e.key === key));
    assert.deepEqual(c.appliedRules, [rule.id]);
    assert.ok(c.skipped.some((s) => s.endpoint === key && s.reason === 'endpoint_suppressed'));
    const expired = chooseEndpoints(base({ rules: [suppress('conversation', 'economy', key, NOW)] }));
    assert.equal(expired.endpoints[0].key, key);
    const otherFamily = chooseEndpoints(base({ rules: [suppress('coding', 'economy', key)] }));
    assert.equal(otherFamily.endpoints[0].key, key);
  });

  test('falls back to the next class up when nothing remains', () => {
    // EU residency with only DeepSeek allowed leaves nothing at all; with Mistral's economy
    // circuits open, Mistral's standard class is the fallback.
    const circuits: Record<string, CircuitState> = {};
    for (const e of ALL) if (e.provider === 'mistral' && e.modelClass === 'economy') circuits[endpointKey(e)] = open();
    const c = chooseEndpoints(base({ allowedProviders: ['mistral'], health: { circuits } }));
    assert.equal(c.modelClass, 'standard');
    assert.ok(c.endpoints.length > 0 && c.endpoints.every((e) => e.modelClass === 'standard' && e.provider === 'mistral'));
  });

  test('class-wide suppression is honoured for fallback classes', () => {
    const circuits: Record<string, CircuitState> = { openai: open(), anthropic: open(), google: open(), deepseek: open() };
    for (const e of ALL) if (e.provider === 'mistral' && e.modelClass === 'economy') circuits[endpointKey(e)] = open();
    const rule = suppress('conversation', 'standard', null);
    const c = chooseEndpoints(base({ health: { circuits }, rules: [rule] }));
    assert.equal(c.modelClass, 'premium');
    assert.deepEqual(c.appliedRules, [rule.id]);
  });

  test('returns an empty list and no class when nothing anywhere qualifies', () => {
    const c = chooseEndpoints(base({ residency: 'eu', allowedProviders: ['deepseek'] }));
    assert.deepEqual(c.endpoints, []);
    assert.equal(c.modelClass, null);
    assert.ok(c.skipped.length > 0);
  });

  test('a candidate repriced or renamed in place is ranked on its new facts (per-candidate memo)', () => {
    const a = cand('openai', 'a', 'us-east', 100n, 100n);
    const b = cand('anthropic', 'b', 'us-east', 200n, 200n);
    assert.deepEqual(chooseEndpoints(base({ candidates: [a, b] })).endpoints.map((e) => e.model), ['a', 'b']);
    a.inputMicrosPerMTok = 1_000n;
    assert.deepEqual(chooseEndpoints(base({ candidates: [a, b] })).endpoints.map((e) => e.model), ['b', 'a']);
    a.region = 'eu-west';
    const again = chooseEndpoints(base({ candidates: [a, b] }));
    assert.equal(again.endpoints.find((e) => e.model === 'a')?.key, 'openai/a@eu-west');
  });

  test('never goes down the ladder', () => {
    const c = chooseEndpoints(base({ modelClass: 'premium' }));
    assert.ok(c.endpoints.every((e) => e.modelClass === 'premium'));
  });
});

describe('requiredCapabilities', () => {
  test('derives tools, json, vision and streaming from the request', () => {
    assert.deepEqual(requiredCapabilities({ stream: false, messages: [] }), []);
    assert.deepEqual(
      requiredCapabilities({
        stream: true,
        tools: [{}],
        responseFormat: { type: 'json' },
        messages: [{ content: [{ type: 'text' }, { type: 'image' }] }],
      }),
      ['tools', 'json', 'vision', 'streaming'],
    );
    assert.deepEqual(requiredCapabilities({ stream: false, responseFormat: { type: 'text' }, tools: [], messages: [] }), []);
  });
});

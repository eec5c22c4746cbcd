import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedDetail } from './feed.ts';

const base = { id: 'x', at: '2026-11-24T10:00:00Z', projectId: 'p', channel: 'proxy', label: 'AI usage', promptExcerpt: 'hi' };

test('a call reads in customer copy: burn, saved, project, class and channel; never a model id', () => {
  const d = feedDetail({
    ...base,
    kind: 'ai_usage',
    projectName: 'Default',
    modelClass: 'economy',
    serviceBurnMicros: '1234',
    tokensSaved: '5000',
    deliveryPath: { provider: 'openai', model: 'gpt-4o-mini', region: 'us' },
  });
  assert.equal(d, '1,234 tokens · 5,000 saved · Default · economy class · via proxy');
  assert.doesNotMatch(d, /gpt/);
});

test('without a benchmark no saving is invented; a top-up shows its credit', () => {
  assert.equal(feedDetail({ ...base, kind: 'ai_usage', projectName: null, modelClass: null, serviceBurnMicros: '10', tokensSaved: null }), '10 tokens · via proxy');
  assert.equal(feedDetail({ ...base, kind: 'wallet', projectName: null, modelClass: null, serviceBurnMicros: null, tokensSaved: null, amountMicros: '25000000' }), '+25,000,000 tokens');
});

test('an alert says which threshold was crossed', () => {
  const a = { ...base, kind: 'alert' as const, projectName: null, modelClass: null, serviceBurnMicros: null, tokensSaved: null, channel: 'wallet', label: 'Balance below your alert threshold' };
  assert.equal(feedDetail({ ...a, amountMicros: '4800000', threshold: { kind: 'balance', thresholdMicros: '5000000', runwayDays: null, thresholdDays: null } }), 'balance 4,800,000 tokens, alert below 5,000,000');
  assert.equal(feedDetail({ ...a, threshold: { kind: 'runway', thresholdMicros: null, runwayDays: 2.5, thresholdDays: 3 } }), 'runway 2.5 days, alert below 3 days');
});

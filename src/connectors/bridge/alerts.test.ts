import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertFor, type Frame } from './alerts.ts';

const ctx = { userId: 'u1', baseUrl: 'https://sb.example', projectName: 'Web shop' };
const frame = (type: string, payload: Record<string, unknown>): Frame => ({ type, projectId: 'p', tenantId: 't', at: '2026-01-01T00:00:00Z', payload });

test('the four D14 alerts read as what happened and what to do; others and other users’ thresholds stay quiet', () => {
  const w = alertFor(frame('wallet.threshold', { userId: 'u1', threshold: '5000000', balance: '4990000' }), ctx)!;
  assert.equal(w.summary, 'Switchboard: wallet balance low');
  assert.equal(w.body, 'Balance 4,990,000 tokens ($4.99), below your alert at 5,000,000 tokens ($5.00). Top up at https://sb.example/billing');
  assert.equal(w.urgency, 'critical');
  assert.match(alertFor(frame('runway.threshold', { userId: 'u1', thresholdDays: 7, runway: 2.5, balance: '1' }), ctx)!.body, /About 2\.5 days/);
  assert.match(alertFor(frame('budget.exhausted', { monthlyBudgetMicros: '1000000', spentMicros: '1000000', month: '2026-01' }), ctx)!.summary, /Web shop budget used up/);
  assert.match(alertFor(frame('routing.escalated', { toClass: 'premium', fromClass: 'standard' }), ctx)!.body, /premium class \(from standard\)/);
  assert.equal(alertFor(frame('wallet.threshold', { userId: 'someone else', threshold: '1', balance: '0' }), ctx), null);
  assert.equal(alertFor(frame('llm.call', {}), ctx), null);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { approxCostUsd, formatBps, formatCostUsd, formatDelta, formatRunway, formatTokens, formatUsd, usdToMicros } from './money.ts';

test('tokens group by thousands from integer strings, beyond 2^53 without loss', () => {
  assert.equal(formatTokens('0'), '0');
  assert.equal(formatTokens('1234567'), '1,234,567');
  assert.equal(formatTokens('-1000'), '−1,000');
  assert.equal(formatTokens('9007199254740993'), '9,007,199,254,740,993');
});

test('USD truncates toward zero to the cent', () => {
  assert.equal(formatUsd('10002250'), '$10.00');
  assert.equal(formatUsd('1234567890000'), '$1,234,567.89');
  assert.equal(formatUsd('9999'), '$0.00');
  assert.equal(formatUsd('-25500000'), '−$25.50');
});

test('a charged cost under a cent never reads as free; zero and whole cents read as USD does', () => {
  assert.equal(formatCostUsd('1'), '< $0.01');
  assert.equal(formatCostUsd('9999'), '< $0.01');
  assert.equal(formatCostUsd(42n), '< $0.01');
  assert.equal(formatCostUsd('10000'), '$0.01');
  assert.equal(formatCostUsd('0'), '$0.00');
  assert.equal(formatCostUsd('1234567'), '$1.23');
  assert.equal(formatCostUsd('-5000'), formatUsd('-5000'), 'refunds read as USD does');
});

test('a burn restated in dollars: "≈" for cents, "< $0.01" (never "≈ $0.00") for a positive amount under a cent', () => {
  assert.equal(approxCostUsd('1'), '< $0.01');
  assert.equal(approxCostUsd('9999'), '< $0.01');
  assert.equal(approxCostUsd('10000'), '≈ $0.01');
  assert.equal(approxCostUsd('0'), '≈ $0.00');
  assert.equal(approxCostUsd(123456789n), '≈ $123.45');
});

test('deltas and basis points', () => {
  assert.equal(formatDelta('1500'), '+1,500');
  assert.equal(formatDelta('-1500'), '−1,500');
  assert.equal(formatDelta('0'), '0');
  assert.equal(formatBps('1234'), '12.34 %');
  assert.equal(formatBps('5'), '0.05 %');
  assert.equal(formatBps('-250'), '−2.50 %');
});

test('typed dollars to micros: at most two decimals, no float', () => {
  assert.equal(usdToMicros('25'), '25000000');
  assert.equal(usdToMicros('$1,000.5'), '1000500000');
  assert.equal(usdToMicros('0.07'), '70000');
  assert.equal(usdToMicros('4.005'), null);
  assert.equal(usdToMicros('abc'), null);
  assert.equal(usdToMicros('-5'), null);
  assert.equal(usdToMicros('0.1') , '100000');
});

test('runway', () => {
  assert.equal(formatRunway(null), null);
  assert.equal(formatRunway(12.34), '12.3 days');
  assert.equal(formatRunway(77781.2), 'over 10 years');
});

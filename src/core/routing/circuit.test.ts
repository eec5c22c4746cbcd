import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_CIRCUIT_CONFIG as CFG,
  beginAttempt,
  canAttempt,
  circuitStatus,
  closedCircuit,
  recordFailure,
  recordSuccess,
  windowCounts,
  type CircuitState,
} from './circuit.ts';

const T0 = 1_800_000_000_000;

function fail(s: CircuitState, n: number, at = T0): CircuitState {
  for (let i = 0; i < n; i++) s = recordFailure(s, at);
  return s;
}

describe('circuit breaker: consecutive failures', () => {
  test('stays closed below the threshold and opens exactly at it', () => {
    let s = closedCircuit(T0);
    s = fail(s, CFG.consecutiveFailures - 1);
    assert.equal(circuitStatus(s, T0), 'closed');
    assert.equal(canAttempt(s, T0), true);
    s = recordFailure(s, T0 + 1);
    assert.equal(circuitStatus(s, T0 + 1), 'open');
    assert.equal(s.openedAtMs, T0 + 1);
    assert.equal(canAttempt(s, T0 + 1), false);
  });

  test('a success resets the consecutive count', () => {
    let s = fail(closedCircuit(T0), CFG.consecutiveFailures - 1);
    s = recordSuccess(s, T0);
    assert.equal(s.consecutiveFailures, 0);
    s = fail(s, CFG.consecutiveFailures - 1);
    assert.equal(circuitStatus(s, T0), 'closed');
  });
});

describe('circuit breaker: error rate', () => {
  test('opens on the error rate once the window holds enough requests', () => {
    let s = closedCircuit(T0);
    // Alternate success and failure: never 2 failures in a row, 50 % errors.
    for (let i = 0; i < CFG.minRequestsInWindow - 1; i++) {
      s = i % 2 === 0 ? recordFailure(s, T0 + i) : recordSuccess(s, T0 + i);
      assert.equal(circuitStatus(s, T0 + i), 'closed', `request ${i}`);
    }
    s = recordFailure(s, T0 + CFG.minRequestsInWindow); // 20th request, 10 failures of 20
    assert.equal(circuitStatus(s, T0 + CFG.minRequestsInWindow), 'open');
  });

  test('a rate below the threshold keeps it closed', () => {
    let s = closedCircuit(T0);
    for (let i = 0; i < 100; i++) s = i % 3 === 0 ? recordFailure(s, T0 + i) : recordSuccess(s, T0 + i);
    assert.equal(circuitStatus(s, T0 + 100), 'closed');
  });

  test('old windows fade out of the sliding count', () => {
    let s = closedCircuit(T0);
    for (let i = 0; i < 10; i++) s = recordSuccess(s, T0 + i);
    s = fail(s, 3, T0 + 10);
    const now = windowCounts(s, T0 + 10);
    assert.equal(now.requests, 13);
    assert.equal(now.failures, 3);
    // Halfway through the next window, half of the previous one still counts.
    const half = windowCounts(s, T0 + CFG.windowMs + CFG.windowMs / 2);
    assert.equal(half.requests, 6.5);
    assert.equal(half.failures, 1.5);
    // Two windows later nothing counts.
    assert.deepEqual(windowCounts(s, T0 + 2 * CFG.windowMs), { requests: 0, failures: 0 });
  });
});

describe('circuit breaker: cool-down and half-open', () => {
  const opened = fail(closedCircuit(T0), CFG.consecutiveFailures);

  test('open until the cool-down has elapsed, then half-open', () => {
    assert.equal(circuitStatus(opened, T0 + CFG.coolDownMs - 1), 'open');
    assert.equal(canAttempt(opened, T0 + CFG.coolDownMs - 1), false);
    assert.equal(circuitStatus(opened, T0 + CFG.coolDownMs), 'half_open');
    assert.equal(canAttempt(opened, T0 + CFG.coolDownMs), true);
  });

  test('half-open lets one trial through at a time', () => {
    const t = T0 + CFG.coolDownMs;
    const trial = beginAttempt(opened, t);
    assert.equal(trial.status, 'half_open');
    assert.equal(trial.trialsInFlight, 1);
    assert.equal(canAttempt(trial, t), false);
  });

  test('a successful trial closes the circuit with clean counters', () => {
    const t = T0 + CFG.coolDownMs;
    const closed = recordSuccess(beginAttempt(opened, t), t + 5);
    assert.equal(circuitStatus(closed, t + 5), 'closed');
    assert.equal(closed.consecutiveFailures, 0);
    assert.equal(closed.windowFailures, 0);
    assert.equal(closed.openedAtMs, null);
  });

  test('a failed trial re-opens and restarts the cool-down', () => {
    const t = T0 + CFG.coolDownMs;
    const reopened = recordFailure(beginAttempt(opened, t), t + 5);
    assert.equal(circuitStatus(reopened, t + 5), 'open');
    assert.equal(reopened.openedAtMs, t + 5);
    assert.equal(circuitStatus(reopened, t + 5 + CFG.coolDownMs - 1), 'open');
    assert.equal(circuitStatus(reopened, t + 5 + CFG.coolDownMs), 'half_open');
  });

  test('late reports while open change nothing', () => {
    const t = T0 + 10;
    assert.equal(recordSuccess(opened, t), opened);
    assert.equal(recordFailure(opened, t), opened);
  });

  test('beginAttempt is a no-op when closed or open', () => {
    const closed = closedCircuit(T0);
    assert.equal(beginAttempt(closed, T0), closed);
    assert.equal(beginAttempt(opened, T0 + 1), opened);
  });

  test('operations never mutate their input', () => {
    const frozen = Object.freeze({ ...opened }) as CircuitState;
    const t = T0 + CFG.coolDownMs;
    assert.doesNotThrow(() => recordFailure(beginAttempt(frozen, t), t));
    const c = Object.freeze(closedCircuit(T0)) as CircuitState;
    assert.doesNotThrow(() => recordSuccess(recordFailure(c, T0), T0 + 2 * CFG.windowMs));
  });
});

// A pure circuit-breaker state machine for Layer 2 (D12: skip providers whose circuit is open,
// on consecutive failures or error rate). States are immutable values and every operation takes
// `now` (epoch ms), so the same code runs in-process, is shared through Redis, and is tested
// without timers.
//
//   closed ──(N consecutive failures, or error rate ≥ R over the window with ≥ M requests)──▶ open
//   open ──(cool-down elapsed)──▶ half_open   (derived from time; no write is needed)
//   half_open ──(trial succeeds)──▶ closed     half_open ──(trial fails)──▶ open (cool-down restarts)
//
// The error rate uses a sliding-window counter (the previous fixed window weighted by how much of
// it still overlaps the sliding window, plus the current one): two counters instead of a log of
// timestamps, with at most a few percent error, which is plenty for tripping a breaker.

export interface CircuitConfig {
  /** Consecutive failures that open a closed circuit. */
  consecutiveFailures: number;
  /** Failure share (0..1) over the window that opens a closed circuit. */
  errorRateThreshold: number;
  /** Requests the window must hold before the error rate counts (avoids 1 of 1 = 100 %). */
  minRequestsInWindow: number;
  windowMs: number;
  /** How long an open circuit refuses traffic before allowing a trial. */
  coolDownMs: number;
  /** Trial requests allowed at once while half-open. */
  halfOpenMaxTrials: number;
}

export const DEFAULT_CIRCUIT_CONFIG: CircuitConfig = {
  consecutiveFailures: 5,
  errorRateThreshold: 0.5,
  minRequestsInWindow: 20,
  windowMs: 60_000,
  coolDownMs: 30_000,
  halfOpenMaxTrials: 1,
};

export type CircuitStatus = 'closed' | 'open' | 'half_open';

export interface CircuitState {
  /** Stored status; an `open` state past its cool-down reads as half_open (see circuitStatus). */
  status: CircuitStatus;
  consecutiveFailures: number;
  windowStartMs: number;
  windowRequests: number;
  windowFailures: number;
  prevWindowRequests: number;
  prevWindowFailures: number;
  openedAtMs: number | null;
  trialsInFlight: number;
}

export function closedCircuit(now: number): CircuitState {
  return {
    status: 'closed',
    consecutiveFailures: 0,
    windowStartMs: now,
    windowRequests: 0,
    windowFailures: 0,
    prevWindowRequests: 0,
    prevWindowFailures: 0,
    openedAtMs: null,
    trialsInFlight: 0,
  };
}

/**
 * A copy to change before returning, spelled out field by field: `{ ...state, field }` takes a slow
 * path on Node 20 (µs per object), and recordSuccess runs on every proxied call.
 */
function copy(s: CircuitState): CircuitState {
  return {
    status: s.status,
    consecutiveFailures: s.consecutiveFailures,
    windowStartMs: s.windowStartMs,
    windowRequests: s.windowRequests,
    windowFailures: s.windowFailures,
    prevWindowRequests: s.prevWindowRequests,
    prevWindowFailures: s.prevWindowFailures,
    openedAtMs: s.openedAtMs,
    trialsInFlight: s.trialsInFlight,
  };
}

/** The status as of `now`: open turns half-open once the cool-down has elapsed. */
export function circuitStatus(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): CircuitStatus {
  if (state.status === 'open' && state.openedAtMs !== null && now - state.openedAtMs >= config.coolDownMs) return 'half_open';
  return state.status;
}

/** Whether a request may be sent now: closed yes, open no, half-open while trial slots remain. */
export function canAttempt(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): boolean {
  const status = circuitStatus(state, now, config);
  if (status === 'closed') return true;
  if (status === 'open') return false;
  const inFlight = state.status === 'half_open' ? state.trialsInFlight : 0;
  return inFlight < config.halfOpenMaxTrials;
}

/** Call before sending: in half-open it takes a trial slot, so concurrent callers do not stampede. */
export function beginAttempt(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): CircuitState {
  const status = circuitStatus(state, now, config);
  if (status !== 'half_open') return state;
  const inFlight = state.status === 'half_open' ? state.trialsInFlight : 0;
  const next = copy(state);
  next.status = 'half_open';
  next.trialsInFlight = inFlight + 1;
  return next;
}

/** Moves the fixed window forward so it contains `now`, shifting counts into the previous window. */
function roll(state: CircuitState, now: number, config: CircuitConfig): CircuitState {
  const elapsed = now - state.windowStartMs;
  if (elapsed < config.windowMs) return state;
  const windows = Math.floor(elapsed / config.windowMs);
  const adjacent = windows === 1;
  const next = copy(state);
  next.windowStartMs = state.windowStartMs + windows * config.windowMs;
  next.prevWindowRequests = adjacent ? state.windowRequests : 0;
  next.prevWindowFailures = adjacent ? state.windowFailures : 0;
  next.windowRequests = 0;
  next.windowFailures = 0;
  return next;
}

/** Sliding-window estimate of (requests, failures) as of `now`. */
export function windowCounts(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): { requests: number; failures: number } {
  const s = roll(state, now, config);
  const overlap = 1 - Math.min(1, Math.max(0, (now - s.windowStartMs) / config.windowMs));
  return {
    requests: s.prevWindowRequests * overlap + s.windowRequests,
    failures: s.prevWindowFailures * overlap + s.windowFailures,
  };
}

export function recordSuccess(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): CircuitState {
  const status = circuitStatus(state, now, config);
  // A success reported for a request sent before the circuit opened says nothing about now.
  if (status === 'open') return state;
  if (status === 'half_open') return closedCircuit(now);
  const next = copy(roll(state, now, config));
  next.consecutiveFailures = 0;
  next.windowRequests += 1;
  return next;
}

export function recordFailure(state: CircuitState, now: number, config: CircuitConfig = DEFAULT_CIRCUIT_CONFIG): CircuitState {
  const status = circuitStatus(state, now, config);
  // Late failures from before the trip must not extend the cool-down.
  if (status === 'open') return state;
  if (status === 'half_open') return opened(state, now);
  const next = copy(roll(state, now, config));
  next.consecutiveFailures += 1;
  next.windowRequests += 1;
  next.windowFailures += 1;
  const { requests, failures } = windowCounts(next, now, config);
  const tripped =
    next.consecutiveFailures >= config.consecutiveFailures ||
    (requests >= config.minRequestsInWindow && failures / requests >= config.errorRateThreshold);
  return tripped ? opened(next, now) : next;
}

function opened(state: CircuitState, now: number): CircuitState {
  const next = copy(state);
  next.status = 'open';
  next.openedAtMs = now;
  next.trialsInFlight = 0;
  return next;
}

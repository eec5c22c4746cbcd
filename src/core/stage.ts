// Project stage machine (D4). onboarding → connected (first successful connection test or first
// call) → live (first billed call); live → paused when the project's budget or the tenant's
// wallet is exhausted, and paused → live when that cause is gone. A paused project remembers what
// paused it, so a wallet top-up does not resume a project whose budget is spent. Pure: the
// caller stores the result and emits `stage.changed {from, to, reason}` for every move.

export const STAGES = ['onboarding', 'connected', 'live', 'paused'] as const;
export type Stage = (typeof STAGES)[number];
export type PauseCause = 'budget' | 'wallet';

export const STAGE_EVENTS = [
  'connection_test',
  'call',
  'billed_call',
  'budget_exhausted',
  'wallet_exhausted',
  'budget_available',
  'wallet_funded',
] as const;
export type StageEvent = (typeof STAGE_EVENTS)[number];

export interface StageState {
  stage: Stage;
  pausedFor: PauseCause | null;
}

export interface StageMove {
  from: Stage;
  to: Stage;
  pausedFor: PauseCause | null;
  reason: StageEvent;
}

/** The move `event` causes from `state`, or null when it changes nothing. */
export function nextStage(state: StageState, event: StageEvent): StageMove | null {
  const move = (to: Stage, pausedFor: PauseCause | null = null): StageMove => ({ from: state.stage, to, pausedFor, reason: event });
  switch (event) {
    case 'connection_test':
    case 'call':
      return state.stage === 'onboarding' ? move('connected') : null;
    case 'billed_call':
      // A billed call proves neither budget nor wallet is exhausted any more.
      return state.stage === 'live' ? null : move('live');
    case 'budget_exhausted':
      return state.stage === 'live' ? move('paused', 'budget') : null;
    case 'wallet_exhausted':
      return state.stage === 'live' ? move('paused', 'wallet') : null;
    case 'budget_available':
      return state.stage === 'paused' && state.pausedFor === 'budget' ? move('live') : null;
    case 'wallet_funded':
      return state.stage === 'paused' && state.pausedFor === 'wallet' ? move('live') : null;
  }
}

// One run of the learning plane (D15), in stage order: outbox → evidence and patterns → retention
// → coverage snapshots, detectors and minting → validation of due proposals. Run by the worker's
// job (jobs/learning.job.ts), never by the request path. Every stage is incremental and safe to
// repeat; every write runs as the learning role (lock 6).
import type { Services } from '../shared/services.ts';
import { ensureBudgetsForWindow } from './budget.repo.ts';
import { consumeOutbox, dropExpiredBodies } from './evidence.repo.ts';
import { runValidation } from './orchestrator.ts';
import { asLearning } from './role.ts';
import { detectAndMint, type DetectRun } from './signals.repo.ts';

/** Outbox batches one run consumes at most, so one run never holds the worker for long. */
export const EVIDENCE_BATCHES_PER_RUN = 20;

export interface TickResult {
  consumed: number;
  evidence: number;
  bodiesDropped: number;
  detect: DetectRun;
  validated: number;
}

export async function runLearningTick(s: Services, now: Date = s.clock.now()): Promise<TickResult> {
  const cfg = s.config;
  await asLearning(s.db, (tx) =>
    ensureBudgetsForWindow(tx, now, { synthgen: cfg.LEARNING_BUDGET_SYNTHGEN_MICROS, replay: cfg.LEARNING_BUDGET_REPLAY_MICROS }),
  );
  let consumed = 0;
  let evidence = 0;
  for (let i = 0; i < EVIDENCE_BATCHES_PER_RUN; i++) {
    const r = await asLearning(s.db, (tx) => consumeOutbox(tx, now));
    consumed += r.consumed;
    evidence += r.evidence;
    if (r.busy || r.consumed === 0) break;
  }
  const bodiesDropped = await asLearning(s.db, (tx) => dropExpiredBodies(tx, now, cfg.LEARNING_OUTBOX_RETENTION_DAYS));
  const detect = await asLearning(s.db, (tx) =>
    detectAndMint(tx, now, {
      intervalSeconds: cfg.LEARNING_INTERVAL_SECONDS,
      minEvidence: cfg.LEARNING_MIN_EVIDENCE,
      coverageMin: cfg.LEARNING_COVERAGE_MIN_EVIDENCE,
      minFires: cfg.LEARNING_SIGNAL_MIN_FIRES,
    }),
  );
  const validated = await runValidation(s, now);
  return { consumed, evidence, bodiesDropped, detect, validated };
}

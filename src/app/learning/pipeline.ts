// One run of the learning plane (D15), in stage order: outbox → evidence and patterns → retention
// → coverage snapshots, detectors and minting → validation of due proposals. Run by the worker's
// job (jobs/learning.job.ts), never by the request path. Every stage is incremental and safe to
// repeat; every write runs as the learning role (lock 6).
import type { Services } from '../shared/index.ts';
import { ensureBudgetsForWindow } from './budget.repo.ts';
import { consumeOutbox, dropExpiredBodies, EVIDENCE_BATCH, type EvidenceRun } from './evidence.repo.ts';
import { runValidation } from './orchestrator.ts';
import { asLearning } from './role.ts';
import { detectAndMint, type DetectRun } from './signals.repo.ts';

/**
 * How long one run may keep consuming the outbox, as a share of LEARNING_INTERVAL_SECONDS. The
 * amount adapts to the traffic: a run takes batches of EVIDENCE_BATCH until the outbox is drained
 * (a batch comes back short) or this time is spent, so it keeps up with any rate the database can
 * aggregate, and still hands the worker back well before the next run is due. A fixed number of
 * batches per run would cap the plane at that many rows a minute, and an outbox fed faster than
 * that would grow without end.
 */
export const OUTBOX_TIME_SHARE = 0.5;

export interface EvidenceDrain {
  consumed: number;
  evidence: number;
  batches: number;
}

/**
 * Consume batches while each comes back full and the time budget lasts; at least one batch runs.
 * `consume` is one batch in its own transaction; `elapsedMs` reads a real clock (not the test clock).
 */
export async function drainOutbox(consume: () => Promise<EvidenceRun>, batch: number, budgetMs: number, elapsedMs: () => number): Promise<EvidenceDrain> {
  const out: EvidenceDrain = { consumed: 0, evidence: 0, batches: 0 };
  for (;;) {
    const r = await consume();
    out.batches += 1;
    out.consumed += r.consumed;
    out.evidence += r.evidence;
    if (r.busy || r.consumed < batch || elapsedMs() >= budgetMs) return out;
  }
}

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
  const t0 = performance.now();
  const { consumed, evidence } = await drainOutbox(
    () => asLearning(s.db, (tx) => consumeOutbox(tx, now)),
    EVIDENCE_BATCH,
    cfg.LEARNING_INTERVAL_SECONDS * 1000 * OUTBOX_TIME_SHARE,
    () => performance.now() - t0,
  );
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

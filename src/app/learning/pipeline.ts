// One run of the learning plane (D15), in stage order: outbox → evidence and patterns → retention
// → coverage snapshots, detectors and minting → validation of due proposals. Run by the worker's
// job (jobs/learning.job.ts), never by the request path. Every stage is incremental and safe to
// repeat; every write runs as the learning role (lock 6). Every stage's work is a slice that yields
// to live traffic (pacing.ts).
import type { Services } from '../shared/index.ts';
import { ensureBudgetsForWindow } from './budget.repo.ts';
import { consumeOutbox, dropExpiredBodies, EVIDENCE_BATCH, outboxBacklog, type EvidenceRun } from './evidence.repo.ts';
import { runValidation, VALIDATIONS_PER_RUN } from './orchestrator.ts';
import { DETECTORS } from './detectors.ts';
import { planePacer, type Pacer, type SliceMode } from './pacing.ts';
import { asLearning } from './role.ts';
import { detectAndMint, type DetectRun } from './signals.repo.ts';

/**
 * How long one run may keep consuming the outbox, as a share of LEARNING_INTERVAL_SECONDS. The
 * amount adapts to the traffic: a run takes batches until the outbox is drained (a batch comes back
 * short) or this time is spent, so it keeps up with any rate the database can aggregate, and still
 * hands the worker back well before the next run is due. A fixed number of batches per run would
 * cap the plane at that many rows a minute, and an outbox fed faster than that would grow without
 * end. Each batch is a slice that waits for its turn (pacing.ts): under live traffic, most of this
 * time is spent waiting.
 */
export const OUTBOX_TIME_SHARE = 0.5;
/** The later stages (retention, detection, validation) may wait for their turns until this share. */
export const TICK_TIME_SHARE = 0.9;
/** Outbox rows per slice while calls are being served: small, so a slice holds the event loop and the database briefly. */
export const BUSY_BATCH = 100;

export interface EvidenceDrain {
  consumed: number;
  evidence: number;
  batches: number;
  /** True when the run ended because no turn came before its deadline (traffic kept it waiting). */
  deferred: boolean;
}

/** What drainOutbox needs from a pacer (a Pacer, or a test's own). */
export interface Slicer {
  slice<T>(behind: boolean, deadline: number, fn: (mode: SliceMode) => Promise<T>, trickle?: boolean): Promise<{ mode: SliceMode; value: T } | null>;
}

/**
 * Consume batches while each comes back full and the time lasts, each batch one slice of the
 * pacer: growing from BUSY_BATCH to full size while quiet, full size when behind, BUSY_BATCH under
 * traffic. `behind(consumed)` (the backlog
 * is at its cap, given what this run consumed so far) is asked before each slice. `consume(n)` is
 * one batch of at most n rows in its own transaction; `now` reads the pacer's clock.
 */
export async function drainOutbox(
  consume: (batch: number) => Promise<EvidenceRun>,
  pacer: Slicer,
  o: {
    behind: (consumed: number) => boolean | Promise<boolean>;
    /** May the plane take busy turns (the backlog is at LEARNING_BUSY_BACKLOG or more)? Default: yes. */
    trickle?: (consumed: number) => boolean;
    deadline: number;
    now: () => number;
  },
): Promise<EvidenceDrain> {
  const out: EvidenceDrain = { consumed: 0, evidence: 0, batches: 0, deferred: false };
  // Quiet slices start small and double while the quiet lasts (100, 200, 400, 500 rows): a burst of
  // calls arriving after a quiet spell meets at most a small slice in progress, and a long quiet
  // spell still drains in full batches.
  let quietSize = BUSY_BATCH;
  for (;;) {
    const s = await pacer.slice(await o.behind(out.consumed), o.deadline, (mode) => {
      const size = mode === 'busy' ? BUSY_BATCH : mode === 'quiet' ? quietSize : EVIDENCE_BATCH;
      quietSize = mode === 'quiet' ? Math.min(EVIDENCE_BATCH, quietSize * 2) : BUSY_BATCH;
      return consume(size).then((r) => ({ r, size }));
    }, o.trickle?.(out.consumed) ?? true);
    if (!s) return { ...out, deferred: true };
    const { r, size } = s.value;
    out.batches += 1;
    out.consumed += r.consumed;
    out.evidence += r.evidence;
    if (r.busy || r.consumed < size || o.now() >= o.deadline) return out;
  }
}

export interface TickResult {
  consumed: number;
  evidence: number;
  bodiesDropped: number;
  detect: DetectRun;
  validated: number;
  /** Unconsumed outbox rows when the run began: an upper bound under the cap, exact up to twice the cap (outboxBacklog). */
  backlog: number;
  /** Slices the run was granted, by mode, and whether traffic deferred some of its work to a later run. */
  slices: Record<SliceMode, number>;
  deferred: boolean;
}

/** What a run reports for detection when traffic kept it from its turn (a later run detects). */
const noDetect = (): DetectRun => ({ busy: false, snapshots: 0, signals: Object.fromEntries(DETECTORS.map((d) => [d, 0])) as DetectRun['signals'], minted: 0 });

export async function runLearningTick(s: Services, now: Date = s.clock.now(), pacer: Pacer = planePacer(s)): Promise<TickResult> {
  const cfg = s.config;
  const clock = performance;
  const t0 = clock.now();
  const before = { ...pacer.slices };
  await asLearning(s.db, (tx) =>
    ensureBudgetsForWindow(tx, now, { synthgen: cfg.LEARNING_BUDGET_SYNTHGEN_MICROS, replay: cfg.LEARNING_BUDGET_REPLAY_MICROS }),
  );
  // Behind: the outbox holds LEARNING_BACKLOG_CAP unconsumed rows or more. Counted up to twice the
  // cap; a count that hit that limit is taken again once the run has consumed its way under it.
  const cap = cfg.LEARNING_BACKLOG_CAP;
  const limit = cap * 2;
  const backlog = await outboxBacklog(s.db, cap, limit);
  let counted = backlog;
  let countedAt = 0;
  const isBehind = async (consumed: number) => {
    if (counted - (consumed - countedAt) >= cap) return true;
    if (counted < limit) return false;
    [counted, countedAt] = [await outboxBacklog(s.db, cap, limit), consumed];
    return counted >= cap;
  };
  // Busy turns (the trickle under traffic) only once the backlog reaches LEARNING_BUSY_BACKLOG:
  // below it, the outbox is a buffer with room, and the plane waits for quiet moments. The backlog
  // is the run's first count (an upper bound under the cap), less what the run has consumed since.
  const busyFrom = Math.min(cfg.LEARNING_BUSY_BACKLOG, cap);
  const trickle = (consumed: number) => busyFrom === 0 || backlog - consumed >= busyFrom;
  if (backlog >= cap) s.log.warn({ backlog, cap }, 'learning plane: the outbox backlog is at LEARNING_BACKLOG_CAP; the plane works without yielding to live traffic until it is back under');
  const interval = cfg.LEARNING_INTERVAL_SECONDS * 1000;
  const drain = await drainOutbox((n) => asLearning(s.db, (tx) => consumeOutbox(tx, now, n)), pacer, {
    behind: isBehind, trickle, deadline: t0 + interval * OUTBOX_TIME_SHARE, now: () => clock.now(),
  });
  // The later stages: each one slice; skipped this run (and done by a later one) if no turn comes in time.
  const behind = await isBehind(drain.consumed);
  const deadline = t0 + interval * TICK_TIME_SHARE;
  let deferred = drain.deferred;
  const slice = async <T>(fn: () => Promise<T>, fallback: T): Promise<T> => {
    const r = await pacer.slice(behind, deadline, fn, trickle(drain.consumed));
    if (!r) deferred = true;
    return r ? r.value : fallback;
  };
  const bodiesDropped = await slice(() => asLearning(s.db, (tx) => dropExpiredBodies(tx, now, cfg.LEARNING_OUTBOX_RETENTION_DAYS)), 0);
  const detect = await slice(
    () =>
      asLearning(s.db, (tx) =>
        detectAndMint(tx, now, {
          intervalSeconds: cfg.LEARNING_INTERVAL_SECONDS,
          minEvidence: cfg.LEARNING_MIN_EVIDENCE,
          coverageMin: cfg.LEARNING_COVERAGE_MIN_EVIDENCE,
          minFires: cfg.LEARNING_SIGNAL_MIN_FIRES,
        }),
      ),
    noDetect(),
  );
  const validated = await runValidation(s, now, VALIDATIONS_PER_RUN, (fn) => slice(async () => (await fn(), true), false));
  const slices = { quiet: pacer.slices.quiet - before.quiet, busy: pacer.slices.busy - before.busy, behind: pacer.slices.behind - before.behind };
  return { consumed: drain.consumed, evidence: drain.evidence, bodiesDropped, detect, validated, backlog, slices, deferred };
}

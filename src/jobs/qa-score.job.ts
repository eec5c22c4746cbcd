// Asynchronous QA scoring as a pg-boss job (issue 5.3): every minute on schedule, and nudged
// (at most every 2 s per process) after calls settle, so scores land seconds after the fact.
// The queue is a singleton: one run at a time across all workers.
import type PgBoss from 'pg-boss';
import type { Logger, Services } from '../app/shared/index.ts';
import { scorePending } from '../app/calls/index.ts';
import type { JobModule } from './index.ts';

export const QA_SCORE_QUEUE = 'qa.score';
const NUDGE_EVERY_MS = 2_000;
let lastNudge = 0;

/** Called after a call is settled; cheap and fire-and-forget, never awaited by the request. */
export function nudgeQaScoring(boss: PgBoss, log: Logger): void {
  const now = Date.now();
  if (now - lastNudge < NUDGE_EVERY_MS) return;
  lastNudge = now;
  boss.send(QA_SCORE_QUEUE, {}, { singletonKey: 'qa-score', singletonSeconds: 2 }).catch((e) => log.warn(e, 'qa nudge failed'));
}

export const qaScoreJob: JobModule = {
  name: QA_SCORE_QUEUE,
  options: { policy: 'singleton' },
  async register(boss: PgBoss, s: Services) {
    await boss.schedule(QA_SCORE_QUEUE, '* * * * *', {});
    await boss.work(QA_SCORE_QUEUE, async () => {
      // Drain the backlog in batches, bounded so one run never holds the queue for long.
      for (let i = 0; i < 10; i++) if ((await scorePending(s)) === 0) break;
    });
  },
};

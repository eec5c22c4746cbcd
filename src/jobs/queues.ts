// Queue names and the glue that lets a job be enqueued inside the caller's transaction, so a
// committed write and the job it implies stand or fall together. createJobQueue is what the use
// cases get as `Services.jobs` (app/shared/jobs.ts): they never import this folder.
import { CompiledQuery } from 'kysely';
import type PgBoss from 'pg-boss';
import type { Executor } from '../store/db.ts';
import type { JobQueue } from '../app/shared/index.ts';
import type { Logger } from '../app/shared/index.ts';
import { AUTO_TOPUP_QUEUE } from '../app/money/index.ts';
import { nudgeQaScoring } from './qa-score.job.ts';

export const QUEUES = {
  webhookDeliver: 'webhooks.deliver',
  webhookSweep: 'webhooks.sweep',
  retentionPurge: 'events.purge',
  thresholds: 'alerts.thresholds',
  alert: 'alerts.send',
  digests: 'digests.tick',
  advisoryImport: 'advisory.import',
} as const;

/** pg-boss's `db` option over a Kysely executor (a transaction or the pool). */
export function jobsDb(ex: Executor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const r = await ex.executeQuery(CompiledQuery.raw(text, values));
      return { rows: r.rows as unknown[] as never[] };
    },
  };
}

/** Insert jobs through `ex` (same transaction as the caller's writes). `delayMs` is relative to the database clock. */
export async function enqueueJobs(boss: PgBoss, ex: Executor, jobs: Array<{ name: string; data: object; delayMs?: number; retryLimit?: number }>): Promise<void> {
  if (jobs.length === 0) return;
  await boss.insert(
    jobs.map((j) => ({
      name: j.name,
      data: j.data,
      retryLimit: j.retryLimit ?? 0,
      // A bare number of seconds is cast to an interval after now() by pg-boss.
      startAfter: String(Math.max(0, Math.ceil((j.delayMs ?? 0) / 1000))),
    })),
    { db: jobsDb(ex) },
  );
}

/** The queue behind `Services.jobs`: what the use cases ask for, as pg-boss jobs. */
export function createJobQueue(boss: PgBoss, log: Logger): JobQueue {
  return {
    deliverWebhooks: (ex, deliveries) =>
      enqueueJobs(
        boss,
        ex,
        deliveries.map((d) => ({ name: QUEUES.webhookDeliver, data: { deliveryId: d.deliveryId }, delayMs: d.delayMs })),
      ),
    mailAlerts: (ex, alerts) =>
      enqueueJobs(
        boss,
        ex,
        alerts.map((a) => ({ name: QUEUES.alert, data: { userId: a.userId, frame: a.frame }, retryLimit: 3 })),
      ),
    async checkThresholds(tenantId) {
      await boss.sendDebounced(QUEUES.thresholds, { tenantId }, { retryLimit: 2 }, 1, tenantId);
    },
    async chargeAutoTopup(ex, job) {
      await boss.send(AUTO_TOPUP_QUEUE, job, { db: jobsDb(ex), retryLimit: 3, retryDelay: 30, retryBackoff: true });
    },
    nudgeQaScoring: () => nudgeQaScoring(boss, log),
    processAdvisoryImport: (ex, job) => enqueueJobs(boss, ex, [{ name: QUEUES.advisoryImport, data: job }]),
  };
}

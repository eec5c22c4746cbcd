// Background jobs on pg-boss, on the same PostgreSQL (ARCHITECTURE "jobs"). Each *.job.ts exports
// a JobModule; this flat list is what the worker runs. Producers (the API) only need `boss.send`.
import type PgBoss from 'pg-boss';
import type { Services } from '../app/shared/index.ts';
import reservationSweep from './reservation-sweep.job.ts';
import autoTopup from './auto-topup.job.ts';
import { qaScoreJob } from './qa-score.job.ts';
import { layer3DeriveJob } from './layer3-derive.job.ts';
import { webhookDeliverJob, webhookSweepJob } from './webhooks.job.ts';
import { retentionJob } from './retention.job.ts';
import { alertEmailJob, thresholdsJob } from './alerts.job.ts';
import { digestsJob } from './digests.job.ts';
import { learningJob } from './learning.job.ts';
import { insightsRollupJob } from './insights-rollup.job.ts';
import { advisoryImportJob } from './advisory-import.job.ts';
import { ledgerCheckpointsJob } from './ledger-checkpoints.job.ts';

export interface JobModule {
  /** Queue name; also the pg-boss queue created at start-up. */
  name: string;
  /** Queue options, e.g. policy 'singleton' for jobs that must never run twice at once. */
  options?: Omit<PgBoss.Queue, 'name'>;
  /** Register handlers (and schedules) on the worker; may return what stops its timers. */
  register(boss: PgBoss, s: Services): Promise<void | (() => void)>;
}

export const JOBS: JobModule[] = [
  reservationSweep,
  autoTopup,
  qaScoreJob,
  layer3DeriveJob,
  webhookDeliverJob,
  webhookSweepJob,
  retentionJob,
  thresholdsJob,
  alertEmailJob,
  digestsJob,
  learningJob,
  insightsRollupJob,
  advisoryImportJob,
  ledgerCheckpointsJob,
];

export async function createQueues(boss: PgBoss): Promise<void> {
  for (const j of JOBS) await boss.createQueue(j.name, { ...j.options, name: j.name });
}

/** Registers every job; the returned function stops the timers some of them keep. */
export async function startWorker(boss: PgBoss, s: Services): Promise<() => void> {
  const stops: Array<() => void> = [];
  for (const j of JOBS) {
    const stop = await j.register(boss, s);
    if (stop) stops.push(stop);
  }
  return () => {
    for (const stop of stops) stop();
  };
}

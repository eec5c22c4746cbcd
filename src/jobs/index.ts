// Background jobs on pg-boss, on the same PostgreSQL (ARCHITECTURE "jobs"). Each *.job.ts exports
// a JobModule; this flat list is what the worker runs. Producers (the API) only need `boss.send`.
import type PgBoss from 'pg-boss';
import type { Services } from '../app/services.ts';
import { webhookDeliverJob, webhookSweepJob } from './webhooks.job.ts';
import { retentionJob } from './retention.job.ts';
import { alertEmailJob, thresholdsJob } from './alerts.job.ts';
import { digestsJob } from './digests.job.ts';

export interface JobModule {
  /** Queue name; also the pg-boss queue created at start-up. */
  name: string;
  /** Register handlers (and schedules) on the worker. */
  register(boss: PgBoss, s: Services): Promise<void>;
}

export const JOBS: JobModule[] = [webhookDeliverJob, webhookSweepJob, retentionJob, thresholdsJob, alertEmailJob, digestsJob];

export async function createQueues(boss: PgBoss): Promise<void> {
  for (const j of JOBS) await boss.createQueue(j.name);
}

export async function startWorker(boss: PgBoss, s: Services): Promise<void> {
  for (const j of JOBS) await j.register(boss, s);
}

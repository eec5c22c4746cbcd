// The job queue as the use cases see it (CONVENTIONS: nothing in app/ imports jobs/). A use case
// says what must happen later; jobs/ (queues.ts) decides the queue, the retries and the worker.
// Methods taking an executor insert the job through it, so the job exists only if the caller's
// transaction commits.
import type { Executor } from '../../store/db.ts';
import type { EventFrame } from '../../infra/bus/bus.ts';

export interface JobQueue {
  /** Attempt these webhook deliveries (rows already written); `delayMs` after the database clock. */
  deliverWebhooks(ex: Executor, deliveries: Array<{ deliveryId: string; delayMs?: number }>): Promise<void>;
  /** E-mail an alert frame to each user. */
  mailAlerts(ex: Executor, alerts: Array<{ userId: string; frame: EventFrame }>): Promise<void>;
  /** Re-evaluate a tenant's balance and runway alerts soon (debounced per tenant). */
  checkThresholds(tenantId: string): Promise<void>;
  /** Charge the tenant's saved payment method for an auto-top-up. */
  chargeAutoTopup(ex: Executor, job: { tenantId: string; topupId: string }): Promise<void>;
  /** Ask the worker to score settled calls soon; cheap, fire-and-forget, never awaited. */
  nudgeQaScoring(): void;
  /** Classify and price an uploaded advisory import (D14 tier 6); the rows are already written. */
  processAdvisoryImport(ex: Executor, job: { importId: string }): Promise<void>;
}

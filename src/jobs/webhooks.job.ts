// Webhook delivery attempts: one job per due attempt (sent with the delay of its retry), plus a
// sweep every minute for anything a job missed. Both go through attemptDelivery, whose lease
// makes a double run harmless.
import type { JobModule } from './index.ts';
import { QUEUES } from './queues.ts';
import { attemptDelivery, deliverDue } from '../app/events/index.ts';

export const webhookDeliverJob: JobModule = {
  name: QUEUES.webhookDeliver,
  async register(boss, s) {
    await boss.work<{ deliveryId: string }>(QUEUES.webhookDeliver, { batchSize: 8, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      await Promise.all(jobs.map((j) => attemptDelivery(s, j.data.deliveryId)));
    });
  },
};

export const webhookSweepJob: JobModule = {
  name: QUEUES.webhookSweep,
  async register(boss, s) {
    await boss.work(QUEUES.webhookSweep, async () => {
      await deliverDue(s);
    });
    await boss.schedule(QUEUES.webhookSweep, '* * * * *');
  },
};

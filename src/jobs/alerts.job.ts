// Notification alerts: threshold evaluation after wallet movements (debounced per tenant by
// checkWalletThresholds) and alert e-mails.
import type { JobModule } from './index.ts';
import { QUEUES } from './queues.ts';
import { evaluateWalletThresholds, sendAlertEmail } from '../app/events/index.ts';
import type { EventFrame } from '../infra/bus/bus.ts';

export const thresholdsJob: JobModule = {
  name: QUEUES.thresholds,
  async register(boss, s) {
    await boss.work<{ tenantId: string }>(QUEUES.thresholds, { batchSize: 4, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const j of jobs) await evaluateWalletThresholds(s, j.data.tenantId);
    });
  },
};

export const alertEmailJob: JobModule = {
  name: QUEUES.alert,
  async register(boss, s) {
    await boss.work<{ userId: string; frame: EventFrame }>(QUEUES.alert, { batchSize: 4, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const j of jobs) await sendAlertEmail(s, j.data.userId, j.data.frame);
    });
  },
};

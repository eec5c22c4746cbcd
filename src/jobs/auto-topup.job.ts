// Auto-top-up (spec §2 Wallet, D11): a settlement that takes the balance below the threshold
// enqueues this job in its own transaction; the worker charges the saved payment method here,
// never in the request that crossed the threshold.
import type { JobModule } from './index.ts';
import { AUTO_TOPUP_QUEUE, runAutoTopup, type AutoTopupJob } from '../app/money/index.ts';

const job: JobModule = {
  name: AUTO_TOPUP_QUEUE,
  async register(boss, s) {
    await boss.work<AutoTopupJob>(AUTO_TOPUP_QUEUE, { pollingIntervalSeconds: 1 }, async (jobs) => {
      for (const j of jobs) await runAutoTopup(s, j.data);
    });
  },
};
export default job;

// Every minute (and once when a worker starts): add new ledger entries to the insights' daily
// rollups (app/money/ledger-rollups.repo.ts). The insights stay exact between runs, reading whatever
// is above each tenant's watermark from the ledger itself; the job only keeps that part small.
import type { JobModule } from './index.ts';
import { rollUpLedger } from '../app/money/index.ts';

export const INSIGHTS_ROLLUP_QUEUE = 'insights.rollup';

export const insightsRollupJob: JobModule = {
  name: INSIGHTS_ROLLUP_QUEUE,
  options: { policy: 'singleton' },
  async register(boss, s) {
    await boss.work(INSIGHTS_ROLLUP_QUEUE, async () => {
      await rollUpLedger(s.db);
    });
    await boss.schedule(INSIGHTS_ROLLUP_QUEUE, '* * * * *', {}, { retryLimit: 0 });
    await boss.send(INSIGHTS_ROLLUP_QUEUE, {}, { retryLimit: 0 });
  },
};

// Runs the reservation sweeper every minute, and once when a worker starts, so a worker restarted
// after a crash releases the holds the crash left behind straight away (D8).
import type { JobModule } from './index.ts';
import { SWEEP_QUEUE, sweepReservations } from '../app/money/sweeper.ts';
import { deleteExpiredResponses } from '../app/calls/stored-responses.repo.ts';

const job: JobModule = {
  name: SWEEP_QUEUE,
  async register(boss, s) {
    await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds: 1 }, async () => {
      await sweepReservations(s);
      // Stored Responses API answers past their 30 days (D19) go in the same pass.
      await deleteExpiredResponses(s);
    });
    await boss.schedule(SWEEP_QUEUE, '* * * * *', {}, { retryLimit: 0 });
    await boss.send(SWEEP_QUEUE, {}, { retryLimit: 0 });
  },
};
export default job;

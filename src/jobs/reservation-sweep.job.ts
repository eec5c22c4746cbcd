// Runs the reservation sweeper once when a worker starts, so a worker restarted after a crash
// releases the holds the crash left behind straight away (D8), then every quarter of
// RESERVATION_TIMEOUT_MS (1 s to 1 min, sweepIntervalMs) through the queue, and on the minute cron
// as a safety net. One sweeper runs at a time across workers (its advisory lock).
import type { JobModule } from './index.ts';
import { SWEEP_QUEUE, sweepIntervalMs, sweepReservations } from '../app/money/index.ts';
import { deleteExpiredResponses } from '../app/calls/index.ts';

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
    // The minute cron alone kept a dead replica's holds up to ~1.5 minutes past the timeout.
    const every = sweepIntervalMs(s.config.RESERVATION_TIMEOUT_MS);
    if (every < 60_000) {
      const timer = setInterval(() => {
        // singletonSeconds: one queued sweep per interval whichever worker sends it.
        boss.send(SWEEP_QUEUE, {}, { retryLimit: 0, singletonSeconds: Math.max(1, Math.floor(every / 1000)) }).catch((e) => s.log.warn(e, 'could not queue a reservation sweep'));
      }, every);
      timer.unref();
      return () => clearInterval(timer);
    }
  },
};
export default job;

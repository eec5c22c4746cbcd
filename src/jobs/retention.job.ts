// Retention, daily: webhook deliveries and their attempt logs after 30 days (spec §6), relayed
// event-outbox rows after a day.
import type { JobModule } from './index.ts';
import { QUEUES } from './queues.ts';
import { purgeExpired } from '../app/events/index.ts';

export const retentionJob: JobModule = {
  name: QUEUES.retentionPurge,
  async register(boss, s) {
    await boss.work(QUEUES.retentionPurge, async () => {
      const r = await purgeExpired(s);
      if (r.deliveries || r.outbox) s.log.info(r, 'retention purge');
    });
    await boss.schedule(QUEUES.retentionPurge, '17 3 * * *');
  },
};

// Digests: every hour, send each owner's daily or weekly digest once it is due in their time zone.
import type { JobModule } from './index.ts';
import { QUEUES } from './queues.ts';
import { runDigests } from '../app/insights/index.ts';

export const digestsJob: JobModule = {
  name: QUEUES.digests,
  async register(boss, s) {
    await boss.work(QUEUES.digests, async () => {
      await runDigests(s);
    });
    await boss.schedule(QUEUES.digests, '0 * * * *');
  },
};

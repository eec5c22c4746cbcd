// Layer 3 rule derivation on schedule (issue 5.4): every five minutes, outcomes of the last 24 h
// become the rule set in force, versioned with a change log. Replicas pick it up within seconds.
import type PgBoss from 'pg-boss';
import type { Services } from '../app/shared/index.ts';
import { deriveAndStore } from '../app/calls/index.ts';
import type { JobModule } from './index.ts';

export const LAYER3_QUEUE = 'layer3.derive';

export const layer3DeriveJob: JobModule = {
  name: LAYER3_QUEUE,
  options: { policy: 'singleton' },
  async register(boss: PgBoss, s: Services) {
    await boss.schedule(LAYER3_QUEUE, '*/5 * * * *', {});
    await boss.work(LAYER3_QUEUE, async () => {
      const r = await deriveAndStore(s);
      if (r) s.log.info(r, 'layer 3 rules changed');
    });
  },
};

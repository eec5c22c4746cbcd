// Every hour (D17): sign the chain head of every tenant whose ledger moved since its last
// checkpoint (app/money/checkpoints.ts). Singleton, so two workers never sign the same heads at
// once (and if they did, the unique (tenant, sequence) pair keeps one row).
import type { JobModule } from './index.ts';
import { checkpointMovedLedgers } from '../app/money/index.ts';

export const LEDGER_CHECKPOINT_QUEUE = 'ledger.checkpoints';

export const ledgerCheckpointsJob: JobModule = {
  name: LEDGER_CHECKPOINT_QUEUE,
  options: { policy: 'singleton' },
  async register(boss, s) {
    await boss.work(LEDGER_CHECKPOINT_QUEUE, async () => {
      const r = await checkpointMovedLedgers(s);
      if (r.tenants) s.log.info(r, 'ledger checkpoints signed');
    });
    await boss.schedule(LEDGER_CHECKPOINT_QUEUE, '0 * * * *', {}, { retryLimit: 0 });
  },
};

// Advisory imports (D14 tier 6): classify and price one uploaded import, enqueued by the upload
// in the transaction that marks it queued. Polled every half second so a small import's report is
// ready about as soon as the upload returns.
import type { JobModule } from './index.ts';
import { QUEUES } from './queues.ts';
import { processAdvisoryImport } from '../app/connectors/index.ts';

export const advisoryImportJob: JobModule = {
  name: QUEUES.advisoryImport,
  async register(boss, s) {
    await boss.work<{ importId: string }>(QUEUES.advisoryImport, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
      await processAdvisoryImport(s, job.data.importId);
    });
  },
};

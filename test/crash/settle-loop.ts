// Child process for the crash test (src/app/sweeper.test.ts): settles the given reservations in
// four concurrent lanes, each settlement holding its transaction open a little (as a slow event
// outbox would), and prints "settled <callId>" after each commit. The test SIGKILLs it mid-flight.
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.ts';
import { startRuntime } from '../../src/runtime/runtime.ts';
import { settleCall, type Reservation } from '../../src/app/money/wallet.ts';
import { settlement } from '../money.ts';

const input = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Array<{ id: string; tenantId: string; projectId: string; amountMicros: string; createdAt: string }>;
const rt = await startRuntime(loadConfig(), { http: false, worker: false });
const queue: Reservation[] = input.map((r) => ({ ...r, amountMicros: BigInt(r.amountMicros), createdAt: new Date(r.createdAt) }));

async function lane(): Promise<void> {
  for (let r = queue.shift(); r; r = queue.shift()) {
    await settleCall(
      rt.services,
      settlement({ tenantId: r.tenantId, projectId: r.projectId }, r),
      {
        extra: async (tx) => {
          await sql`select pg_sleep(0.1)`.execute(tx);
        },
      },
    );
    process.stdout.write(`settled ${r.id}\n`);
  }
}
await Promise.all([lane(), lane(), lane(), lane()]);
process.stdout.write('done\n');
await rt.close();

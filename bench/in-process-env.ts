// The configuration of a Switchboard run inside a benchmark process: the given database and data
// directory, a free port on loopback, no logs, fresh secrets (unless the ledger's is given, to
// verify chains later), a rate limit that never refuses, and every provider at the simulator.
import { randomBytes } from 'node:crypto';
import { PROVIDER_KEYS } from '../src/core/providers.ts';

export function inProcessEnv(o: { databaseUrl: string; dataDir: string; simUrl: string; ledgerSecret?: string }): Record<string, string> {
  const env: Record<string, string> = {
    DATABASE_URL: o.databaseUrl,
    DATA_DIR: o.dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LEDGER_SECRET: o.ledgerSecret ?? randomBytes(32).toString('hex'),
    RATE_LIMIT_CHAT_PER_MIN: '1000000000',
  };
  for (const p of PROVIDER_KEYS) {
    env[`${p.toUpperCase()}_BASE_URL`] = `${o.simUrl}/${p}`;
    env[`${p.toUpperCase()}_API_KEY`] = 'simulated';
  }
  return env;
}

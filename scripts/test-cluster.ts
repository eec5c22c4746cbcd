// `npm run test:cluster`: the cluster tests (test/cluster/*.cluster.ts) boot the D17 topology
// (HAProxy, replicas, workers, their own PostgreSQL and Redis) from the Debian packages, so they
// are not part of `npm test`; `.ci/run` runs both. They need no DATABASE_URL or REDIS_URL: the
// cluster starts its own on ports from CLUSTER_TEST_PORT (default 42100) upwards.
//   npm run test:cluster [-- <substring of a test name>]
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { missingPackages } from './cluster/topology.ts';
import { buildServer } from './build-server.ts';
import { buildWeb } from './build-web.ts';

const missing = missingPackages();
if (missing.length) {
  console.error(`The cluster tests need ${missing.map((m) => m.what).join(', ')}: apt-get install ${missing.map((m) => m.pkg).join(' ')}`);
  process.exit(1);
}
// The replicas run the bundle, as `npm run serve` does.
await buildServer();
await buildWeb({ quiet: true });

const dir = join('test', 'cluster');
const files = readdirSync(dir).filter((f) => f.endsWith('.cluster.ts')).map((f) => join(dir, f)).sort();
const only = process.argv[2];
const args = ['--import', 'tsx', '--test', '--test-force-exit', '--test-concurrency=1', '--test-reporter=spec', ...(only ? ['--test-name-pattern', only] : []), ...files];
const child = spawn(process.execPath, args, { stdio: 'inherit', env: process.env });
const code: number = await new Promise((res) => child.on('exit', (c, sig) => res(c ?? (sig ? 1 : 0))));
process.exit(code);

// `npm test`: runs every *.test.ts with node's test runner. Tests need a real PostgreSQL: with
// DATABASE_URL set (CI: the machine's server) each test file makes its own database on it;
// without it (a fresh machine) one throw-away embedded PostgreSQL is started for the run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { buildWeb } from './build-web.ts';

function findTests(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) findTests(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = ['src', 'test', 'web']
  .flatMap((d) => findTests(d))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

// The browser tests and the server's web routes need the built app: build it once, when stale.
await buildWeb({ quiet: true });

const env = { ...process.env };
let stop: (() => Promise<void>) | null = null;
let tmp: string | null = null;
if (!env.DATABASE_URL) {
  tmp = mkdtempSync(join(tmpdir(), 'sb-test-pg-'));
  const pg = await startEmbeddedPostgres({ dataDir: tmp, persistent: false, database: 'switchboard_test' });
  env.DATABASE_URL = pg.url;
  stop = pg.stop;
  console.log(`# embedded PostgreSQL for this run at ${pg.url.replace(/:[^:@/]+@/, ':***@')}`);
}

const concurrency = env.TEST_CONCURRENCY ?? '2';
// --test-force-exit: a test file's process ends once its tests and after-hooks are done, even if a
// timer of a library or of ours is still pending. Under heavy load some files' processes stayed
// alive on four pending timers with every server and connection closed, and the runner waited on
// them for ever (the leak is still to be found; runtime shutdown steps now name themselves when
// they hang). A failing or unfinished test still fails the run.
// Each test process is handed Layer 1's weights table as the runtime's process is (the core does
// no I/O, so its own tests cannot read it): src/infra/routing-weights.ts, imported first.
const weightsTable = new URL('../src/infra/routing-weights.ts', import.meta.url).href;
const child = spawn(process.execPath, ['--import', 'tsx', '--import', weightsTable, '--test', '--test-force-exit', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  env,
});
const code: number = await new Promise((res) => child.on('exit', (c, sig) => res(c ?? (sig ? 1 : 0))));
if (stop) await stop().catch(() => {});
if (tmp) rmSync(tmp, { recursive: true, force: true });
process.exit(code);

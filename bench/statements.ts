// What PostgreSQL does for one call: Switchboard runs in this process on a throw-away embedded
// PostgreSQL against an in-process simulator, calls arrive one at a time over HTTP, and every
// statement any pooled client sends is counted and timed (Node-side: send to answer). Prints, per
// call, how many times each statement ran and its mean time, the process's CPU and PostgreSQL's
// CPU per call, and the settlement paths taken. With STATEMENTS_EXPLAIN=<statement name> the
// named statement is also run under EXPLAIN ANALYZE (in a transaction rolled back before the real
// one runs) every 100th time, and its execution and planning times printed (STATEMENTS_PLAN=1: the
// whole plan with per-node times). A diagnostic, not part
// of `npm run bench`:
//
//   node --import tsx bench/statements.ts            # 1,000 calls, serve only
//   STATEMENTS_CALLS=3000 STATEMENTS_WORKER=1 STATEMENTS_EXPLAIN=sb_settle_fast node --import tsx bench/statements.ts
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/app/runtime.ts';
import { ensureDemo } from '../src/app/demo.ts';
import { startSim } from '../src/sim/index.ts';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { inProcessEnv } from './in-process-env.ts';
import { JSON_BODY } from './load.ts';
import { treeCpuUs } from './proc.ts';

const CALLS = Number(process.env.STATEMENTS_CALLS ?? 1000);
const EXPLAIN = process.env.STATEMENTS_EXPLAIN ?? '';
/** STATEMENTS_PLAN=1: print the whole plan with per-node timings (instrumentation slows each node). */
const PLAN = process.env.STATEMENTS_PLAN === '1';

type QueryConfig = { name?: string; text?: string; values?: unknown[] };
type Query = (this: pg.Client, cfg: string | QueryConfig, values?: unknown, cb?: unknown) => unknown;

const seen = new Map<string, { n: number; us: number }>();
let recording = false;
let explained = 0;
const proto = pg.Client.prototype as unknown as { query: Query };
const query = proto.query;
proto.query = function (this: pg.Client, cfg, values, cb) {
  const label = (typeof cfg === 'string' ? cfg : (cfg.name ?? cfg.text ?? '?')).replace(/\s+/g, ' ').trim().slice(0, 100);
  if (recording && typeof cfg === 'object' && cfg.name === EXPLAIN && explained++ % 100 === 0) {
    // EXPLAIN ANALYZE runs the statement: in a transaction that is rolled back, then the real one.
    return (async () => {
      await query.call(this, 'begin');
      const options = PLAN ? 'analyze, buffers, wal' : 'analyze, timing off, summary on';
      const plan = (await query.call(this, { text: `explain (${options}) ${cfg.text}`, values: cfg.values })) as { rows: Array<Record<string, string>> };
      await query.call(this, 'rollback');
      const lines = plan.rows.map((r) => r['QUERY PLAN']);
      if (PLAN) console.log(lines.join('\n'));
      else console.log(`  EXPLAIN ${cfg.name}: ${lines.filter((l) => /Planning Time|Execution Time/.test(l)).join(', ')}`);
      return query.call(this, cfg, values, cb);
    })();
  }
  const t0 = process.hrtime.bigint();
  const r = query.call(this, cfg, values, cb) as Promise<unknown> | undefined;
  if (recording && r && typeof r.then === 'function') {
    r.then(
      () => {
        const e = seen.get(label) ?? { n: 0, us: 0 };
        e.n += 1;
        e.us += Number(process.hrtime.bigint() - t0) / 1000;
        seen.set(label, e);
      },
      () => {},
    );
  }
  return r;
};

const dataDir = mkdtempSync(join(tmpdir(), 'sb-statements-'));
chmodSync(dataDir, 0o755);
const db = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), persistent: false, database: 'switchboard' });
const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const sim = await startSim({ port: 0, host: '127.0.0.1' });
const env = inProcessEnv({ databaseUrl: db.url, dataDir, simUrl: sim.url });
const rt = await startRuntime(loadConfig(env), { http: true, worker: process.env.STATEMENTS_WORKER === '1' });
try {
  const demo = await ensureDemo(rt.services);
  const client = new Pool(rt.url, { connections: 1, pipelining: 1 });
  const one = async () => {
    const res = await client.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.key}` }, body: JSON_BODY });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  };
  for (let i = 0; i < 300; i++) await one(); // warm-up: leases, caches, the project live
  const paths0 = { ...rt.services.settler.stats };
  const pg0 = treeCpuUs(postmaster);
  const cpu0 = process.cpuUsage();
  const lat: number[] = [];
  recording = true;
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const a = performance.now();
    await one();
    lat.push(performance.now() - a);
  }
  const elapsed = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 250)); // background work the last calls kicked
  recording = false;
  const cpu = process.cpuUsage(cpu0);
  const pgUs = treeCpuUs(postmaster) - pg0;
  const st = rt.services.settler.stats;
  lat.sort((x, y) => x - y);
  console.log(
    `${CALLS} calls, one at a time: mean ${(elapsed / CALLS).toFixed(3)} ms, p50 ${lat[CALLS >> 1].toFixed(3)} ms, p99 ${lat[Math.floor(CALLS * 0.99)].toFixed(3)} ms; ` +
      `CPU per call: this process (Switchboard, simulator, client) ${((cpu.user + cpu.system) / CALLS).toFixed(0)} µs, PostgreSQL ${(pgUs / CALLS).toFixed(0)} µs`,
  );
  console.log(`settlement transactions: fast ${st.fast - paths0.fast}, locking ${st.locked - paths0.locked}, fell back ${st.fellBack - paths0.fellBack}`);
  console.log('per call | mean µs | statement');
  for (const [k, v] of [...seen].sort((a, b) => b[1].n - a[1].n)) console.log(`${(v.n / CALLS).toFixed(3).padStart(8)} | ${(v.us / v.n).toFixed(0).padStart(7)} | ${k}`);
  await client.close();
} finally {
  await rt.close();
  await sim.close();
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

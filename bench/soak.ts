// `npm run soak`: the D17 cluster (scripts/cluster/topology.ts, as `npm run cluster` boots it) under
// steady mixed load for a bounded time, watching for what only a long run shows: memory, file
// descriptors or handles that keep growing, an event loop that slows down, latency that drifts,
// errors that start appearing. Issue 24 item 7; docs/soak.md has a 30-minute run and its reading.
//
//   npm run soak                          30 minutes at 4 calls/s
//   npm run soak -- --minutes 5           a shorter run (or SOAK_MINUTES=5)
//
// Flags (or the environment variable in brackets):
//   --minutes N   how long the load runs (SOAK_MINUTES, 30)
//   --rate R      calls started per second, open loop: a slow answer does not slow the load (SOAK_RATE, 4)
//   --tenants N   tenants, each signed up, paid and keyed through the API (SOAK_TENANTS, 4)
//   --sample S    seconds between samples of every process (SOAK_SAMPLE_S, 10)
//   --port P      first port of the cluster's range (SOAK_PORT, 47300)
//   --pg-shared-buffers SIZE  PostgreSQL's shared_buffers (SOAK_PG_SHARED_BUFFERS, 16MB): small, so
//                 the run's data outgrows it and the shared part of PostgreSQL's memory reaches its cap
//   --out FILE    where the markdown report goes, besides bench/results/soak-<time>.md (SOAK_OUT)
//
// The load: calls through HAProxy with the official SDKs, cycling the three shapes (chat
// completions, messages, generate), plain and streamed, over the tenants. The simulated upstream is
// paced (plain answers after 150 ms, stream events 25 ms apart) so calls overlap as real ones do.
// At most 200 calls are in flight; a call that would exceed that is counted as "not started"
// rather than queued (the machine, not the service, would be the bottleneck).
//
// What is sampled: for every process its RSS and open file descriptors (/proc); for each `serve`
// replica and `worker`, through bench/soak-probe.mjs loaded with NODE_OPTIONS, its V8 heap,
// event-loop delay (p50/p99/max over the interval) and utilisation, and active handles;
// PostgreSQL's memory as the proportional set size (PSS: shared buffers counted once) summed
// over the postmaster and its backends, split (/proc/<pid>/smaps_rollup) into private anonymous
// memory (Pss_Anon: each backend's own caches and work memory) and shared memory (Pss_Shmem: the
// shared_buffers pages touched so far and the other shared structures, which stop at the segment's
// size, `shared_memory_size`), the buffers in use (pg_buffercache), its connection count and
// database size; Redis's
// used_memory and key count. Per minute: calls, errors by kind, p50/p99 of plain and of streamed
// calls. At the end: the money invariants of the cluster test (every ledger verifies, balances
// equal ledgers, no reservation left, nothing charged twice).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCluster, type Cluster } from '../scripts/cluster/topology.ts';
import { buildServer } from '../scripts/build-server.ts';
import { buildWeb } from '../scripts/build-web.ts';
import { apiCall, call, moneyState, newTenant, SHAPES, verifyLedger, waitUntil, type Outcome, type Tenant } from '../test/cluster/client.ts';
import { judge, renderReport, type CallRecord, type ProcSample, type Sample } from './soak-report.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(flag: string, env: string, dflt: number, min: number, max: number): number {
  const i = process.argv.indexOf(flag);
  const raw = i >= 0 ? process.argv[i + 1] : process.env[env];
  if (raw === undefined || raw === '') return dflt;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < min || v > max) {
    console.error(`${flag} (${env}) must be a number from ${min} to ${max} (got '${raw}')`);
    process.exit(78);
  }
  return v;
}
const MINUTES = arg('--minutes', 'SOAK_MINUTES', 30, 0.5, 24 * 60);
const RATE = arg('--rate', 'SOAK_RATE', 4, 0.1, 200);
const TENANTS = arg('--tenants', 'SOAK_TENANTS', 4, 1, 100);
const SAMPLE_S = arg('--sample', 'SOAK_SAMPLE_S', 10, 1, 300);
const PORT = arg('--port', 'SOAK_PORT', 47300, 1024, 65000);
const PG_SHARED_BUFFERS = (() => {
  const i = process.argv.indexOf('--pg-shared-buffers');
  const raw = (i >= 0 ? process.argv[i + 1] : process.env.SOAK_PG_SHARED_BUFFERS) || '16MB';
  if (!/^\d{1,6}(kB|MB|GB)$/.test(raw)) {
    console.error(`--pg-shared-buffers (SOAK_PG_SHARED_BUFFERS) must be a size such as 16MB or 128MB (got '${raw}')`);
    process.exit(78);
  }
  return raw;
})();
const OUT = (() => {
  const i = process.argv.indexOf('--out');
  return i >= 0 ? process.argv[i + 1] : process.env.SOAK_OUT;
})();
const MAX_IN_FLIGHT = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const say = (l: string) => console.log(`[soak ${new Date().toISOString().slice(11, 19)}] ${l}`);

// ---- /proc readers --------------------------------------------------------------------------
function statusKb(pid: number, field: string): number {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+)`, 'm'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}
function pssKb(pid: number): number {
  try {
    const m = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m);
    return m ? Number(m[1]) : statusKb(pid, 'VmRSS');
  } catch {
    return statusKb(pid, 'VmRSS');
  }
}
/** /proc/<pid>/smaps_rollup as kB per field (empty when the process ended or cannot be read). */
function smapsKb(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const m of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').matchAll(/^(\w+):\s+(\d+) kB/gm)) out[m[1]!] = Number(m[2]);
  } catch {
    /* ended meanwhile */
  }
  return out;
}
function fdCount(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return -1;
  }
}
function childrenOf(ppid: number): number[] {
  const out: number[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      // pid (comm) state ppid …: the comm may hold spaces, so read after its closing parenthesis.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[1]) === ppid) out.push(Number(d));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** What the probe in a replica or worker wrote since the last read. */
function probeReader(file: string) {
  let offset = 0;
  return (): Array<Record<string, any>> => {
    if (!existsSync(file)) return [];
    const buf = readFileSync(file);
    const text = buf.subarray(offset).toString('utf8');
    const end = text.lastIndexOf('\n');
    if (end < 0) return [];
    offset += Buffer.byteLength(text.slice(0, end + 1));
    return text
      .slice(0, end)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
  };
}

// ---- the run --------------------------------------------------------------------------------
await buildServer();
await buildWeb({ quiet: true });

const dir = mkdtempSync(join(tmpdir(), 'sb-soak-'));
const probe = join(ROOT, 'bench', 'soak-probe.mjs');
say(`cluster on ports ${PORT}… (working folder ${dir})`);
const cluster: Cluster = await startCluster({
  basePort: PORT,
  dir,
  replicas: 2,
  workers: 1,
  pgSharedBuffers: PG_SHARED_BUFFERS,
  env: {
    LOG_LEVEL: 'warn',
    NODE_OPTIONS: `--import ${probe}`,
    SOAK_PROBE_MS: String(SAMPLE_S * 1000),
    // The soak measures the service over time, not its limits: no tenant should reach one.
    RATE_LIMIT_CHAT_PER_MIN: '100000',
    RATE_LIMIT_MESSAGES_PER_MIN: '100000',
    RATE_LIMIT_GENERATE_PER_MIN: '100000',
    RATE_LIMIT_LOGIN_PER_MIN: '100000',
  },
  log: (l) => say(l),
});
let stopped = false;
const stopCluster = async () => {
  if (stopped) return;
  stopped = true;
  await cluster.stop();
};
process.once('SIGINT', () => void stopCluster().then(() => process.exit(130)));

const db = new pg.Pool({ connectionString: cluster.databaseUrl, max: 2 });
db.on('error', () => {});

// Pace the simulated upstream: answers take a while, streams last ~1 s.
await fetch(`${cluster.simUrl}/__sim/faults`, { method: 'DELETE' });
const paced = await fetch(`${cluster.simUrl}/__sim/faults`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify([
    { stream: false, delayMs: 150 },
    { stream: true, chunkDelayMs: 25 },
  ]),
});
if (paced.status !== 201) throw new Error(`the simulator refused its pacing rules: ${paced.status}`);

say(`${TENANTS} tenants…`);
const tenants: Tenant[] = [];
for (let i = 0; i < TENANTS; i++) tenants.push(await newTenant(cluster.url, db, `soak${i}`, 500));

// Processes to watch.
const named = [...cluster.replicas, ...cluster.workers, cluster.sim, cluster.haproxy, cluster.redis];
const probes = new Map([...cluster.replicas, ...cluster.workers].map((p) => [p.name, probeReader(join(dir, p.name, 'soak-probe.jsonl'))]));
const postmasterPid = (): number | null => {
  try {
    return Number(readFileSync(join(cluster.postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
};
// The cap of PostgreSQL's shared memory: the whole segment (shared_buffers plus the other shared
// structures), and shared_buffers itself; pg_buffercache shows how many buffers hold a page.
const pgCaps = await (async () => {
  const r = await db.query(`select current_setting('shared_buffers') as sb, current_setting('shared_memory_size') as shm, current_setting('block_size')::int as bs`);
  await db.query('create extension if not exists pg_buffercache').catch((e) => say(`pg_buffercache unavailable (${(e as Error).message}): buffers in use not sampled`));
  return { sharedBuffers: String(r.rows[0].sb), segment: String(r.rows[0].shm), blockSize: Number(r.rows[0].bs) };
})();
say(`PostgreSQL shared_buffers ${pgCaps.sharedBuffers}, shared memory segment ${pgCaps.segment}`);
const { Redis } = await import('ioredis');
const redis = new Redis(cluster.redisUrl, { maxRetriesPerRequest: 1 });
redis.on('error', () => {});

const t0 = Date.now();
const samples: Sample[] = [];
async function sample(): Promise<void> {
  const procs: ProcSample[] = [];
  for (const p of named) {
    const pid = p.child?.pid;
    if (!pid || !p.running) continue;
    const s: ProcSample = { name: p.name, rssMb: statusKb(pid, 'VmRSS') / 1024, fds: fdCount(pid) };
    const lines = probes.get(p.name)?.() ?? [];
    if (lines.length) {
      const last = lines.at(-1)!;
      s.heapMb = last.heapUsed / 1048576;
      s.handles = Object.values(last.handles as Record<string, number>).reduce((a, b) => a + b, 0);
      s.handleTypes = last.handles;
      s.lagP50 = Math.max(...lines.map((l) => l.lagP50));
      s.lagP99 = Math.max(...lines.map((l) => l.lagP99));
      s.lagMax = Math.max(...lines.map((l) => l.lagMax));
      s.elu = last.elu;
    }
    procs.push(s);
  }
  const pm = postmasterPid();
  if (pm) {
    const all = [pm, ...childrenOf(pm)];
    const sm = all.map(smapsKb);
    const sum = (f: string) => sm.reduce((a, x) => a + (x[f] ?? 0), 0) / 1024;
    procs.push({
      name: 'postgres',
      rssMb: all.reduce((a, pid) => a + pssKb(pid), 0) / 1024,
      fds: all.reduce((a, pid) => a + Math.max(0, fdCount(pid)), 0),
      processes: all.length,
      pgPrivateMb: sum('Pss_Anon'),
      pgSharedMb: sum('Pss_Shmem') + sum('Shared_Hugetlb') + sum('Private_Hugetlb'),
      pgPrivateMaxMb: Math.max(0, ...sm.map((x) => (x.Pss_Anon ?? 0) / 1024)),
    });
  }
  const extra: Sample['extra'] = {};
  try {
    const r = await db.query(`select pg_database_size(current_database())::bigint as size, (select count(*) from pg_stat_activity where datname = current_database())::int as conns`);
    extra.pgDbMb = Number(r.rows[0].size) / 1048576;
    extra.pgConns = r.rows[0].conns;
  } catch {
    /* not this time */
  }
  try {
    const r = await db.query(`select count(*) filter (where relfilenode is not null)::int as used, count(*)::int as total from pg_buffercache`);
    extra.pgBuffersUsedMb = (r.rows[0].used * pgCaps.blockSize) / 1048576;
  } catch {
    /* no pg_buffercache */
  }
  try {
    const info = await redis.info('memory');
    extra.redisMb = Number(info.match(/^used_memory:(\d+)/m)?.[1] ?? 0) / 1048576;
    extra.redisKeys = await redis.dbsize();
  } catch {
    /* not this time */
  }
  samples.push({ t: Date.now() - t0, load1: loadavg()[0]!, procs, extra });
  // The raw series so far, so a run that dies late still leaves its data (renderReport can read it).
  writeFileSync(join(dir, '..', `${dir.split('/').pop()}-samples.json`), JSON.stringify({ samples, records }));
}

// Open-loop load: a call is started every 1/RATE s whatever the previous ones are doing.
const records: CallRecord[] = [];
let inFlight = 0;
let notStarted = 0;
let seq = 0;
const pending = new Set<Promise<void>>();
const endAt = t0 + MINUTES * 60_000;
const words = ['ledger', 'wallet', 'route', 'stream', 'tenant', 'latency', 'replica', 'quota', 'token', 'answer'];
say(`load: ${RATE} calls/s for ${MINUTES} min, ${SHAPES.length} shapes plain and streamed, ${TENANTS} tenants; sampling every ${SAMPLE_S} s`);
await sample();
let nextSample = t0 + SAMPLE_S * 1000;
let lastProgress = t0;
const gap = 1000 / RATE;
let next = t0;
while (Date.now() < endAt) {
  const now = Date.now();
  if (now >= nextSample) {
    nextSample += SAMPLE_S * 1000;
    await sample();
  }
  if (now - lastProgress >= 60_000) {
    lastProgress = now;
    const recent = records.filter((r) => r.end > now - t0 - 60_000);
    say(`${Math.round((now - t0) / 60_000)} min: ${recent.length} calls in the last minute, ${recent.filter((r) => !r.ok).length} errors, ${inFlight} in flight, load ${loadavg()[0]!.toFixed(1)}`);
  }
  if (now < next) {
    await sleep(Math.min(next - now, 50));
    continue;
  }
  next += gap;
  if (inFlight >= MAX_IN_FLIGHT) {
    notStarted++;
    continue;
  }
  const i = seq++;
  const shape = SHAPES[i % 3]!;
  const stream = Math.floor(i / 3) % 2 === 1;
  const tenant = tenants[i % tenants.length]!;
  const n = 4 + (i % 17);
  const prompt = `Soak call ${i}: write ${n} words about ${Array.from({ length: 3 }, (_, k) => words[(i + k * 7) % words.length]).join(', ')}.`;
  inFlight++;
  const start = Date.now();
  const p = call(cluster.url, tenant.key, shape, stream, prompt).then((o: Outcome) => {
    inFlight--;
    records.push({ start: start - t0, end: Date.now() - t0, ms: o.ms, shape, stream, ok: o.ok && o.complete, error: o.ok ? (o.complete ? undefined : 'incomplete answer') : `${o.status ?? 'no status'} ${String((o.error as Error)?.message ?? o.error).slice(0, 80)}` });
  });
  pending.add(p);
  void p.finally(() => pending.delete(p));
}
say(`load stopped; waiting for ${pending.size} calls in flight`);
await Promise.all(pending);
await sample();

// The money, as the cluster test checks it.
const ids = tenants.map((t) => t.tenantId);
let money: string[] = [];
try {
  await waitUntil('every reservation settled', async () => (await moneyState(db, ids)).reservedRows === 0, 60_000);
} catch (e) {
  money.push(String((e as Error).message));
}
try {
  const m = await moneyState(db, ids);
  const verified: boolean[] = [];
  for (const t of tenants) {
    // The sign-up's access token has long expired (15 min): sign in again, as the owner would.
    const r = await apiCall('POST', `${cluster.url}/api/auth/login`, { email: t.email, password: 'correct horse battery staple' });
    if (r.status !== 200) throw new Error(`sign-in for the ledger check: ${r.status} ${JSON.stringify(r.body)}`);
    verified.push((await verifyLedger(cluster.url, { ...t, accessToken: r.body.data.tokens.accessToken })).verified);
  }
  const answered = records.filter((r) => r.ok).length;
  const charged = [...m.usage.values()].reduce((a, b) => a + b, 0);
  money = [
    ...money,
    `ledgers verified: ${verified.filter(Boolean).length} of ${tenants.length}`,
    `balances equal to their ledger: ${tenants.length - m.unbalanced.length} of ${tenants.length}${m.unbalanced.length ? ` (${m.unbalanced.join('; ')})` : ''}`,
    `reservations still held: ${m.reservedRows}`,
    `call ids charged twice: ${m.chargedTwice.length}`,
    `whole answers received: ${answered}; AI_USAGE entries: ${charged}${charged < answered ? ' (FEWER than answers: something went unbilled)' : ''}`,
  ];
} catch (e) {
  // The report is still written: the series are what the run was for.
  money.push(`the money check failed: ${(e as Error).message}`);
}

const lines = readdirSync(dir)
  .filter((f) => f.endsWith('.log'))
  .map((f) => ({ f, errors: readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => /"level":(50|60)|\bERROR\b|FATAL|Unhandled|uncaught/i.test(l)) }))
  .filter((x) => x.errors.length)
  // Distinct messages with their counts (PostgreSQL's timestamp and pid, pino's time and pid dropped).
  .map((x) => {
    const counts = new Map<string, number>();
    for (const l of x.errors) {
      const msg = l.replace(/^\d{4}-\d\d-\d\d [\d:.]+ \w+ \[\d+\] /, '').replace(/"(time|pid|hostname|reqId)":[^,}]*,?/g, '');
      counts.set(msg, (counts.get(msg) ?? 0) + 1);
    }
    return { f: x.f, errors: x.errors, first: [...counts].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([m, n]) => `${n} × ${m}`) };
  });

await redis.quit().catch(() => {});
await db.end().catch(() => {});
await stopCluster();

const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
const report = renderReport({
  started: new Date(t0).toISOString(),
  commit,
  minutes: MINUTES,
  rate: RATE,
  tenants: TENANTS,
  sampleS: SAMPLE_S,
  pg: pgCaps,
  cpus: cpus().length,
  records,
  notStarted,
  samples,
  money,
  logErrors: lines.map((x) => ({ file: x.f, count: x.errors.length, first: x.first })),
  verdicts: judge(samples),
});
mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
const file = join(ROOT, 'bench', 'results', `soak-${new Date(t0).toISOString().replace(/[:.]/g, '-')}.md`);
writeFileSync(file, report);
if (OUT) writeFileSync(resolve(OUT), report);
console.log(report);
say(`report: ${file}${OUT ? ` and ${resolve(OUT)}` : ''}`);
rmSync(dir, { recursive: true, force: true });
process.exit(0);

// The D17 topology on loopback, from Debian packages and the repository's own commands:
//
//   client ──► HAProxy :base ──► serve replica × N  (node dist/main.js serve)
//                                     │
//              worker × M (node dist/main.js worker)     sim (node dist/main.js sim)
//                                     │
//                     PostgreSQL :base+2 (one primary)   Redis :base+3
//
// `npm run cluster` (scripts/cluster.ts) and `npm run test:cluster` (test/cluster/) boot it with
// this one function, so the test exercises what a user runs. Every process is a child of the
// caller; each can be stopped, killed and started again (the fault tests do exactly that).
// Ports: HAProxy base, its stats page base+1, PostgreSQL base+2, Redis base+3, the simulator
// base+4, replica i base+10+i, and nothing else.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { errorType as messagesErrorType } from '../../src/wire/anthropic/errors.ts';
import { rpcStatus } from '../../src/wire/gemini/errors.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'main.js');

/** What the topology needs from Debian, and the package that provides it. */
export function missingPackages(): Array<{ what: string; pkg: string }> {
  const missing: Array<{ what: string; pkg: string }> = [];
  if (!which('haproxy')) missing.push({ what: 'haproxy', pkg: 'haproxy' });
  if (!pgBinDir()) missing.push({ what: 'PostgreSQL server (initdb, pg_ctl)', pkg: 'postgresql' });
  if (!which('redis-server')) missing.push({ what: 'redis-server', pkg: 'redis-server' });
  return missing;
}

function which(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    if (dir && existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

/** The newest /usr/lib/postgresql/<major>/bin that has initdb and pg_ctl. */
export function pgBinDir(): string | null {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return null;
  const majors = readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const m of majors) {
    const bin = join(base, m, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

export interface ClusterOptions {
  /** First port of the range the cluster uses (see the header). */
  basePort: number;
  /** Working folder: configuration, logs, each process's DATA_DIR (and PostgreSQL's data unless root). */
  dir: string;
  replicas?: number;
  workers?: number;
  /** Extra environment for every serve replica and worker (rate limits, timeouts, log level). */
  env?: Record<string, string>;
  /** PostgreSQL without fsync: for throw-away test clusters only. */
  fastPostgres?: boolean;
  /** PostgreSQL's shared_buffers (default 128MB); the soak runs a small one so its data outgrows it. */
  pgSharedBuffers?: string;
  /** Lines of progress. */
  log?: (line: string) => void;
}

export interface Proc {
  name: string;
  port: number | null;
  child: ChildProcess | null;
  /** True while the process runs. */
  readonly running: boolean;
  start(): Promise<void>;
  /** Send a signal and wait for the process to end (SIGKILL after `graceMs`). */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<number | null>;
  /** Resolves when the running process exits, with its code. */
  exited(): Promise<number | null>;
  /** What the process printed (this run and earlier ones). */
  output(): string;
}

export interface Cluster {
  url: string;
  statsUrl: string;
  databaseUrl: string;
  redisUrl: string;
  simUrl: string;
  /** The secrets every replica shares (a multi-replica deployment must set them). */
  secrets: { JWT_SECRET: string; LEDGER_SECRET: string };
  replicas: Proc[];
  workers: Proc[];
  sim: Proc;
  haproxy: Proc;
  /** PostgreSQL's data folder (its postmaster.pid names the server process). */
  postgres: { stop(): Promise<void>; start(): Promise<void>; readonly running: boolean; readonly dataDir: string };
  redis: Proc;
  /** Environment of a replica (to run one-off commands such as `sweep` against the cluster). */
  envFor(extra?: Record<string, string>): NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const pgUid = () => Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
const pgGid = () => Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number, proc?: Proc): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (proc && !proc.running) throw new Error(`${proc.name} exited while waiting for ${what}:\n${proc.output().slice(-2000)}`);
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${proc ? `:\n${proc.output().slice(-2000)}` : ''}`);
    await sleep(100);
  }
}

async function httpOk(url: string): Promise<boolean> {
  const r = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await r.arrayBuffer();
  return r.ok;
}

/** A child process that can be started again after it stopped or was killed. */
function proc(name: string, port: number | null, logFile: string, spawnIt: () => ChildProcess, ready: (p: Proc) => Promise<void>): Proc {
  let child: ChildProcess | null = null;
  let exit: Promise<number | null> = Promise.resolve(null);
  let out = '';
  let log: WriteStream | null = null;
  const p: Proc = {
    name,
    port,
    get child() {
      return child;
    },
    get running() {
      return child !== null && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      if (p.running) return;
      log ??= createWriteStream(logFile, { flags: 'a' });
      const c = spawnIt();
      child = c;
      exit = new Promise((r) => c.once('exit', (code, sig) => r(code ?? (sig ? 128 : null))));
      const take = (d: Buffer) => {
        out += d.toString();
        if (out.length > 200_000) out = out.slice(-100_000);
        log!.write(d);
      };
      c.stdout?.on('data', take);
      c.stderr?.on('data', take);
      await ready(p);
    },
    async stop(signal = 'SIGTERM', graceMs = 30_000) {
      if (!p.running) return child?.exitCode ?? null;
      const c = child!;
      c.kill(signal);
      const t = setTimeout(() => c.kill('SIGKILL'), graceMs);
      const code = await exit;
      clearTimeout(t);
      return code;
    },
    exited: () => exit,
    output: () => out,
  };
  return p;
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  const missing = missingPackages();
  if (missing.length) {
    throw new Error(`missing: ${missing.map((m) => m.what).join(', ')}. Install with: apt-get install ${missing.map((m) => m.pkg).join(' ')}`);
  }
  if (!existsSync(MAIN)) throw new Error('dist/main.js is missing: run `npm run build`');
  const say = o.log ?? (() => {});
  const dir = resolve(o.dir);
  mkdirSync(dir, { recursive: true });
  const port = { haproxy: o.basePort, stats: o.basePort + 1, pg: o.basePort + 2, redis: o.basePort + 3, sim: o.basePort + 4, replica: (i: number) => o.basePort + 10 + i };
  const nReplicas = o.replicas ?? 2;
  const nWorkers = o.workers ?? 1;
  const started: Proc[] = [];
  const asRoot = process.getuid?.() === 0;

  // Secrets shared by every replica, kept in the working folder (mode 0600).
  const secretsFile = join(dir, 'secrets.json');
  if (!existsSync(secretsFile)) {
    writeFileSync(secretsFile, JSON.stringify({ JWT_SECRET: randomBytes(32).toString('hex'), LEDGER_SECRET: randomBytes(32).toString('hex'), PG_PASSWORD: randomBytes(18).toString('base64url'), REDIS_PASSWORD: randomBytes(18).toString('base64url') }), { mode: 0o600 });
  }
  const kept = JSON.parse(readFileSync(secretsFile, 'utf8')) as { JWT_SECRET: string; LEDGER_SECRET: string; LEDGER_SIGNING_KEY?: string; PG_PASSWORD: string; REDIS_PASSWORD: string };
  // One Ed25519 ledger signing key for every replica and worker (D17): each would otherwise make
  // its own in its data folder, and /.well-known/switchboard-ledger-key would differ by replica.
  if (!kept.LEDGER_SIGNING_KEY) {
    kept.LEDGER_SIGNING_KEY = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    writeFileSync(secretsFile, JSON.stringify(kept), { mode: 0o600 });
  }

  // PostgreSQL: our own instance (initdb + pg_ctl), so it can be stopped without touching anyone
  // else's. As root it runs as the postgres OS user, with its data where that user can reach it.
  const bin = pgBinDir()!;
  // As root, the postgres OS user must be able to reach the data folder: the working folder
  // when it can (its own folders are made 0755), else one under /var/lib/switchboard/cluster.
  if (asRoot) chmodSync(dir, 0o755);
  const reachable = !asRoot || spawnSync('runuser', ['-u', 'postgres', '--', 'test', '-x', dir], { cwd: '/' }).status === 0;
  const pgData = reachable ? join(dir, 'pg') : join('/var/lib/switchboard/cluster', `${port.pg}-${Buffer.from(dir).toString('base64url').slice(-24)}`);
  const asPg = (cmd: string, args: string[]) => (asRoot ? { cmd: 'runuser', args: ['-u', 'postgres', '--', cmd, ...args] } : { cmd, args });
  const pgRun = (cmd: string, args: string[]) => {
    const c = asPg(join(bin, cmd), args);
    const r = spawnSync(c.cmd, c.args, { encoding: 'utf8', cwd: '/' });
    if (r.status !== 0) throw new Error(`${cmd} failed (${r.status}): ${r.stderr || r.stdout}`);
  };
  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    say(`initdb ${pgData}`);
    rmSync(pgData, { recursive: true, force: true });
    // Each folder on the way is created 0755 (the postgres user must pass through them).
    for (const d of [join(pgData, '..', '..'), join(pgData, '..')]) {
      if (!existsSync(d)) {
        mkdirSync(d, { recursive: true, mode: 0o755 });
        chmodSync(d, 0o755);
      }
    }
    mkdirSync(pgData, { mode: 0o700 });
    const pw = `${pgData}.pw`;
    writeFileSync(pw, `${kept.PG_PASSWORD}\n`, { mode: 0o600 });
    if (asRoot) {
      chownSync(pgData, pgUid(), pgGid());
      chownSync(pw, pgUid(), pgGid());
    }
    try {
      pgRun('initdb', ['-D', pgData, '-U', 'postgres', '--auth-host=scram-sha-256', '--auth-local=peer', `--pwfile=${pw}`, '-E', 'UTF8', '--locale=C', '--no-sync']);
    } finally {
      rmSync(pw, { force: true });
    }
  }
  const pgLog = reachable ? join(dir, 'postgres.log') : `${pgData}.log`;
  if (asRoot && !existsSync(pgLog)) {
    writeFileSync(pgLog, '');
    chownSync(pgLog, pgUid(), pgGid());
  }
  const pgOpts = [
    `-p ${port.pg}`,
    '-c listen_addresses=127.0.0.1',
    "-c unix_socket_directories=''",
    '-c max_connections=300',
    `-c shared_buffers=${o.pgSharedBuffers ?? '128MB'}`,
    ...(o.fastPostgres ? ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'] : []),
  ].join(' ');
  // pg_ctl run without blocking this process (a test keeps its clients going meanwhile).
  const pgCtl = (args: string[]) =>
    new Promise<void>((res, rej) => {
      const c = asPg(join(bin, 'pg_ctl'), args);
      const child = spawn(c.cmd, c.args, { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stdout.on('data', (d) => (err += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => (code === 0 ? res() : rej(new Error(`pg_ctl ${args.at(-1)} failed (${code}): ${err}`))));
    });
  let pgRunning = false;
  const postgres = {
    get running() {
      return pgRunning;
    },
    dataDir: pgData,
    async start() {
      await pgCtl(['-D', pgData, '-l', pgLog, '-o', pgOpts, '-w', '-t', '60', 'start']);
      pgRunning = true;
    },
    /** A fast shutdown: sessions are ended at once, as when the primary restarts. */
    async stop() {
      if (!pgRunning) return;
      await pgCtl(['-D', pgData, '-m', 'fast', '-w', '-t', '60', 'stop']);
      pgRunning = false;
    },
  };
  // A cluster left running by a previous run that was killed is stopped first.
  if (existsSync(join(pgData, 'postmaster.pid'))) {
    const c = asPg(join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'immediate', '-w', 'stop']);
    spawnSync(c.cmd, c.args, { cwd: '/' });
  }
  say(`PostgreSQL on 127.0.0.1:${port.pg}`);
  await postgres.start();
  const adminUrl = `postgres://postgres:${encodeURIComponent(kept.PG_PASSWORD)}@127.0.0.1:${port.pg}/postgres`;
  const databaseUrl = adminUrl.replace(/\/postgres$/, '/switchboard');
  {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    const has = await c.query(`select 1 from pg_database where datname = 'switchboard'`);
    if (has.rowCount === 0) await c.query('create database switchboard');
    await c.end();
  }

  // If this process ends without stop() (an error, Ctrl-C during start-up), nothing is left
  // behind: every child gets SIGTERM and PostgreSQL a fast shutdown, synchronously, on exit.
  const onExit = () => {
    for (const p of started) if (p.running) p.child!.kill('SIGTERM');
    if (pgRunning) {
      const c = asPg(join(bin, 'pg_ctl'), ['-D', pgData, '-m', 'fast', '-w', 'stop']);
      spawnSync(c.cmd, c.args, { cwd: '/' });
    }
  };
  process.on('exit', onExit);
  const stopAll = async () => {
    for (const p of [...started].reverse()) await p.stop('SIGTERM', 15_000).catch(() => {});
    await postgres.stop().catch(() => {});
    process.off('exit', onExit);
  };

  try {
    // Redis, on its own port, without persistence (rate-limit buckets and event streams only).
    const redisUrl = `redis://:${encodeURIComponent(kept.REDIS_PASSWORD)}@127.0.0.1:${port.redis}`;
    const redis = proc('redis', port.redis, join(dir, 'redis.log'), () =>
      spawn(which('redis-server')!, ['--port', String(port.redis), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--requirepass', kept.REDIS_PASSWORD, '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] }),
    async (p) => until('Redis to accept connections', async () => p.output().includes('Ready to accept connections'), 15_000, p),
    );
    say(`Redis on 127.0.0.1:${port.redis}`);
    await redis.start();
    started.push(redis);

    const node = (args: string[], env: NodeJS.ProcessEnv) => spawn(process.execPath, ['--max-old-space-size=1024', MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' };

    const sim = proc('sim', port.sim, join(dir, 'sim.log'), () => node(['sim'], { ...base, SIM_PORT: String(port.sim), HOST: '127.0.0.1' }), (p) =>
      until('the simulator', () => httpOk(`http://127.0.0.1:${port.sim}/health`), 30_000, p),
    );
    say(`simulated upstream on 127.0.0.1:${port.sim}`);
    await sim.start();
    started.push(sim);
    const simUrl = `http://127.0.0.1:${port.sim}`;

    const url = `http://127.0.0.1:${port.haproxy}`;
    const envFor = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
      ...base,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SIM_URL: simUrl,
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      // HAProxy connects from 127.0.0.1 and sets X-Forwarded-For (it drops any the client sent):
      // sign-in limits, sessions and the audit log see each client's own address.
      TRUST_PROXY: '127.0.0.1',
      JWT_SECRET: kept.JWT_SECRET,
      LEDGER_SECRET: kept.LEDGER_SECRET,
      LEDGER_SIGNING_KEY: kept.LEDGER_SIGNING_KEY,
      ...o.env,
      ...extra,
    });

    // Migrations once, before any replica (each would otherwise race to apply them).
    say('migrations');
    const m = spawnSync(process.execPath, [MAIN, 'migrate'], { env: envFor({ DATA_DIR: join(dir, 'migrate') }), encoding: 'utf8', cwd: ROOT });
    if (m.status !== 0) throw new Error(`migrate failed: ${m.stderr || m.stdout}`);

    const replicas = Array.from({ length: nReplicas }, (_, i) =>
      proc(`replica-${i}`, port.replica(i), join(dir, `replica-${i}.log`), () => node(['serve'], envFor({ PORT: String(port.replica(i)), DATA_DIR: join(dir, `replica-${i}`) })), (p) =>
        until(`replica-${i} /health`, () => httpOk(`http://127.0.0.1:${port.replica(i)}/health`), 60_000, p),
      ),
    );
    const workers = Array.from({ length: nWorkers }, (_, i) =>
      proc(`worker-${i}`, null, join(dir, `worker-${i}.log`), () => node(['worker'], envFor({ DATA_DIR: join(dir, `worker-${i}`) })), (p) =>
        until(`worker-${i} to run`, async () => p.output().includes('worker running'), 60_000, p),
      ),
    );
    say(`${nReplicas} serve replica(s) on 127.0.0.1:${port.replica(0)}${nReplicas > 1 ? `-${port.replica(nReplicas - 1)}` : ''}, ${nWorkers} worker(s)`);
    // Started one after the other: two cold starts at once on a small machine only slow each other.
    for (const r of replicas) {
      await r.start();
      started.push(r);
    }
    for (const w of workers) {
      await w.start();
      started.push(w);
    }

    const cfg = join(dir, 'haproxy.cfg');
    const errorDir = writeHaproxyErrorFiles(join(dir, 'haproxy-errors'));
    writeFileSync(cfg, haproxyConfig({ port: port.haproxy, stats: port.stats, replicas: replicas.map((r) => r.port!), errorDir }));
    const check = spawnSync(which('haproxy')!, ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}`);
    const haproxy = proc('haproxy', port.haproxy, join(dir, 'haproxy.log'), () => spawn(which('haproxy')!, ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] }), async (p) => {
      await until('HAProxy to route /health', () => httpOk(`${url}/health`), 15_000, p);
      // Every replica up in HAProxy's eyes (its checks run every second) before anyone calls.
      await until('HAProxy to see every replica up', async () => (await haproxyUp(`http://127.0.0.1:${port.stats}`)) === nReplicas, 15_000, p);
    });
    say(`HAProxy on ${url} (stats: http://127.0.0.1:${port.stats}/)`);
    await haproxy.start();
    started.push(haproxy);

    return {
      url,
      statsUrl: `http://127.0.0.1:${port.stats}`,
      databaseUrl,
      redisUrl,
      simUrl,
      secrets: { JWT_SECRET: kept.JWT_SECRET, LEDGER_SECRET: kept.LEDGER_SECRET },
      replicas,
      workers,
      sim,
      haproxy,
      postgres,
      redis,
      envFor,
      stop: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** How many replicas HAProxy currently routes to (its stats page, CSV). */
export async function haproxyUp(statsUrl: string): Promise<number> {
  const r = await fetch(`${statsUrl}/;csv`, { signal: AbortSignal.timeout(2_000) });
  const csv = await r.text();
  return csv.split('\n').filter((l) => l.startsWith('replicas,r') && l.split(',')[17] === 'UP').length;
}

/**
 * The statuses HAProxy answers itself on a request it could read: no replica up (503), a replica
 * that failed (502) or did not answer (504), its own failure (500). Its 400 and 408 (a request it
 * cannot parse, or that never finishes arriving) stay HAProxy's HTML: no SDK sends either.
 */
export const HAPROXY_ERROR_STATUSES = [500, 502, 503, 504] as const;

const HAPROXY_ERROR_TEXT: Record<(typeof HAPROXY_ERROR_STATUSES)[number], [string, string]> = {
  500: ['Internal Server Error', 'The load balancer failed on this request; retry it.'],
  502: ['Bad Gateway', 'A Switchboard replica closed the connection or sent an invalid answer; retry the call (it may have reached the model: the usage log shows whether it was charged).'],
  503: ['Service Unavailable', 'No Switchboard replica is available (all are down or draining); retry in a second.'],
  504: ['Gateway Timeout', "A Switchboard replica did not answer within the load balancer's timeout; retry the call (the usage log shows whether it was charged)."],
};

/**
 * HAProxy's own answers, as JSON every proxy client can read. HAProxy cannot tell which wire a
 * request spoke, so one body serves the three: `{type:'error', error:{type, message, code, status,
 * param}}`. The chat-completions SDK reads `error.message`/`error.type`; the messages SDK reads
 * `type:'error'` and `error.type` (the messages wire's type for the status); the generate-content
 * SDK reads `error.code` (the HTTP status) and `error.status` (its RPC code name). Each SDK raises
 * its usual error class for the status (docs/cluster.md).
 */
export function haproxyErrorBody(status: (typeof HAPROXY_ERROR_STATUSES)[number]): string {
  const message = HAPROXY_ERROR_TEXT[status][1];
  return JSON.stringify({ type: 'error', error: { type: messagesErrorType(status), message, code: status, status: rpcStatus(status), param: null } });
}

/** One errorfile per status (a whole HTTP response, as HAProxy wants it) in `dir`; returns `dir`. */
export function writeHaproxyErrorFiles(dir: string): string {
  mkdirSync(dir, { recursive: true });
  for (const status of HAPROXY_ERROR_STATUSES) {
    const body = haproxyErrorBody(status);
    const head = [
      `HTTP/1.1 ${status} ${HAPROXY_ERROR_TEXT[status][0]}`,
      'content-type: application/json',
      'cache-control: no-cache',
      ...(status === 503 ? ['retry-after: 1'] : []),
      `content-length: ${Buffer.byteLength(body)}`,
      'connection: close',
    ];
    writeFileSync(join(dir, `${status}.http`), `${head.join('\r\n')}\r\n\r\n${body}`);
  }
  return dir;
}

/**
 * The HAProxy configuration. leastconn suits a mix of short calls and long streams. A replica is
 * taken out after two failed health checks (1 s apart, 250 ms once failing) and at once when its
 * /health answers 503 (draining). A request that could not be delivered (connection refused) or
 * that a replica refused with 503 (shed, draining, database down: never processed) is retried on
 * another replica; nothing else is, so no call is ever sent upstream twice by the balancer.
 */
export function haproxyConfig(o: { port: number; stats: number; replicas: number[]; errorDir?: string }): string {
  return `# Generated by scripts/cluster/topology.ts (npm run cluster); docs/cluster.md explains each line.
global
  maxconn 4096
  # One line per request on standard output (haproxy.log in the cluster's folder): the
  # termination state (4th-to-last group, "----" when normal) says who ended a connection early.
  log stdout format raw local0 info

defaults
  mode http
  log global
  option httplog
  option http-keep-alive
  timeout connect 2s
  timeout client 5m
  timeout server 5m
  timeout http-request 30s
  timeout http-keep-alive 10s
  timeout queue 5s
  retries 2
  option redispatch 1
  retry-on conn-failure 503
  # The client's address for the replicas (TRUST_PROXY=127.0.0.1): HAProxy is the edge here, so an
  # X-Forwarded-For the client sent is dropped and HAProxy's own takes its place.
  option forwardfor
${(o.errorDir ? HAPROXY_ERROR_STATUSES.map((st) => `  errorfile ${st} ${join(o.errorDir!, `${st}.http`)}`) : []).join('\n')}

frontend switchboard
  bind 127.0.0.1:${o.port}
  http-request del-header x-forwarded-for
  default_backend replicas

backend replicas
  balance leastconn
  option httpchk
  http-check send meth GET uri /health
  http-check expect status 200
  default-server check inter 1s fastinter 250ms downinter 1s fall 2 rise 2
${o.replicas.map((p, i) => `  server r${i} 127.0.0.1:${p}`).join('\n')}

listen stats
  bind 127.0.0.1:${o.stats}
  stats enable
  stats uri /
  stats refresh 2s
`;
}

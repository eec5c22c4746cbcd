// Node CPU per proxied call, the steadiest figure for comparing two builds of the proxy's own
// path on a noisy machine: the simulator, the bare proxy and Switchboard (bench/hop-server.ts) each
// run as their own process; a closed loop of N connections drives each in interleaved rounds, and
// the hop process's utime + stime over the measured window is divided by the requests completed.
// By default the money path is stubbed (HOP_STUB_MONEY=0 to keep it), so the figure is the CPU of
// everything else: HTTP, auth, limiter, Layers 1–2, wire, inline check, upstream client, pump.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx bench/hop-cpu.ts
// env: HOP_ROUNDS (3) HOP_MS (3000) HOP_CONNECTIONS (10) HOP_STUB_MONEY (1) HOP_PROFILE (0: a
// --cpu-prof of Switchboard into bench/results/profiles/) HOP_NODE_FLAGS (extra node flags)
// HOP_ENTRY (tsx, or dist: bundled and started as `npm start` starts dist/main.js).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { closePools, JSON_BODY, percentile, runLoad, STREAM_BODY } from './load.ts';
import { cpuUs, peakRssMb } from './proc.ts';

const ROOT = resolve(import.meta.dirname, '..');
const ROUNDS = Number(process.env.HOP_ROUNDS ?? 3);
const MS = Number(process.env.HOP_MS ?? 3000);
const CONNECTIONS = Number(process.env.HOP_CONNECTIONS ?? 10);
const STUB = process.env.HOP_STUB_MONEY ?? '1';
const PROFILE = process.env.HOP_PROFILE === '1';
/** `dist`: Switchboard bundled the way `npm run build` bundles src/main.ts, run with `npm start`'s node flags. */
const ENTRY = process.env.HOP_ENTRY ?? 'tsx';


const kids: ChildProcess[] = [];
function start(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<{ pid: number; m: RegExpExecArray; proc: ChildProcess }> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  kids.push(proc);
  return new Promise((res, rej) => {
    let buf = '';
    const on = (d: Buffer) => {
      buf += d.toString();
      const m = ready.exec(buf);
      if (m) {
        ready = /$^/;
        res({ pid: proc.pid!, m, proc });
      }
    };
    proc.stdout!.on('data', on);
    proc.stderr!.on('data', on);
    proc.once('exit', (c) => rej(new Error(`${args.join(' ')} exited ${c}: ${buf}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => res(p));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `hopcpu_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  const dbUrl = base.replace(/\/[^/]*$/, `/${dbName}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'sb-hop-'));
  chmodSync(dataDir, 0o755);
  try {
    const simPort = await freePort();
    const sim = await start(['--import', 'tsx', 'src/main.ts', 'sim'], { ...process.env, SIM_PORT: String(simPort), HOST: '127.0.0.1' }, /at (http:\/\/\S+)/);
    const simUrl = sim.m[1];
    const bare = await start(['--import', 'tsx', 'bench/bare-proxy.ts'], { ...process.env, BARE_PORT: String(await freePort()), BARE_UPSTREAM: simUrl }, /listening at (http:\/\/\S+)/);
    const profDir = join(ROOT, 'bench/results/profiles');
    mkdirSync(profDir, { recursive: true });
    const flags = [...(process.env.HOP_NODE_FLAGS?.split(' ').filter(Boolean) ?? []), ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [])];
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const startFlags = pkg.scripts.start.split(/\s+/).slice(1, -2);
    let entries: Array<[string, string[]]> = [['switchboard', ['--import', 'tsx', 'bench/hop-server.ts']]];
    if (ENTRY === 'dist') {
      const build = pkg.scripts.build.split(/\s+/).map((a) => (a === 'src/main.ts' ? 'bench/hop-server.ts' : a.replace('dist/main.js', 'dist/hop-server.js')));
      execFileSync(join(ROOT, 'node_modules/.bin', build[0]), build.slice(1), { cwd: ROOT, stdio: 'inherit' });
      entries = [['switchboard', [...startFlags, 'dist/hop-server.js']]];
    }
    // A/B in the same rounds: HOP_BUNDLES="old=dist/hop-old.js,new=dist/hop-new.js" (prebuilt bundles).
    if (process.env.HOP_BUNDLES) entries = process.env.HOP_BUNDLES.split(',').map((x) => x.split('=')).map(([n, f]) => [n, [...startFlags, f]]);
    const targets: Record<string, { pid: number; t: { origin: string; path: string; headers: Record<string, string> } }> = {
      bare: { pid: bare.pid, t: { origin: bare.m[1].replace(/\/$/, ''), path: '/openai/v1/chat/completions', headers: { authorization: 'Bearer simulated' } } },
    };
    for (const [name, entry] of entries) {
      const sb = await start([...flags, ...entry], { ...process.env, DATABASE_URL: dbUrl, DATA_DIR: dataDir, SIM_URL: simUrl, HOP_STUB_MONEY: STUB }, /hop-server ready (\S+) (\S+)/);
      targets[name] = { pid: sb.pid, t: { origin: sb.m[1].replace(/\/$/, ''), path: '/v1/chat/completions', headers: { authorization: `Bearer ${sb.m[2]}` } } };
    }
    const results: Record<string, { cpu: number[]; rps: number[]; p50: number[]; ttfb: number[] }> = {};
    for (let r = 0; r < ROUNDS; r++) {
      for (const mode of ['json', 'stream'] as const) {
        for (const [name, x] of Object.entries(targets)) {
          let c0 = 0;
          let c1 = 0;
          const out = await runLoad({
            target: x.t,
            body: mode === 'json' ? JSON_BODY : STREAM_BODY,
            stream: mode === 'stream',
            connections: CONNECTIONS,
            warmupMs: r === 0 ? 1500 : 300,
            durationMs: MS,
            maxRequests: 200_000,
            onWindow: (e) => (e === 'open' ? (c0 = cpuUs(x.pid)) : (c1 = cpuUs(x.pid))),
          });
          if (out.errors) console.error(`${name} ${mode}: ${out.errors} errors, first: ${out.firstError}`);
          const k = `${name} ${mode}`;
          results[k] ??= { cpu: [], rps: [], p50: [], ttfb: [] };
          results[k].cpu.push((c1 - c0) / out.requests);
          results[k].rps.push(out.rps);
          results[k].p50.push(percentile(out.latencyUs, 50));
          if (mode === 'stream') results[k].ttfb.push(percentile(out.ttfbUs, 50));
        }
      }
    }
    console.log(`\n${CONNECTIONS} connections, ${ROUNDS} rounds × ${MS} ms, money path ${STUB === '1' ? 'stubbed' : 'real'}; medians (per-round CPU µs/req in brackets)`);
    console.log('| target | CPU µs/req | req/s | p50 µs | ttfb p50 µs |');
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const [k, v] of Object.entries(results)) {
      console.log(`| ${k} | ${median(v.cpu).toFixed(0)} [${v.cpu.map((x) => x.toFixed(0)).join(', ')}] | ${median(v.rps).toFixed(0)} | ${median(v.p50).toFixed(0)} | ${v.ttfb.length ? median(v.ttfb).toFixed(0) : ''} |`);
    }
    console.log(`peak RSS: ${Object.entries(targets).map(([n, x]) => `${n} ${peakRssMb(x.pid).toFixed(0)} MB`).join(', ')}`);
  } finally {
    await closePools();
    for (const k of kids.reverse()) {
      k.kill('SIGTERM');
      await new Promise((r) => (k.exitCode !== null ? r(null) : k.once('exit', r)));
    }
    await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
  }
}

main().catch((e) => {
  console.error(e);
  for (const k of kids) k.kill('SIGKILL');
  process.exit(1);
});

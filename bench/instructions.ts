// Instructions per proxied call, for comparing two builds on a shared, noisy machine where wall
// clock and even CPU time move with the neighbours. Switchboard runs in this process (the same
// startRuntime as `npm start`, real PostgreSQL, the real money path); the simulated upstream runs
// as its own process, so its work is not counted. Calls go one at a time over HTTP (undici).
//
// Run under callgrind with instrumentation off at start: after the warm-up the driver switches it
// on (callgrind_control), makes the measured calls, waits for their settlements, and switches it
// off, so start-up, warm-up and shutdown are not counted. Instructions per call = the run's Ir
// total (printed by valgrind at exit) / INSTR_CALLS. They include this process's client side and
// every thread of the process (GC helpers, libuv), the same for both builds compared.
//
//   DATABASE_URL=… INSTR_CALLS=200 valgrind --tool=callgrind --instr-atstart=no \
//     --callgrind-out-file=/tmp/cg.out node --import tsx bench/instructions.ts
// env: INSTR_MODE=json|stream (json), INSTR_WARM (100 warm-up calls), INSTR_CALLS (200), INSTR_CONNECTIONS (1),
// INSTR_MARKS (a line every N measured calls, 0: none).
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import { inProcessEnv } from './in-process-env.ts';
import { JSON_BODY, STREAM_BODY } from './load.ts';
import { createBenchTenant } from './tenants.ts';

const CALLS = Number(process.env.INSTR_CALLS ?? 200);
const WARM = Number(process.env.INSTR_WARM ?? 100);
/** Closed loops in parallel (1: one call at a time). Counts per call then depend on batching. */
const CONNECTIONS = Math.max(1, Number(process.env.INSTR_CONNECTIONS ?? 1));
/** Print a line every INSTR_MARKS measured calls (to place --trace-opt output in time); 0: never. */
const MARKS = Number(process.env.INSTR_MARKS ?? 0);
const MODE = process.env.INSTR_MODE === 'stream' ? 'stream' : 'json';
const ROOT = resolve(import.meta.dirname, '..');

const sim = spawn('node', ['--import', 'tsx', 'src/main.ts', 'sim'], { cwd: ROOT, env: { ...process.env, SIM_PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
const simUrl = await new Promise<string>((res, rej) => {
  let buf = '';
  const on = (d: Buffer) => {
    buf += d.toString();
    const m = /at (http:\/\/\S+)/.exec(buf);
    if (m) res(m[1]);
  };
  sim.stdout.on('data', on);
  sim.stderr.on('data', on);
  sim.once('exit', (c) => rej(new Error(`sim exited ${c}: ${buf}`)));
});

const env = inProcessEnv({ databaseUrl: process.env.DATABASE_URL!, dataDir: mkdtempSync(join(tmpdir(), 'sb-instr-')), simUrl });
const rt = await startRuntime(loadConfig(env), { http: true, worker: false });
const t = await createBenchTenant(rt.services.db, rt.services.secrets.ledger, 'instructions', 1_000_000_000_000n);
const pool = new Pool(rt.url, { connections: CONNECTIONS, pipelining: 1 });
const body = MODE === 'json' ? JSON_BODY : STREAM_BODY;
const one = async () => {
  const res = await pool.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` }, body });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
};
/** Switch callgrind's instrumentation on or off (a no-op, with a note, outside valgrind). */
const instrument = (on: boolean) =>
  promisify(execFile)('callgrind_control', ['-i', on ? 'on' : 'off', String(process.pid)]).catch((e: Error) => console.log(`callgrind_control: ${e.message.split('\n')[0]}`));
/** `n` calls over CONNECTIONS closed loops; `mark` after every call counted. */
const run = async (n: number, mark?: (done: number) => void) => {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < n) {
        next++;
        await one();
        mark?.(++done);
      }
    }),
  );
};
await run(WARM);
await rt.services.settler.drain();
await instrument(true);
const hrUs = () => Number(process.hrtime.bigint() / 1000n);
console.log(`instructions driver: measured calls start at ${hrUs()} µs`);
await run(CALLS, (done) => {
  if (MARKS && done % MARKS === 0) console.log(`instructions driver: ${done} measured calls`);
});
await rt.services.settler.drain();
await instrument(false);
console.log(`instructions driver: measured calls end at ${hrUs()} µs`);
console.log(`instructions driver: ${WARM} warm-up and ${CALLS} measured ${MODE} calls done`);
await pool.close();
await rt.close();
sim.kill('SIGTERM');

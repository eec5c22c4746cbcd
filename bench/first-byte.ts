// Where a stream's first byte goes: Switchboard runs in this process on a throw-away embedded
// PostgreSQL, the simulator in a process of its own, and streamed calls arrive one at a time. For
// every call the time from the client's send to its first `data:` line is split at four points
// taken on the same clock: the request parsed by node:http (its 'request' event), the upstream request leaving
// (UpstreamClient.post called), the upstream's headers back (post resolved), its first body chunk
// in when that came after the headers, and the first write of a `data:` line (ServerResponse.write).
// The client shares the event loop, so the last span also holds whatever the server does between
// that write and its next pause. A diagnostic, not part of `npm run bench`:
//
//   node --import tsx bench/first-byte.ts          # FIRST_BYTE_CALLS (1,000)
import { spawn } from 'node:child_process';
import { ServerResponse } from 'node:http';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Agent, Pool } from 'undici';
import { loadConfig } from '../src/config.ts';
import { startRuntime } from '../src/runtime/runtime.ts';
import { ensureDemo } from '../src/runtime/demo.ts';
import { startEmbeddedPostgres } from '../src/store/embedded.ts';
import { inProcessEnv } from './in-process-env.ts';
import { STREAM_BODY } from './load.ts';

const CALLS = Number(process.env.FIRST_BYTE_CALLS ?? 1000);
const ROOT = resolve(import.meta.dirname, '..');
const now = () => Number(process.hrtime.bigint()) / 1000;

/** Marks of the call in flight (one at a time), µs on one clock. */
let marks: Record<string, number> = {};
const mark = (k: string) => {
  marks[k] ??= now();
};

const write = ServerResponse.prototype.write;
ServerResponse.prototype.write = function (this: ServerResponse, ...a: Parameters<typeof write>) {
  const c = a[0] as unknown;
  if ((typeof c === 'string' || Buffer.isBuffer(c)) && c.includes('data:')) mark('first data write');
  return write.apply(this, a);
} as typeof write;

const sim = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'sim'], { cwd: ROOT, env: { ...process.env, SIM_PORT: '0', HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'inherit'] });
const simUrl = await new Promise<string>((res) => {
  let buf = '';
  sim.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const m = /at (http:\/\/\S+)/.exec(buf);
    if (m) res(m[1]);
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'sb-first-byte-'));
chmodSync(dataDir, 0o755);
const db = await startEmbeddedPostgres({ dataDir: join(dataDir, 'pg'), persistent: false, database: 'switchboard' });
const rt = await startRuntime(loadConfig(inProcessEnv({ databaseUrl: db.url, dataDir, simUrl })), { http: true, worker: false });
try {
  const demo = await ensureDemo(rt.services);
  rt.app!.server.prependListener('request', () => mark('request in'));
  const up = rt.services.calls.upstream;
  const post = up.post.bind(up);
  up.post = async (...a: Parameters<typeof post>) => {
    mark('upstream sent');
    const r = await post(...a);
    mark('upstream headers');
    const body = r.body as unknown as { push(c: unknown): boolean };
    const push = body.push.bind(body);
    body.push = (c: unknown) => {
      if (c) mark('upstream first chunk');
      return push(c);
    };
    return r;
  };
  const client = new Pool(rt.url, { connections: 1, pipelining: 1 });
  const one = async () => {
    marks = {};
    const t0 = now();
    const res = await client.request({ path: '/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${demo.key}` }, body: STREAM_BODY });
    let first = 0;
    for await (const chunk of res.body) if (!first && (chunk as Buffer).includes('data:')) first = now();
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
    return { t0, first, m: marks };
  };
  // The same hop without Switchboard around it: a keep-alive Agent in this process, to headers.
  const agent = new Agent({ connections: 4, pipelining: 1 });
  const alone = async () => {
    const t0 = now();
    const res = await agent.request({ origin: simUrl, path: '/openai/v1/chat/completions', method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer simulated' }, body: STREAM_BODY });
    const t1 = now();
    await res.body.text();
    return t1 - t0;
  };
  for (let i = 0; i < 300; i++) {
    await one();
    await alone();
  }
  const steps = ['request in', 'upstream sent', 'upstream headers', 'upstream first chunk', 'first data write'] as const;
  const parts: Record<string, number[]> = {};
  for (let i = 0; i < CALLS; i++) {
    const { t0, first, m } = await one();
    let prev = t0;
    let prevName = 'client send';
    for (const k of steps) {
      if (m[k] === undefined) continue; // e.g. the first chunk came in with the headers, before post() resolved
      (parts[`${prevName} → ${k}`] ??= []).push(m[k] - prev);
      prev = m[k];
      prevName = k;
    }
    (parts[`${prevName} → client's first data line`] ??= []).push(first - prev);
    (parts['total: client send → first data line'] ??= []).push(first - t0);
    (parts['for comparison: the same upstream request alone, to headers'] ??= []).push(await alone());
  }
  const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
  console.log(`${CALLS} streamed calls, one at a time (µs)\n| span | p50 | p90 | mean |\n| --- | ---: | ---: | ---: |`);
  for (const [k, xs] of Object.entries(parts)) console.log(`| ${k} | ${q(xs, 0.5).toFixed(0)} | ${q(xs, 0.9).toFixed(0)} | ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(0)} |`);
  await client.close();
  await agent.close();
} finally {
  await rt.close();
  await db.stop();
  sim.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

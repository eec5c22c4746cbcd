// Running the parts on their own (issue 24 item 8), as a new user would: `sim` on a free port
// prints the SIM_URL to give `serve`; `serve` with SIM_URL answers calls labelled simulated (D11)
// and its health says so; `serve` with no upstream at all says how to get one; the bundle
// `npm run serve`/`worker` start from is rebuilt only when its sources changed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { statSync } from 'node:fs';
import OpenAI from 'openai';
import { freePort } from '../src/store/embedded.ts';
import { startTestServer, tenantWithKey, type TestServer } from './harness.ts';
import { waitFor } from './money.ts';

let srv: TestServer;
const children: ChildProcess[] = [];
before(async () => {
  srv = await startTestServer({ worker: false });
});
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await srv?.close();
});

function run(cmd: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', cmd], {
    env: { ...process.env, LOG_LEVEL: 'warn', REDIS_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, out: () => out };
}

test('`sim` listens on a free port and prints the SIM_URL to give serve', { timeout: 60_000 }, async () => {
  const sim = run('sim', { SIM_PORT: '' });
  const url = await waitFor('the simulator URL', async () => /SIM_URL=(http:\/\/127\.0\.0\.1:(\d+))/.exec(sim.out())?.[1], 30_000);
  assert.notEqual(new URL(url).port, '9090');
  assert.match(sim.out(), /\/openai \/anthropic \/google \/mistral \/deepseek/);
  const health = await fetch(`${url}/health`);
  assert.deepEqual(await health.json(), { status: 'ok', simulated: true });
  sim.child.kill('SIGTERM');
});

test('`serve` with SIM_URL and no provider: calls answered and labelled simulated, health says simulated', { timeout: 90_000 }, async () => {
  const t = await tenantWithKey(srv);
  const port = await freePort();
  const serve = run('serve', {
    DATABASE_URL: srv.database.url,
    PORT: String(port),
    SIM_URL: srv.sim.url,
    JWT_SECRET: srv.services.config.JWT_SECRET!,
    LEDGER_SECRET: srv.services.config.LEDGER_SECRET!,
    DATA_DIR: srv.dataDir,
  });
  await waitFor('serve to listen', async () => serve.out().includes('Switchboard listening'), 60_000);
  assert.match(serve.out(), /SIMULATED upstream at http:\/\/127\.0\.0\.1:\d+ \(SIM_URL/);
  const base = `http://127.0.0.1:${port}`;
  const health = await (await fetch(`${base}/v1/chat-proxy/health`)).json();
  assert.deepEqual(health, { status: 'ok', upstream: 'configured', simulated: true });
  const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: t.key, maxRetries: 0 });
  const { data, response } = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }] }).withResponse();
  assert.equal(response.headers.get('x-service-simulated'), 'true');
  assert.ok(data.choices[0]!.message.content);
  serve.child.kill('SIGTERM');
});

test('`serve` with no upstream at all warns at start that every call would be a 503, and says what to set', { timeout: 90_000 }, async () => {
  const port = await freePort();
  const serve = run('serve', {
    DATABASE_URL: srv.database.url,
    PORT: String(port),
    SIM_URL: '',
    JWT_SECRET: srv.services.config.JWT_SECRET!,
    LEDGER_SECRET: srv.services.config.LEDGER_SECRET!,
    DATA_DIR: srv.dataDir,
    ...Object.fromEntries(['OPENAI', 'ANTHROPIC', 'GOOGLE', 'MISTRAL', 'DEEPSEEK'].flatMap((p) => [[`${p}_API_KEY`, ''], [`${p}_BASE_URL`, '']])),
  });
  await waitFor('the warning', async () => serve.out().includes('WARNING: no upstream'), 60_000);
  assert.match(serve.out(), /SIM_URL/);
  const health = await (await fetch(`http://127.0.0.1:${port}/v1/chat-proxy/health`)).json();
  assert.equal(health.upstream, 'unconfigured');
  serve.child.kill('SIGTERM');
});

test('the server bundle is rebuilt only when its sources changed', { timeout: 60_000 }, () => {
  const build = () => spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-server.ts'], { encoding: 'utf8', timeout: 50_000 });
  assert.equal(build().status, 0);
  const first = statSync('dist/main.js').mtimeMs;
  assert.equal(build().status, 0);
  assert.equal(statSync('dist/main.js').mtimeMs, first, 'an unchanged checkout is not rebuilt');
});

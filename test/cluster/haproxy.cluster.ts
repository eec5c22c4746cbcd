// The cluster's HAProxy configuration on its own (scripts/cluster/topology.ts haproxyConfig), with
// the real haproxy binary in front of small loopback backends: its own error answers are JSON that
// the three official SDKs raise as their usual API errors, and it hands the replicas the client's
// address in X-Forwarded-For, dropping whatever the client claimed (the replicas trust 127.0.0.1:
// test/trust-proxy.test.ts checks that side).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAPROXY_ERROR_STATUSES, haproxyConfig, haproxyErrorBody, haproxyUp, writeHaproxyErrorFiles } from '../../scripts/cluster/topology.ts';
import { freePort } from '../../src/store/embedded.ts';
import { call, describeOutcome, nativeError, SHAPES, waitUntil } from './client.ts';

let dir: string;
let backend: Server;
const haproxies: ChildProcess[] = [];
/** HAProxy in front of a backend that answers /health, echoes what it received on /echo and cuts every other request. */
let live: { url: string; stats: string };
/** HAProxy whose only replica port has nothing listening. */
let dead: { url: string };

async function startHaproxy(name: string, replicaPort: number): Promise<{ url: string; stats: string }> {
  const [port, stats] = [await freePort(), await freePort()];
  const cfg = join(dir, `${name}.cfg`);
  writeFileSync(cfg, haproxyConfig({ port, stats, replicas: [replicaPort], errorDir: join(dir, 'errors') }));
  const check = spawnSync('haproxy', ['-c', '-q', '-f', cfg], { encoding: 'utf8' });
  assert.equal(check.status, 0, `haproxy accepts the generated configuration: ${check.stderr}`);
  const p = spawn('haproxy', ['-db', '-f', cfg], { stdio: ['ignore', 'pipe', 'pipe'] });
  haproxies.push(p);
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(`${name} HAProxy to listen`, async () => (await fetch(`http://127.0.0.1:${stats}/;csv`)).ok, 15_000);
  return { url, stats: `http://127.0.0.1:${stats}` };
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-haproxy-'));
  writeHaproxyErrorFiles(join(dir, 'errors'));
  backend = createServer((req, res) => {
    if (req.url === '/health') return res.end('ok');
    if (req.url === '/echo') {
      res.setHeader('content-type', 'application/json');
      return res.end(JSON.stringify({ xff: req.headers['x-forwarded-for'] ?? null, peer: req.socket.remoteAddress }));
    }
    req.socket.destroy();
  });
  await new Promise<void>((r) => backend.listen(0, '127.0.0.1', r));
  const backendPort = (backend.address() as { port: number }).port;
  live = await startHaproxy('live', backendPort);
  await waitUntil('HAProxy to see its replica up', async () => (await haproxyUp(live.stats)) === 1, 15_000);
  dead = await startHaproxy('dead', await freePort());
});

after(async () => {
  for (const p of haproxies) p.kill('SIGTERM');
  backend?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('no replica up: HAProxy answers 503 in JSON with Retry-After, and every SDK raises its API error for it', async () => {
  const raw = await fetch(`${dead.url}/v1/chat/completions`, { method: 'POST', body: '{}' });
  assert.equal(raw.status, 503);
  assert.equal(raw.headers.get('content-type'), 'application/json');
  assert.equal(raw.headers.get('retry-after'), '1');
  const body = (await raw.json()) as any;
  assert.equal(body.type, 'error');
  assert.deepEqual({ type: body.error.type, code: body.error.code, status: body.error.status }, { type: 'overloaded_error', code: 503, status: 'UNAVAILABLE' });
  assert.match(body.error.message, /retry/);
  for (const shape of SHAPES) {
    for (const stream of [false, true]) {
      const o = await call(dead.url, 'sk-any', shape, stream, 'hello');
      assert.ok(nativeError(o, 503), `${shape}${stream ? ' stream' : ''}: ${describeOutcome(o)}`);
    }
  }
});

test('a replica that cuts the connection: HAProxy answers 502 in JSON, which every SDK raises as its API error', async () => {
  for (const shape of SHAPES) {
    const o = await call(live.url, 'sk-any', shape, false, 'hello');
    assert.ok(nativeError(o, 502), `${shape}: ${describeOutcome(o)}`);
    assert.match(String((o.error as Error).message), /replica closed the connection/);
  }
});

test('every errorfile is a whole HTTP response with the JSON body of its status (504: DEADLINE_EXCEEDED, timeout_error)', () => {
  for (const status of HAPROXY_ERROR_STATUSES) {
    const file = readFileSync(join(dir, 'errors', `${status}.http`), 'utf8');
    const [head, body] = file.split('\r\n\r\n');
    assert.match(head!, new RegExp(`^HTTP/1\\.1 ${status} `));
    assert.equal(Number(/content-length: (\d+)/.exec(head!)![1]), Buffer.byteLength(body!));
    assert.equal(body, haproxyErrorBody(status));
    assert.equal(JSON.parse(body!).error.code, status);
  }
  const t = JSON.parse(haproxyErrorBody(504));
  assert.deepEqual([t.error.type, t.error.status], ['timeout_error', 'DEADLINE_EXCEEDED']);
});

test("the replica sees the client's own address in X-Forwarded-For, never the one the client claimed", async () => {
  // A client on 127.0.0.2 (another loopback address) that claims to be 6.6.6.6.
  const port = Number(new URL(live.url).port);
  const seen = await new Promise<{ xff: string; peer: string }>((res, rej) => {
    const r = httpRequest({ host: '127.0.0.1', port, path: '/echo', localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '6.6.6.6' } }, (m) => {
      let body = '';
      m.on('data', (d) => (body += d));
      m.on('end', () => res(JSON.parse(body)));
    });
    r.on('error', rej);
    r.end();
  });
  assert.equal(seen.xff, '127.0.0.2', 'only the address HAProxy saw');
  assert.equal(seen.peer, '127.0.0.1', 'HAProxy connects from 127.0.0.1: the address the replicas trust (TRUST_PROXY)');
});

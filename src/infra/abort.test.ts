// CallAbort stands in for AbortController on the proxy's path (abort.ts): the same reason, each
// listener once, and undici honours it before and after the upstream's headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CallAbort } from './abort.ts';
import { UpstreamClient, UpstreamError } from './upstream.ts';

test('CallAbort: listeners fire once, in order, removed ones not at all; the reason is an AbortError', () => {
  const a = new CallAbort();
  const seen: string[] = [];
  const gone = () => seen.push('removed');
  a.addEventListener('abort', () => seen.push('first'));
  a.addEventListener('abort', gone);
  a.addEventListener('abort', () => seen.push('second'));
  a.removeEventListener('abort', gone);
  assert.equal(a.aborted, false);
  a.abort();
  a.abort();
  assert.deepEqual(seen, ['first', 'second']);
  assert.equal(a.aborted, true);
  const native = new AbortController();
  native.abort();
  assert.ok(a.reason instanceof DOMException);
  assert.equal((a.reason as DOMException).name, (native.signal.reason as DOMException).name);
  assert.equal((a.reason as DOMException).message, (native.signal.reason as DOMException).message);
  a.addEventListener('abort', () => seen.push('late'));
  assert.deepEqual(seen, ['first', 'second'], 'a listener added after the abort is not kept');
});

test('the upstream client cancels on a CallAbort: while waiting for headers, mid-body, and when already aborted', async () => {
  const open: ServerResponse[] = [];
  const srv = createServer((req, res) => {
    req.resume();
    if (req.url === '/body') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part');
    }
    open.push(res); // never finished: only the abort can end the call
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const client = new UpstreamClient({ connectTimeoutMs: 5_000, timeoutMs: 30_000 });
  try {
    const waiting = new CallAbort();
    const pending = client.post(`${base}/headers`, {}, '{}', waiting);
    setTimeout(() => waiting.abort(), 50);
    await assert.rejects(pending, (e: unknown) => e instanceof UpstreamError && e.kind === 'aborted');

    const reading = new CallAbort();
    const res = await client.post(`${base}/body`, {}, '{}', reading);
    assert.equal(res.status, 200);
    setTimeout(() => reading.abort(), 50);
    await assert.rejects(res.body.text(), (e: Error) => e.name === 'AbortError');

    const before = new CallAbort();
    before.abort();
    await assert.rejects(client.post(`${base}/headers`, {}, '{}', before), (e: unknown) => e instanceof UpstreamError && e.kind === 'aborted');
  } finally {
    for (const r of open) r.destroy();
    await client.close();
    await new Promise<void>((r) => srv.close(() => r()));
  }
});

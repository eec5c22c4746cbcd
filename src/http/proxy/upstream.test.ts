// Upstream behaviour (issue 3.3): a client that disconnects aborts the upstream request; upstream
// timeouts are configurable and end in the vendor's 502; a stream the upstream breaks ends with
// the vendor's in-stream error, never a hang.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { UPSTREAM_TIMEOUT_MS: '300', RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const waitFor = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

test('a client that disconnects mid-stream aborts the upstream request', async () => {
  srv.sim.faults.add({ chunkDelayMs: 100, stream: true, times: 1 });
  const before = srv.sim.stats.abandoned;
  const ac = new AbortController();
  const res = await fetch(`${srv.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Write a long story about a lighthouse keeper and the sea.' }] }),
    signal: ac.signal,
  });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  await reader.read();
  ac.abort();
  await waitFor(() => srv.sim.stats.abandoned > before);
  srv.sim.faults.clear();
});

test('a stream whose first token is slow shows its status line and headers at once', async () => {
  srv.sim.faults.add({ firstByteDelayMs: 250, stream: true, times: 1 });
  const started = Date.now();
  const res = await fetch(`${srv.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', stream: true, messages: [{ role: 'user', content: 'Say hello.' }] }),
  });
  const headersAt = Date.now() - started;
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
  const reader = res.body!.getReader();
  const first = await reader.read();
  const firstAt = Date.now() - started;
  srv.sim.faults.clear();
  assert.match(new TextDecoder().decode(first.value), /data: /);
  assert.ok(firstAt >= 250, `first frame after the upstream's delay (${firstAt} ms)`);
  assert.ok(headersAt < firstAt - 150, `headers at ${headersAt} ms, first frame at ${firstAt} ms`);
  await reader.cancel();
});

test('an upstream slower than UPSTREAM_TIMEOUT_MS fails over and ends in a 502 in the vendor shape', async () => {
  // The delay is far above the timeout: undici checks timeouts on a coarse timer (about 1 s), and
  // on a loaded machine a delay of only a few timeouts could still answer before the timer fires.
  srv.sim.faults.add({ delayMs: 8000 });
  const started = Date.now();
  const err = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 })
    .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] })
    .then(() => null, (e: unknown) => e);
  srv.sim.faults.clear();
  assert.ok(err instanceof OpenAI.InternalServerError || (err as { status?: number }).status === 502, String(err));
  assert.equal((err as { status: number }).status, 502);
  assert.match((err as Error).message, /timed out/);
  // undici checks timeouts on a coarse timer (about 1 s): three endpoints, each bounded.
  assert.ok(Date.now() - started < 7000, 'bounded by the timeout, not by the upstream');
});

test('a stream the upstream breaks ends with the vendor’s stream error', async () => {
  srv.sim.faults.add({ breakStreamAfter: 2, stream: true });
  const stream = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 }).messages.stream({
    model: 'x',
    max_tokens: 200,
    messages: [{ role: 'user', content: 'Tell me about the moon in detail.' }],
  });
  await assert.rejects(stream.finalMessage(), (e: Error) => /upstream|stream/i.test(e.message));
  srv.sim.faults.clear();
});

/** The data frames of a generate-content stream, read to its end. */
async function geminiFrames(prompt: string): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${srv.url}/v1/generate/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
    method: 'POST',
    headers: { 'x-goog-api-key': t.key, 'content-type': 'application/json' },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] }),
  });
  assert.equal(res.status, 200);
  const text = await res.text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => JSON.parse(l.slice(6)) as Record<string, any>);
}

test('a Gemini stream the upstream breaks ends with UNAVAILABLE (502), as the JSON path answers, not INTERNAL', async () => {
  srv.sim.faults.add({ breakStreamAfter: 2, stream: true, promptIncludes: '[break]' });
  const frames = await geminiFrames('[break] Tell me about the moon in detail.');
  srv.sim.faults.clear();
  const last = frames.at(-1)!;
  assert.equal(last.error?.code, 502, JSON.stringify(last));
  assert.equal(last.error?.status, 'UNAVAILABLE');
  assert.match(last.error?.message, /upstream stream broke.*retry/i);
});

test('a Gemini stream whose upstream goes silent past UPSTREAM_TIMEOUT_MS ends with DEADLINE_EXCEEDED (504)', async () => {
  // Events far apart against a 300 ms timeout (undici's timer is coarse, about 1 s).
  srv.sim.faults.add({ chunkDelayMs: 5_000, stream: true, promptIncludes: '[silent]' });
  const frames = await geminiFrames('[silent] Tell me about the sea.');
  srv.sim.faults.clear();
  const last = frames.at(-1)!;
  assert.equal(last.error?.code, 504, JSON.stringify(last));
  assert.equal(last.error?.status, 'DEADLINE_EXCEEDED');
  assert.match(last.error?.message, /timed out/);
});

test('a messages stream whose upstream goes silent ends with timeout_error, the 504 type, not api_error', async () => {
  srv.sim.faults.add({ chunkDelayMs: 5_000, stream: true, promptIncludes: '[silent]' });
  const messages = await fetch(`${srv.url}/v1/messages`, {
    method: 'POST',
    headers: { 'x-api-key': t.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'x', max_tokens: 200, stream: true, messages: [{ role: 'user', content: '[silent] Tell me about the moon.' }] }),
  }).then((r) => r.text());
  srv.sim.faults.clear();
  const errorEvent = messages.split('\n\n').find((b) => b.startsWith('event: error'));
  assert.ok(errorEvent, messages.slice(-400));
  const data = JSON.parse(errorEvent!.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
  assert.equal(data.error.type, 'timeout_error');
  assert.match(data.error.message, /timed out/);
});

// The stream pump's writes (stream.ts): what the client receives, and when. The upstream here is a
// body of raw SSE bytes, as undici hands it over; the sink records every write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { WIRES } from '../../wire/index.ts';
import type { UpstreamResponse } from '../../infra/upstream.ts';
import { pumpStream, type StreamSink } from './stream.ts';

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'up-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;
const USAGE = `data: ${JSON.stringify({ id: 'up-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } })}\n\n`;

function recordingSink(): StreamSink & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    open() {},
    write(text: string) {
      writes.push(text);
      return true;
    },
    drained: async () => {},
    end() {},
    closed: false,
  };
}

async function pump(chunks: string[], pipeThrough: boolean) {
  const parsed = WIRES.openai.parseRequest({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Say three words.' }] });
  assert.ok(parsed.ok);
  const sink = recordingSink();
  const settled: unknown[] = [];
  await pumpStream({
    upstream: { status: 200, headers: { 'content-type': 'text/event-stream' }, body: Readable.from(chunks.map((c) => Buffer.from(c))) } as unknown as UpstreamResponse,
    providerWire: WIRES.openai,
    clientWire: WIRES.openai,
    call: parsed.value,
    pipeThrough,
    sink,
    signal: new AbortController().signal,
    settle: async (usage, counted) => {
      settled.push({ usage, text: counted.outputText, writesSoFar: sink.writes.length });
    },
  });
  return { sink, settled };
}

for (const pipeThrough of [false, true]) {
  const how = pipeThrough ? 'passed through' : 're-encoded';
  test(`${how}: the stream's first frames leave alone, before the rest of their upstream chunk; later chunks leave whole; the last frame waits for settlement`, async () => {
    // One upstream chunk carrying four events (what a fast upstream, or TCP coalescing, delivers).
    const first = chunk('One') + chunk(' two') + chunk(' three') + chunk(null, 'stop');
    const { sink, settled } = await pump([first, USAGE + 'data: [DONE]\n\n'], pipeThrough);
    const frames = (s: string) => s.split('\n\n').filter(Boolean);
    // The frames of the first upstream event only (re-encoded, it opens with the role frame).
    assert.match(sink.writes[0], /One/);
    assert.doesNotMatch(sink.writes[0], / two/, `first write: ${sink.writes[0]}`);
    assert.ok(frames(sink.writes[0]).length <= 2);
    assert.ok(frames(sink.writes[1]).length >= 2, 'the rest of the first chunk left in one write');
    assert.match(sink.writes[1], / two[\s\S]* three/);
    const all = sink.writes.join('');
    assert.ok(all.indexOf('One') < all.indexOf(' two') && all.indexOf(' two') < all.indexOf(' three'), 'order kept');
    assert.match(all, /data: \[DONE\]\n\n$/);
    // Settlement ran before the held-back end of the stream was written (D8).
    assert.equal(settled.length, 1);
    const s = settled[0] as { usage: { outputTokens?: number }; text: string; writesSoFar: number };
    assert.equal(s.text, 'One two three');
    assert.equal(s.usage.outputTokens, 3);
    assert.ok(s.writesSoFar < sink.writes.length, 'the last frame went out after settlement');
    assert.doesNotMatch(sink.writes.slice(0, s.writesSoFar).join(''), /\[DONE\]/);
  });
}

test('an upstream chunk with a single event costs no extra write', async () => {
  const { sink } = await pump([chunk('One'), chunk(' two'), chunk(null, 'stop') + USAGE + 'data: [DONE]\n\n'], false);
  // One write per upstream chunk, as before: 'One', ' two', then the held-back end after settlement.
  assert.equal(sink.writes.length, 3, JSON.stringify(sink.writes));
  assert.match(sink.writes[0], /One/);
  assert.match(sink.writes[1], / two/);
  assert.match(sink.writes[2], /\[DONE\]/);
});

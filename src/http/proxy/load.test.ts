// A replica's proxy load (D17): past MAX_INFLIGHT_CALLS the next call is shed at once with the
// vendor's native 503 and Retry-After, and the count comes back to zero; a drain refuses new calls
// in the vendor's shape, turns /health to 503, and resolves once the calls in flight have finished.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { callLoad } from './load.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ worker: false, env: { MAX_INFLIGHT_CALLS: '4', RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000' } });
});
after(() => srv.close());

test('past MAX_INFLIGHT_CALLS calls are shed at once with a native 503 and Retry-After; the count returns to zero', async () => {
  const t = await tenantWithKey(srv);
  // Long enough that all ten calls arrive while the first four are still upstream, even on a busy machine.
  srv.sim.faults.add({ delayMs: 2_500, promptIncludes: '[slow]' });
  try {
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const outs = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const t0 = performance.now();
        try {
          await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `[slow] hello ${i}` }] });
          return { ok: true, ms: performance.now() - t0 };
        } catch (e) {
          return { ok: false, e: e as InstanceType<typeof OpenAI.APIError>, ms: performance.now() - t0 };
        }
      }),
    );
    const shed = outs.filter((o) => !o.ok);
    const admitted = outs.filter((o) => o.ok);
    assert.equal(admitted.length, 4);
    assert.equal(shed.length, 6);
    const fastestAdmitted = Math.min(...admitted.map((o) => o.ms));
    for (const o of shed) {
      assert.ok(o.e instanceof OpenAI.APIError);
      assert.equal(o.e.status, 503);
      assert.equal(o.e.headers?.get('retry-after'), '1');
      assert.match(o.e.message, /4 calls in flight/);
      assert.ok(o.ms < fastestAdmitted, `refused at once (${o.ms.toFixed(0)} ms), not after the admitted calls (${fastestAdmitted.toFixed(0)} ms)`);
    }
    assert.equal(callLoad(srv.services).inflight, 0);
    assert.equal(callLoad(srv.services).shed, 6);
    // Capacity is back: the next call goes through.
    assert.ok((await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] })).choices[0]);
  } finally {
    srv.sim.faults.clear();
  }
});

test('a drain refuses new calls in the vendor shape, turns /health to 503 and waits for the calls in flight', async () => {
  const t = await tenantWithKey(srv);
  srv.sim.faults.add({ delayMs: 600, promptIncludes: '[slow]' });
  const a = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 });
  const inflight = a.messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [{ role: 'user', content: '[slow] hello' }] });
  await new Promise((r) => setTimeout(r, 150));
  const load = callLoad(srv.services);
  assert.equal(load.inflight, 1);
  const drained = load.drain(10_000);
  await assert.rejects(a.messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }), (e: unknown) => {
    assert.ok(e instanceof Anthropic.APIError);
    assert.equal(e.status, 503);
    assert.equal((e.error as { error: { type: string } }).error.type, 'overloaded_error');
    assert.equal(e.headers?.get('retry-after'), '1');
    return true;
  });
  assert.equal((await fetch(`${srv.url}/health`)).status, 503);
  const answer = await inflight;
  assert.equal(answer.stop_reason, 'end_turn');
  assert.equal(await drained, true);
  assert.equal(load.inflight, 0);
  srv.sim.faults.clear();
});

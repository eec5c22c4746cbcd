// Thread continuity (issue 19 item 7): the calls of one `x-service-conversation-id` keep the class
// of their earlier turns (never lower) and the endpoint that answered them while it stays healthy,
// in each of the three shapes; a failing endpoint is left and the thread moves to the next one.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { classRank, type ModelClass } from '../src/core/model-class.ts';
import { HealthTracker } from '../src/app/calls/health.ts';
import { startTestServer, tenantWithKey, type TestServer } from './harness.ts';

let srv: TestServer;
let t: Awaited<ReturnType<typeof tenantWithKey>>;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000', RATE_LIMIT_GENERATE_PER_MIN: '1000' } });
  t = await tenantWithKey(srv);
});
after(() => srv.close());

const HARD =
  'Design a fault-tolerant, multi-region consensus protocol for a distributed database, prove its safety and liveness formally, ' +
  'analyse its message complexity under network partitions, and give a complete Rust implementation with property-based tests.';
const EASY = 'Thanks!';

interface Turn {
  modelClass: ModelClass;
  endpoint: string;
}

/** One turn in a shape, with or without a conversation id: the class and endpoint that served it. */
type Send = (prompt: string, conversation?: string) => Promise<Turn>;

async function endpointOf(callId: string | null): Promise<string> {
  assert.ok(callId);
  const r = await srv.services.db.selectFrom('call_logs').select(['provider_key', 'model_id']).where('tenant_id', '=', t.tenantId).where('id', '=', callId).executeTakeFirstOrThrow();
  return `${r.provider_key}:${r.model_id}`;
}

const headers = (conversation?: string): Record<string, string> => (conversation ? { 'x-service-conversation-id': conversation } : {});

const shapes: Record<string, Send> = {
  openai: async (prompt, conversation) => {
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0, defaultHeaders: headers(conversation) });
    const { response } = await c.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: prompt }] }).withResponse();
    return { modelClass: response.headers.get('x-service-model-class') as ModelClass, endpoint: await endpointOf(response.headers.get('x-service-call-id')) };
  },
  anthropic: async (prompt, conversation) => {
    const c = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0, defaultHeaders: headers(conversation) });
    const { response } = await c.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, messages: [{ role: 'user', content: prompt }] }).withResponse();
    return { modelClass: response.headers.get('x-service-model-class') as ModelClass, endpoint: await endpointOf(response.headers.get('x-service-call-id')) };
  },
  gemini: async (prompt, conversation) => {
    const g = new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: `${srv.url}/v1/generate`, headers: headers(conversation) } });
    const r = await g.models.generateContent({ model: 'gemini-2.5-flash', contents: prompt });
    const h = r.sdkHttpResponse!.headers!;
    return { modelClass: h['x-service-model-class'] as ModelClass, endpoint: await endpointOf(h['x-service-call-id']) };
  },
};

describe('x-service-conversation-id keeps a thread on its class and endpoint', () => {
  for (const [shape, send] of Object.entries(shapes)) {
    test(`${shape}: a light follow-up stays on the first turn's class and endpoint; without the id it would not`, async () => {
      const alone = await send(EASY);
      const conv = `thread-${shape}-${Date.now()}`;
      const first = await send(HARD, conv);
      assert.ok(classRank(first.modelClass) > classRank(alone.modelClass), `the hard turn (${first.modelClass}) is above the light one (${alone.modelClass})`);
      const second = await send(EASY, conv);
      assert.equal(second.modelClass, first.modelClass, 'never lower than an earlier turn');
      assert.equal(second.endpoint, first.endpoint, 'the same endpoint: the same model and a warm prompt cache');
      const third = await send(EASY, conv);
      assert.deepEqual(third, first);
      // Another conversation is not affected.
      assert.equal((await send(EASY, `${conv}-other`)).modelClass, alone.modelClass);
    });
  }

  test('Responses API: a chain of previous_response_id is one thread (D19)', async () => {
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const turn = async (input: string, previous?: string) => {
      const { data, response } = await c.responses.create({ model: 'gpt-4o', input, ...(previous ? { previous_response_id: previous } : {}) }).withResponse();
      return { id: data.id, modelClass: response.headers.get('x-service-model-class') as ModelClass, endpoint: await endpointOf(response.headers.get('x-service-call-id')) };
    };
    const alone = await turn(EASY);
    const first = await turn(HARD);
    assert.ok(classRank(first.modelClass) > classRank(alone.modelClass));
    const second = await turn(EASY, first.id);
    const third = await turn(EASY, second.id);
    for (const next of [second, third]) {
      assert.equal(next.modelClass, first.modelClass);
      assert.equal(next.endpoint, first.endpoint);
    }
  });

  test('an endpoint that fails is left: the thread fails over and stays on the new endpoint, at its class', async () => {
    const conv = `thread-failover-${Date.now()}`;
    const first = await shapes.openai(HARD, conv);
    const provider = first.endpoint.split(':')[0] as 'openai';
    const [rule] = srv.sim.faults.add({ provider, status: 503 });
    try {
      const moved = await shapes.openai(EASY, conv);
      assert.notEqual(moved.endpoint, first.endpoint);
      assert.ok(classRank(moved.modelClass) >= classRank(first.modelClass));
      srv.sim.faults.remove(rule);
      // The failed endpoint is healthy again and would be Layer 2's first choice for a new thread…
      srv.services.calls.health = new HealthTracker();
      const fresh = await shapes.openai(HARD, `${conv}-fresh`);
      assert.notEqual(fresh.endpoint, moved.endpoint, 'without a pin, Layer 2 ranks another endpoint first');
      // …but the thread stays where it moved: its pin, not the ranking, picks the endpoint.
      const after = await shapes.openai(EASY, conv);
      assert.equal(after.endpoint, moved.endpoint, 'the thread stays where it moved');
    } finally {
      srv.sim.faults.clear();
    }
  });
});

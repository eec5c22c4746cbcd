// Spec §8 rate limits on the proxy: per-tenant token buckets per surface, 429 with Retry-After,
// X-RateLimit-Limit and X-RateLimit-Remaining (and the IETF draft headers, D6), each SDK raising
// its own RateLimitError; with REDIS_URL, two replicas share one bucket.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { createTestDatabase, startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

const servers: TestServer[] = [];
after(async () => {
  for (const s of servers.reverse()) await s.close();
});
const ask = { model: 'x', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('proxy rate limits (in-process buckets)', () => {
  test('the defaults are the spec’s: 120/min chat, 60/min messages and generate', async () => {
    const srv = await startTestServer();
    servers.push(srv);
    const t = await tenantWithKey(srv);
    const chat = await fetch(`${srv.url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, body: JSON.stringify(ask) });
    assert.equal(chat.headers.get('x-ratelimit-limit'), '120');
    assert.equal(chat.headers.get('x-ratelimit-remaining'), '119');
    const msg = await fetch(`${srv.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': t.key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify({ ...ask, max_tokens: 5 }) });
    assert.equal(msg.status, 200);
    assert.equal(msg.headers.get('x-ratelimit-limit'), '60');
    const gen = await fetch(`${srv.url}/v1/generate-proxy/v1beta/models/m:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': t.key, 'content-type': 'application/json' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }) });
    assert.equal(gen.status, 200);
    assert.equal(gen.headers.get('x-ratelimit-limit'), '60');
  });

  test('the bucket empties at its limit: the next call is 429 with the three headers, per tenant', async () => {
    const srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '3', RATE_LIMIT_MESSAGES_PER_MIN: '2' } });
    servers.push(srv);
    const t = await tenantWithKey(srv);
    const other = await tenantWithKey(srv);
    const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    for (let i = 0; i < 3; i++) await client.chat.completions.create(ask);
    const err = await client.chat.completions.create(ask).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof OpenAI.RateLimitError, String(err));
    assert.ok(Number(err.headers?.get('retry-after')) >= 1);
    assert.equal(err.headers?.get('x-ratelimit-limit'), '3');
    assert.equal(err.headers?.get('x-ratelimit-remaining'), '0');
    assert.match(err.headers?.get('ratelimit-policy') ?? '', /q=3;w=60/);
    // Another tenant has its own bucket.
    const o = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: other.key, maxRetries: 0 }).chat.completions.create(ask);
    assert.ok(o.choices.length);
    // The messages surface has its own bucket and its SDK raises its own error.
    const a = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 });
    await a.messages.create({ ...ask, max_tokens: 5 });
    await a.messages.create({ ...ask, max_tokens: 5 });
    await assert.rejects(a.messages.create({ ...ask, max_tokens: 5 }), Anthropic.RateLimitError);
    // A minute later the bucket is full again.
    srv.clock.advance(60_000);
    assert.ok((await client.chat.completions.create(ask)).choices.length);
  });
});

describe('proxy rate limits shared through Redis', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, () => {
  test('two server instances on one Redis draw from one bucket per tenant', async () => {
    const database = await createTestDatabase();
    const env = { REDIS_URL: process.env.REDIS_URL!, RATE_LIMIT_CHAT_PER_MIN: '4', REDIS_KEY_PREFIX: `sbt:${crypto.randomUUID()}:` };
    const a = await startTestServer({ env, database });
    const b = await startTestServer({ env, database });
    servers.push(a, b);
    const t = await tenantWithKey(a);
    const ca = new OpenAI({ baseURL: `${a.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const cb = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: t.key, maxRetries: 0 });
    await ca.chat.completions.create(ask);
    await cb.chat.completions.create(ask);
    await ca.chat.completions.create(ask);
    await cb.chat.completions.create(ask);
    await assert.rejects(ca.chat.completions.create(ask), OpenAI.RateLimitError);
    await assert.rejects(cb.chat.completions.create(ask), OpenAI.RateLimitError);
    await b.close();
    servers.pop();
    await a.close();
    servers.pop();
    await database.drop();
  });
});

// Caches on every replica hear about changes at once (issue 2.6 "a revocation invalidates at
// once", across replicas): with REDIS_URL, a key revoked through one replica stops working on
// another immediately, and a project edit reaches the other replica's next call.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createTestDatabase, startTestServer, tenantWithKey, type TestServer, type TestDatabase } from './harness.ts';

describe('two replicas on one Redis', { skip: !process.env.REDIS_URL && 'REDIS_URL is not set' }, () => {
  let a: TestServer;
  let b: TestServer;
  let database: TestDatabase;
  after(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  test('a revocation on one replica evicts the key from the other’s cache at once; a project edit too', async () => {
    database = await createTestDatabase();
    const env = { REDIS_URL: process.env.REDIS_URL!, REDIS_KEY_PREFIX: `sbt:${crypto.randomUUID()}:`, RATE_LIMIT_CHAT_PER_MIN: '1000' };
    a = await startTestServer({ env, database });
    b = await startTestServer({ env, database, sim: a.sim });
    const t = await tenantWithKey(a);
    const viaB = new OpenAI({ baseURL: `${b.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const ask = { model: 'x', messages: [{ role: 'user' as const, content: 'Translate "good night" into Spanish.' }] };

    // B caches the call context; A raises the floor; B's next call already uses the new one.
    await a.api('PATCH', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken, body: { qualityFloor: 0.3 } });
    const low = (await viaB.chat.completions.create(ask).withResponse()).response.headers.get('x-service-model-class')!;
    await a.api('PATCH', `/api/projects/${t.defaultProjectId}`, { token: t.accessToken, body: { qualityFloor: 0.95 } });
    await new Promise((r) => setTimeout(r, 100)); // one pub/sub hop
    const high = (await viaB.chat.completions.create(ask).withResponse()).response.headers.get('x-service-model-class')!;
    const rungs = ['economy', 'standard', 'premium', 'frontier'];
    assert.ok(rungs.indexOf(high) > rungs.indexOf(low), `${low} → ${high}`);

    // B has the key cached (it just served calls); A revokes it.
    assert.equal((await a.api('DELETE', `/api/keys/${t.keyId}`, { token: t.accessToken })).status, 200);
    await new Promise((r) => setTimeout(r, 100));
    await assert.rejects(viaB.chat.completions.create(ask), OpenAI.AuthenticationError);
  });
});

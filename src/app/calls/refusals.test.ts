// A call the wallet cannot cover is refused with 402 in the vendor's own error shape, and the
// message says where to top up (issue 14).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer();
});
after(() => srv.close());

test('402 names the billing page to top up at, on the chat-completions and messages shapes', async () => {
  const t = await tenantWithKey(srv, { micros: 1n });
  const openaiErr = await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions
    .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello there' }] })
    .then(() => null, (e: unknown) => e);
  assert.ok(openaiErr instanceof OpenAI.APIError, String(openaiErr));
  assert.equal(openaiErr.status, 402);
  assert.ok(openaiErr.message.includes(`Top up at ${srv.services.publicUrl}/billing`), openaiErr.message);

  const anthropicErr = await new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 }).messages
    .create({ model: 'claude-3-5-haiku-latest', max_tokens: 100, messages: [{ role: 'user', content: 'Hello there' }] })
    .then(() => null, (e: unknown) => e);
  assert.ok(anthropicErr instanceof Anthropic.APIError, String(anthropicErr));
  assert.equal(anthropicErr.status, 402);
  assert.ok(anthropicErr.message.includes(`${srv.services.publicUrl}/billing`), anthropicErr.message);
});

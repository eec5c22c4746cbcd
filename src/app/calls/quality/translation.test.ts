// A translation prompt on the default run (the simulated upstream) is answered in the language it
// asks for, so the inline check's language rule passes: one attempt, one debit, no escalation
// (issue 14, item 5). Driven through the proxy with the official SDKs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../../test/harness.ts';
import { languageVerdict } from '../../../core/quality/language.ts';
import type { Language } from '../../../core/quality/instructions.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: { RATE_LIMIT_CHAT_PER_MIN: '1000', RATE_LIMIT_MESSAGES_PER_MIN: '1000' } });
});
after(() => srv.close());

async function attempts(tenantId: string) {
  const calls = await sql<{ escalated: boolean }>`select escalated from call_logs where tenant_id = ${tenantId}`.execute(srv.services.db);
  const debits = await sql<{ n: number }>`select count(*)::int as n from ledger_entries where tenant_id = ${tenantId} and event_type = 'AI_USAGE'`.execute(srv.services.db);
  return { calls: calls.rows, debits: debits.rows[0]!.n };
}

const CASES: Array<[Language, string]> = [
  ['french', 'Translate into French: The weather is nice today and we are going to the beach with our friends.'],
  ['german', 'Translate this text to German: Our new office opens next Monday near the central station.'],
  ['spanish', 'Please translate into Spanish: I would like to book a table for four people tonight.'],
  ['italian', 'Translate to Italian: The museum is closed on Mondays, but the garden stays open.'],
  ['portuguese', 'Translate into Portuguese: Thank you for your order, it will ship tomorrow morning.'],
  ['japanese', 'Translate the following into Japanese: The train to Kyoto leaves from platform three.'],
  ['chinese', 'Translate into Chinese: The meeting has been moved to Thursday afternoon.'],
];

for (const [language, text] of CASES) {
  test(`a ${language} translation through the chat-completions shape: answered in ${language}, one attempt, not escalated`, async () => {
    const t = await tenantWithKey(srv);
    const c = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const r = await c.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: text }] });
    const answer = r.choices[0]!.message.content ?? '';
    assert.equal(languageVerdict(answer, language), 'match', answer);
    const a = await attempts(t.tenantId);
    assert.deepEqual(a.calls, [{ escalated: false }], 'one attempt, not escalated');
    assert.equal(a.debits, 1, 'billed once');
  });
}

test('the same through the messages shape, with the request in a system prompt', async () => {
  const t = await tenantWithKey(srv);
  const c = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 });
  const r = await c.messages.create({
    model: 'claude-3-5-haiku-latest',
    max_tokens: 400,
    system: 'You are a translator. Always reply in Spanish.',
    messages: [{ role: 'user', content: 'Where is the nearest pharmacy? I need something for a headache.' }],
  });
  const answer = r.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
  assert.equal(languageVerdict(answer, 'spanish'), 'match', answer);
  const a = await attempts(t.tenantId);
  assert.deepEqual(a.calls, [{ escalated: false }]);
  assert.equal(a.debits, 1);
});

// Learning-plane test fixtures: real calls through the OpenAI SDK, scored, then the plane's runs
// driven with the test clock until proposals are minted.
import OpenAI from 'openai';
import { sql } from 'kysely';
import type { TestServer } from './harness.ts';
import { scorePending } from '../src/app/calls/quality/scoring.ts';
import { runLearningTick } from '../src/app/learning/pipeline.ts';

export const LEARNING_PROMPTS = [
  'Write a python function that parses ISO dates',
  'Translate into French: good morning, how are you?',
  'Summarize the key points of this meeting transcript: we agreed to ship on Friday.',
  'Hi, what do you think about houseplants?',
  'Solve the equation 2x + 3 = 11',
  'Extract the fields as json from this invoice: ACME, 12 EUR, 2026-01-02',
];

/** Env for a server whose plane is driven by hand and whose coverage detector fires on any traffic. */
export const LEARNING_TEST_ENV = { LEARNING_ENABLED: 'false', LEARNING_COVERAGE_MIN_EVIDENCE: '1000' };

export async function outboxCount(srv: TestServer): Promise<number> {
  return (await sql<{ n: number }>`select count(*)::int as n from learning_outbox`.execute(srv.services.db)).rows[0].n;
}

/** `n` calls through the real proxy, waited for (group commit) and QA-scored. */
export async function makeCalls(srv: TestServer, key: string, n: number): Promise<void> {
  const start = await outboxCount(srv);
  const client = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: key, maxRetries: 0 });
  for (let i = 0; i < n; i++) {
    await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: LEARNING_PROMPTS[i % LEARNING_PROMPTS.length] }] });
  }
  for (let i = 0; i < 100 && (await outboxCount(srv)) < start + n; i++) await new Promise((r) => setTimeout(r, 50));
  while ((await scorePending(srv.services)) > 0);
}

/** Runs the plane in successive buckets until at least one proposal is minted (coverage fires on every family seen). */
export async function mintProposals(srv: TestServer): Promise<string[]> {
  for (let i = 0; i < srv.services.config.LEARNING_SIGNAL_MIN_FIRES + 1; i++) {
    await runLearningTick(srv.services);
    srv.clock.advance(srv.services.config.LEARNING_INTERVAL_SECONDS * 1000);
  }
  return (await sql<{ id: string }>`select id from learning_proposals order by created_at, id`.execute(srv.services.db)).rows.map((r) => r.id);
}

// The plane never slows live traffic (spec §1, D15): while another connection holds every table
// of the plane in ACCESS EXCLUSIVE mode and row-locks every outbox row (what a consumer holds
// mid-run, and more), calls through the three vendor SDKs still succeed, promptly, and their
// outbox rows are written. Then the plane consumes them as usual.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { sql } from 'kysely';
import { startTestServer, tenantWithKey, type TestServer } from '../../../test/harness.ts';
import { LEARNING_TEST_ENV, makeCalls, outboxCount } from '../../../test/learning.ts';
import { runLearningTick } from './pipeline.ts';

let srv: TestServer;
before(async () => {
  srv = await startTestServer({ env: LEARNING_TEST_ENV });
});
after(() => srv.close());

test('every call succeeds while the learning tables are locked', async () => {
  const t = await tenantWithKey(srv);
  await makeCalls(srv, t.key, 6);
  await runLearningTick(srv.services);

  const holder = new pg.Client({ connectionString: srv.database.url });
  await holder.connect();
  const tables = (await holder.query<{ t: string }>(`select tablename as t from pg_tables where schemaname = 'public' and tablename ~ '^learning_' and tablename <> 'learning_outbox'`)).rows.map((r) => r.t);
  assert.ok(tables.length >= 20, tables.join());
  await holder.query('begin');
  await holder.query(`lock table ${tables.join(', ')} in access exclusive mode`);
  const locked = await holder.query('select id from learning_outbox for update');
  assert.ok(locked.rowCount! >= 6);
  // A plane run started now would wait on these locks, off to the side; calls must not.
  const blockedRun = runLearningTick(srv.services);

  const before = await outboxCount(srv);
  const started = Date.now();
  const openai = new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0, timeout: 10_000 });
  const anthropic = new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0, timeout: 10_000 });
  const gemini = new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: `${srv.url}/v1/generate` } });
  const answers: string[] = [];
  for (let i = 0; i < 4; i++) {
    const a = await openai.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: `Write a haiku about locks, take ${i}` }] });
    answers.push(a.choices[0].message.content ?? '');
    const b = await anthropic.messages.create({ model: 'claude-3-5-haiku-latest', max_tokens: 64, messages: [{ role: 'user', content: `Name a colour, take ${i}` }] });
    answers.push(b.content[0].type === 'text' ? b.content[0].text : '');
    const c = await gemini.models.generateContent({ model: 'gemini-2.0-flash', contents: `Say hello, take ${i}` });
    answers.push(c.text ?? '');
  }
  const elapsed = Date.now() - started;
  assert.equal(answers.length, 12);
  assert.ok(answers.every((a) => a.length > 0));
  // Twelve calls on the simulated upstream: seconds at most, never a lock wait.
  assert.ok(elapsed < 8_000, `calls took ${elapsed} ms with the plane locked`);
  for (let i = 0; i < 100 && (await outboxCount(srv)) < before + 12; i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok((await outboxCount(srv)) >= before + 12, 'outbox rows were written while the plane was locked');

  await holder.query('rollback');
  await holder.end();
  await blockedRun;
  const r = await runLearningTick(srv.services);
  const pending = (await sql<{ n: number }>`select count(*)::int as n from learning_outbox where consumed_at is null and created_at < ${new Date(srv.clock.now().getTime() - 120_000)}`.execute(srv.services.db)).rows[0].n;
  assert.equal(pending, 0);
  assert.ok(r.consumed >= 0);
});

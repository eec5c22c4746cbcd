// Issue 19, point 5: the same request gives the same Layer 1 decision whatever wire shape it
// arrives in (system text as a system message, `system` or `systemInstruction`; text split into
// parts; multi-turn). First a labelled set from the corpus, re-encoded into all three shapes and
// parsed by the real wire parsers; then the official SDKs against the real server, comparing the
// call-log rows they leave.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { sql } from 'kysely';
import type { CanonicalRequest } from '../src/core/canonical/types.ts';
import { classify, CLASSIFIER_VERSION } from '../src/core/routing/classify.ts';
import { ROUTING_TABLE_VERSION } from '../src/core/routing/routing-table.ts';
import { loadTraining, parseBody } from '../scripts/routing-corpus/load.ts';
import { startTestServer, tenantWithKey, type TestServer } from './harness.ts';

interface Turn {
  role: 'user' | 'assistant';
  parts: string[];
}

/** The text content of a canonical request as system text and turns of text parts. */
function textOf(req: CanonicalRequest): { system?: string; turns: Turn[] } {
  const turns: Turn[] = [];
  for (const m of req.messages) {
    if (m.role === 'tool') continue;
    const parts = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : []));
    if (parts.length > 0) turns.push({ role: m.role, parts });
  }
  return { system: req.system, turns };
}

const bodies = (system: string | undefined, turns: Turn[]) => ({
  openai: {
    model: 'auto',
    messages: [
      ...(system ? [{ role: 'system', content: system }] : []),
      ...turns.map((t) => ({ role: t.role, content: t.parts.length === 1 ? t.parts[0] : t.parts.map((text) => ({ type: 'text', text })) })),
    ],
  },
  anthropic: {
    model: 'auto',
    max_tokens: 1024,
    ...(system ? { system: [{ type: 'text', text: system }] } : {}),
    messages: turns.map((t) => ({ role: t.role, content: t.parts.map((text) => ({ type: 'text', text })) })),
  },
  gemini: {
    ...(system ? { systemInstruction: { parts: [{ text: system }] } } : {}),
    contents: turns.map((t) => ({ role: t.role === 'user' ? 'user' : 'model', parts: t.parts.map((text) => ({ text })) })),
  },
});

describe('one labelled set, three wire shapes, one decision', () => {
  test('every tenth corpus row decides the same in the OpenAI, Anthropic and Gemini shapes', () => {
    const rows = loadTraining().filter((_, i) => i % 10 === 0);
    assert.ok(rows.length > 300);
    let multiTurn = 0;
    let withSystem = 0;
    let withParts = 0;
    for (const row of rows) {
      const { system, turns } = textOf(row.request);
      if (turns.length > 1) multiTurn++;
      if (system) withSystem++;
      if (turns.some((t) => t.parts.length > 1)) withParts++;
      const decided = Object.entries(bodies(system, turns)).map(([shape, body]) => {
        const parsed = parseBody(shape as 'openai' | 'anthropic' | 'gemini', body);
        assert.ok(parsed.ok, `${row.id} ${shape}: ${parsed.ok ? '' : parsed.message}`);
        const c = classify(parsed.value);
        return { shape, family: c.taskFamily, complexity: c.complexity, confidence: c.features.familyConfidence };
      });
      for (const d of decided.slice(1)) {
        assert.deepEqual(
          { family: d.family, complexity: d.complexity, confidence: d.confidence },
          { family: decided[0].family, complexity: decided[0].complexity, confidence: decided[0].confidence },
          `${row.id}: ${d.shape} differs from ${decided[0].shape}`,
        );
      }
    }
    // The set exercises what differs between the shapes.
    assert.ok(multiTurn > 30 && withSystem > 100 && withParts > 20, `${multiTurn} ${withSystem} ${withParts}`);
  });
});

describe('the official SDKs through the real server', () => {
  let srv: TestServer;
  let t: Awaited<ReturnType<typeof tenantWithKey>>;
  before(async () => {
    srv = await startTestServer();
    t = await tenantWithKey(srv);
  });
  after(() => srv.close());

  test('a system prompt, a multi-turn thread and split parts leave identical Layer 1 decisions on the call log', async () => {
    const system = 'You are a math tutor. Show the reasoning step by step.';
    const first = 'I have an exam on Friday.';
    const reply = 'Good luck! What topic would you like to practise?';
    const question = ['Prove that the square root of 3 is irrational,', 'then prove that there are infinitely many primes.'];

    await new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: t.key, maxRetries: 0 }).chat.completions.create({
      model: 'auto',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: first },
        { role: 'assistant', content: reply },
        { role: 'user', content: question.map((text) => ({ type: 'text' as const, text })) },
      ],
    });
    await new Anthropic({ baseURL: srv.url, apiKey: t.key, maxRetries: 0 }).messages.create({
      model: 'auto',
      max_tokens: 512,
      system,
      messages: [
        { role: 'user', content: first },
        { role: 'assistant', content: reply },
        { role: 'user', content: question.map((text) => ({ type: 'text' as const, text })) },
      ],
    });
    await new GoogleGenAI({ apiKey: t.key, httpOptions: { baseUrl: `${srv.url}/v1/generate` } }).models.generateContent({
      model: 'gemini-2.5-flash',
      config: { systemInstruction: system },
      contents: [
        { role: 'user', parts: [{ text: first }] },
        { role: 'model', parts: [{ text: reply }] },
        { role: 'user', parts: question.map((text) => ({ text })) },
      ],
    });

    const rows = (
      await sql<{ client_shape: string; task_family: string; complexity: string; model_class: string; routing_table_version: string; routing_features: Record<string, unknown> }>`
        select client_shape, task_family, complexity, model_class, routing_table_version, routing_features
        from call_logs where tenant_id = ${t.tenantId} and attempt = 1 order by created_at`.execute(srv.services.db)
    ).rows;
    assert.deepEqual(rows.map((r) => r.client_shape).sort(), ['anthropic', 'gemini', 'openai']);
    for (const r of rows) {
      assert.equal(r.task_family, 'math', r.client_shape);
      assert.equal(r.complexity, 'high', r.client_shape);
      assert.equal(r.routing_table_version, ROUTING_TABLE_VERSION);
      assert.equal(r.routing_features.classifierVersion, CLASSIFIER_VERSION, 'the weights version sits beside the table version');
    }
    assert.equal(new Set(rows.map((r) => r.model_class)).size, 1);
    assert.deepEqual(rows[1].routing_features, rows[0].routing_features);
    assert.deepEqual(rows[2].routing_features, rows[0].routing_features);
  });
});

// Fixtures for the Layer 1 micro-benchmark (bench/). The core does not time itself: timing is
// the benchmark's job and timed unit tests are flaky by nature. These exports only build a fixed,
// realistic 8k-token request once and hand back a cheap closure, so the benchmark measures
// decideLayer1 and nothing else.
import type { CanonicalRequest } from '../canonical/types.ts';
import { CHARS_PER_TOKEN } from '../pricing/estimate.ts';
import { decideLayer1, type Layer1Decision } from './layer1.ts';

const PROSE =
  'Our service ingests order events from several regional queues, enriches them with customer data ' +
  'and writes the result to the warehouse every few minutes. Latency has grown since the last release ' +
  'and some batches arrive twice. ';
const CODE =
  '```ts\nexport async function enrich(batch: OrderEvent[]): Promise<Enriched[]> {\n' +
  '  const ids = batch.map((e) => e.customerId);\n  const customers = await repo.findMany(ids);\n' +
  '  return batch.map((e) => ({ ...e, customer: customers.get(e.customerId) ?? null }));\n}\n```\n';

/** A deterministic request of about `tokens` estimated tokens: prose and code, question at the end. */
export function benchmarkRequest(tokens = 8192): CanonicalRequest {
  const target = tokens * CHARS_PER_TOKEN;
  const question = '\nWhy are batches duplicated, and how would you refactor enrich() to be idempotent? Explain step by step.';
  const chunks: string[] = [];
  let length = question.length;
  for (let i = 0; length < target; i++) {
    const chunk = i % 4 === 3 ? CODE : PROSE;
    chunks.push(chunk);
    length += chunk.length;
  }
  chunks.push(question);
  return {
    shape: 'openai',
    model: 'auto',
    system: 'You are a senior backend engineer. Answer precisely and show code where it helps.',
    messages: [{ role: 'user', content: [{ type: 'text', text: chunks.join('').slice(0, target) + question }] }],
    maxTokens: 2048,
    stream: false,
  };
}

/** The request plus a zero-argument call of Layer 1 on it at the default floor. */
export function layer1BenchCase(tokens = 8192): { request: CanonicalRequest; run: () => Layer1Decision } {
  const request = benchmarkRequest(tokens);
  return { request, run: () => decideLayer1(request, { qualityFloor: 0.6 }) };
}

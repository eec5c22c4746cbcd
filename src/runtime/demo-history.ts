// A few days of simulated history for the demo tenant (D13, default run): calls routed and
// settled by the real code paths (Layer 1 on the prompt, the cheapest endpoint of its class,
// reservation and settlement with the benchmark provider), dated over the last four days, so the
// overview's savings, chart, runway and activity feed show real numbers on the first start.
// Every row is sealed in the ledger like any call; the prompts are labelled as demo history.
import { randomUUID } from 'node:crypto';
import type { Services } from '../app/shared/index.ts';
import { reserve } from '../app/money/index.ts';
import { Settler } from '../app/money/index.ts';
import { decideLayer1 } from '../core/routing/layer1.ts';
import { endpointsFromPriceBook } from '../core/routing/layer2.ts';
import type { CanonicalRequest } from '../core/canonical/types.ts';
import type { ProviderKey } from '../core/providers.ts';

const DAY = 86_400_000;
export const HISTORY_DAYS = 4;

const PROMPTS = [
  'Summarise this support ticket in two sentences: the customer cannot reset their password after the update.',
  'Translate into French: Your order has shipped and will arrive on Thursday.',
  'Write a SQL query that returns the ten customers with the highest revenue last month.',
  'Classify the sentiment of this review as positive, negative or neutral: "Fast delivery, but the box was damaged."',
  'Draft a polite reply declining a meeting invitation for next Tuesday.',
  'Explain the difference between a mutex and a semaphore with a short example.',
  'Extract the invoice number, date and total from: Invoice INV-2291, 12 March, total $1,240.00.',
  'Refactor this function to avoid the nested loops and explain the complexity of the new version.',
];

/** Usage that grows with the prompt, as the simulated upstream answers (≈ chars / 4). */
const usageOf = (prompt: string, i: number) => ({ inputTokens: Math.ceil(prompt.length / 4) + 40 + (i % 5) * 30, outputTokens: 120 + (i % 7) * 45 });

export async function seedDemoHistory(s: Services, t: { tenantId: string; projectId: string; keyId: string | null }, benchmark: ProviderKey): Promise<number> {
  const candidates = endpointsFromPriceBook();
  const cheapest = (cls: string) =>
    candidates.filter((c) => c.modelClass === cls).sort((a, b) => (a.inputMicrosPerMTok < b.inputMicrosPerMTok ? -1 : a.inputMicrosPerMTok > b.inputMicrosPerMTok ? 1 : 0))[0];
  const now = s.clock.now().getTime();
  const startOfToday = Math.floor(now / DAY) * DAY;
  let n = 0;
  for (let d = HISTORY_DAYS; d >= 1; d--) {
    const calls = 5 + ((d * 3) % 4);
    for (let i = 0; i < calls; i++) {
      const at = new Date(startOfToday - d * DAY + (9 + i * 1.5) * 3_600_000);
      // The same settlement code, on a clock set to the call's time.
      const past = { ...s, clock: { now: () => at } } as Services;
      past.settler = new Settler(past, s.settler.followUps);
      const prompt = PROMPTS[(d * 5 + i) % PROMPTS.length]!;
      const request: CanonicalRequest = { shape: 'openai', model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }], stream: false };
      const routing = decideLayer1(request, { qualityFloor: 0.6 });
      const ep = cheapest(routing.modelClass) ?? cheapest('economy')!;
      const usage = usageOf(prompt, i + d);
      const reservation = await reserve(past, { tenantId: t.tenantId, projectId: t.projectId, callId: randomUUID(), amountMicros: 200_000n });
      await past.settler.settle({
        tenantId: t.tenantId,
        projectId: t.projectId,
        callId: reservation.id,
        keyId: t.keyId,
        reservation,
        provider: ep.provider as ProviderKey,
        model: ep.model,
        region: ep.region,
        modelClass: ep.modelClass,
        usage,
        benchmarkProvider: benchmark,
        channel: 'proxy:chat',
        clientShape: 'openai',
        stream: false,
        routing,
        latencyMs: 400 + ((i * 137) % 900),
        promptExcerpt: `[demo history] ${prompt}`,
        request: { messages: [{ role: 'user', content: prompt }] },
        response: { text: '(simulated demo history)' },
      });
      n++;
    }
  }
  return n;
}

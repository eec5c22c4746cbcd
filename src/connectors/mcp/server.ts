// Tier 2, the MCP server (D14): four tools on the official SDK, each with a precise input schema,
// a description a model can act on, and a structured result (outputSchema + structuredContent)
// beside a short text for clients that only read text. Service failures are tool errors whose
// text says what to do (ServiceError); nothing here ever writes to stdout but the SDK's transport.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { ServiceClient } from './service-client.ts';

/** 1 wallet token = 1 USD micro (D1): "1,234,567 tokens ($1.23)". */
export function tokens(micros: string | null): string {
  if (micros === null) return 'n/a';
  const v = BigInt(micros);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const usd = `${abs / 1_000_000n}.${((abs % 1_000_000n) / 10_000n).toString().padStart(2, '0')}`;
  return `${neg ? '-' : ''}${abs.toLocaleString('en-US')} tokens (${neg ? '-' : ''}$${usd})`;
}

const microsText = z.string().regex(/^-?\d+$/).describe('an integer amount of wallet tokens (1 token = 1 USD micro), as a decimal string');

const askOutput = {
  text: z.string().describe("the model's answer"),
  callId: z.string().describe('the call id, as shown in the Switchboard ledger and activity feed'),
  modelClass: z.string().describe('the model class Switchboard routed the call to (economy, standard, premium or frontier)'),
  costMicros: microsText.describe('wallet tokens debited for this answer, escalated attempts included'),
  savingsTokens: microsText.nullable().describe("tokens saved against the tenant's benchmark provider; null when no benchmark provider is chosen"),
};
const walletOutput = {
  balance: microsText.describe('the wallet balance in tokens'),
  reserved: microsText.describe('tokens held for calls in flight'),
  available: microsText.describe('balance minus reserved: what new calls can use'),
  usdEquivalent: z.string().describe('the balance in US dollars, two decimals'),
  runway: z.number().nullable().describe('days the balance lasts at the last 7 days of spending; null when nothing was spent'),
  billingUrl: z.string().describe('where to top up'),
};
const savingsOutput = {
  windowDays: z.number().int(),
  benchmarkProvider: z.string().nullable().describe('the brand savings are measured against; null when none is chosen'),
  serviceBurn: microsText.describe('Service burn: tokens consumed through Switchboard in the window'),
  equivalentBurnLabel: z.string().describe('"<Provider>-equivalent burn"'),
  equivalentBurn: microsText.nullable().describe('what the same calls would have cost at the benchmark provider'),
  tokensSaved: microsText.nullable().describe('Tokens saved'),
  percentSavedBps: microsText.nullable().describe('% saved, in basis points (1234 = 12.34 %)'),
  series: z.array(z.object({ day: z.string(), serviceBurn: microsText, equivalentBurn: microsText.nullable(), unbenchmarkedBurn: microsText.optional().describe('burn of calls made without a benchmark provider, not in the comparison') })).describe('one row per UTC day'),
};
const activityOutput = {
  items: z
    .array(
      z.object({
        kind: z.string().describe('ai_usage, escalation or wallet'),
        id: z.string(),
        at: z.string().describe('ISO 8601 time'),
        channel: z.string().describe('how the call came in: proxy, mcp, extension, bridge, copy-paste'),
        label: z.string(),
        modelClass: z.string().nullable(),
        serviceBurn: microsText.nullable(),
        tokensSaved: microsText.nullable(),
        promptExcerpt: z.string().nullable(),
      }),
    )
    .describe('newest first'),
};

export async function createMcpServer(client: ServiceClient, version: string): Promise<McpServer> {
  // The SDK is loaded when an MCP server is made, not by every process that bundles this file
  // (a serving `start` never runs one: megabytes of memory saved, docs/performance.md).
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const server = new McpServer({ name: 'switchboard', title: 'Switchboard', version }, { instructions: 'Switchboard routes each prompt to the cheapest model class that meets the project quality floor, bills a prepaid wallet and records every call in a tamper-evident ledger. Use `ask` for model calls; `wallet`, `savings` and `recent_activity` report on the account.' });

  server.registerTool(
    'ask',
    {
      title: 'Ask a model through Switchboard',
      description:
        "Send a prompt to a language model chosen by Switchboard's routing (the cheapest model class that meets the project's quality floor). The call is billed to the Switchboard wallet and recorded in its ledger. Returns the answer, plus the call id, the model class used, the cost and the tokens saved.",
      inputSchema: {
        prompt: z.string().min(1).max(400_000).describe('the user message to answer'),
        system: z.string().min(1).max(100_000).optional().describe('optional system instructions that frame the answer'),
        format: z.enum(['text', 'json']).default('text').describe('"json" asks for a single JSON object as the answer; "text" (default) for free text'),
        maxTokens: z.number().int().min(1).max(32_768).optional().describe('upper bound on the answer length in tokens; the routing default applies when omitted'),
      },
      outputSchema: askOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (args) => {
      const r = await client.ask(args);
      return {
        content: [{ type: 'text', text: r.text }],
        structuredContent: { ...r },
      };
    },
  );

  server.registerTool(
    'wallet',
    {
      title: 'Switchboard wallet',
      description: "The Switchboard wallet shared by the account's projects: balance, tokens reserved by calls in flight, what is available, and the runway in days at the current spending rate.",
      inputSchema: {},
      outputSchema: walletOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const w = await client.wallet();
      const runway = w.runway === null ? 'no spending in the last 7 days' : `about ${w.runway} days at the last 7 days' spending`;
      return {
        content: [{ type: 'text', text: `Balance ${tokens(w.balance)}; reserved ${tokens(w.reserved)}; available ${tokens(w.available)}. Runway: ${runway}. Top up at ${w.billingUrl}.` }],
        structuredContent: { ...w },
      };
    },
  );

  server.registerTool(
    'savings',
    {
      title: 'Switchboard savings',
      description: "Tokens saved, % saved, Service burn and the benchmark provider's equivalent burn over the last 7, 30 or 90 days, with a per-day series.",
      inputSchema: { window: z.union([z.literal(7), z.literal(30), z.literal(90)]).default(30).describe('the window in days: 7, 30 (default) or 90') },
      outputSchema: savingsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ window }) => {
      const sv = await client.savings(window);
      const text =
        sv.benchmarkProvider === null
          ? `Service burn over ${sv.windowDays} days: ${tokens(sv.serviceBurn)}. No benchmark provider is chosen, so savings are not computed: choose one on the Billing page.`
          : `Over ${sv.windowDays} days: Tokens saved ${tokens(sv.tokensSaved)}` +
            (sv.percentSavedBps !== null ? ` (% saved ${(Number(sv.percentSavedBps) / 100).toFixed(2)} %)` : '') +
            `; Service burn ${tokens(sv.serviceBurn)}; ${sv.equivalentBurnLabel} ${tokens(sv.equivalentBurn)}.`;
      return { content: [{ type: 'text', text }], structuredContent: { ...sv } };
    },
  );

  server.registerTool(
    'recent_activity',
    {
      title: 'Recent Switchboard activity',
      description: "The latest calls of this key's project (newest first): when, through which channel, the model class, the tokens burned and saved, and the start of the prompt.",
      inputSchema: { limit: z.number().int().min(1).max(50).default(10).describe('how many items, 1 to 50 (default 10)') },
      outputSchema: activityOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ limit }) => {
      const items = await client.activity(limit);
      const lines = items.map((a) => `${a.at} ${a.channel} ${a.label}${a.modelClass ? ` [${a.modelClass}]` : ''}${a.serviceBurn ? `, ${tokens(a.serviceBurn)}` : ''}${a.promptExcerpt ? `: ${a.promptExcerpt.slice(0, 80)}` : ''}`);
      return { content: [{ type: 'text', text: lines.length ? lines.join('\n') : 'No activity yet.' }], structuredContent: { items } };
    },
  );

  return server;
}

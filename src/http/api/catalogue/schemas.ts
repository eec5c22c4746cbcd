// GET /api/models/catalogue and GET /api/tools (D13, the developer zone): response shapes, also
// read by the web app (zod and src/core only).
import { z } from 'zod';
import { CAPABILITIES } from '../../../core/pricing/price-book.ts';
import { MODEL_CLASSES } from '../../../core/model-class.ts';
import { PROVIDER_KEYS } from '../../../core/providers.ts';

const micros = z.string().regex(/^\d+$/);
const priceFields = {
  inputMicrosPerMillionTokens: micros,
  outputMicrosPerMillionTokens: micros,
  inputUsdPerMillionTokens: z.string().describe('USD per million input tokens, exact decimal'),
  outputUsdPerMillionTokens: z.string().describe('USD per million output tokens, exact decimal'),
};

export const catalogueQuery = z.strictObject({
  provider: z.enum(PROVIDER_KEYS).optional(),
  modelClass: z.enum(MODEL_CLASSES).optional(),
  capability: z.enum(CAPABILITIES).optional(),
});

export const catalogue = z.object({
  pricingVersion: z.string(),
  effectiveFrom: z.string(),
  models: z.array(
    z.object({
      id: z.string().describe('internal model id (engineers only; customer copy shows the brand)'),
      provider: z.string(),
      brand: z.string(),
      modelClass: z.enum(MODEL_CLASSES),
      capabilities: z.array(z.enum(CAPABILITIES)),
      contextWindow: z.number().int(),
      maxOutputTokens: z.number().int(),
      regions: z.array(z.string()),
      ...priceFields,
    }),
  ),
  benchmarks: z.array(
    z.object({
      provider: z.string(),
      brand: z.string(),
      routable: z.boolean().describe('whether calls can be routed to this brand in this deployment'),
      references: z.array(z.object({ modelClass: z.enum(MODEL_CLASSES), ...priceFields })),
    }),
  ),
});

export const toolsList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      kind: z.enum(['connector', 'cli']),
      tier: z.number().int().nullable(),
      description: z.string(),
      available: z.boolean().describe('false when this deployment does not ship it yet'),
      command: z.string().nullable(),
      snippets: z.array(z.object({ client: z.string(), language: z.string(), content: z.string() })),
      mcpTools: z.array(z.object({ name: z.string(), title: z.string().nullable(), description: z.string(), inputs: z.array(z.object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string().nullable() })) })),
    }),
  ),
});

// Shapes of the advisory endpoints (D14 tier 6); the web app imports them (zod only). Amounts are
// wallet tokens (1 token = 1 USD micro, D1) as integer strings; savings follow the locked vocabulary.
import { z } from 'zod';

const micros = z.string().regex(/^-?\d+$/);
const bench = z.object({ providerKey: z.string(), brand: z.string() }).nullable();

export const importSummary = z.object({
  id: z.string(),
  projectId: z.string(),
  filename: z.string().nullable(),
  format: z.enum(['ndjson', 'csv']),
  status: z.enum(['receiving', 'queued', 'processing', 'done', 'failed']),
  error: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  progress: z.object({ totalRows: z.number().int(), processedRows: z.number().int(), malformedRows: z.number().int(), percent: z.number().int() }),
  benchmark: bench,
  equivalentLabel: z.string(),
});

const figures = {
  calls: z.number().int(),
  inputTokens: micros,
  outputTokens: micros,
  historicalCost: micros,
  wouldHaveCost: micros,
  equivalentBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  percentSavedBps: micros.nullable(),
};

export const reportRow = z.object({
  line: z.number().int(),
  status: z.enum(['pending', 'done', 'malformed']),
  error: z.string().nullable(),
  occurredAt: z.string().nullable(),
  promptExcerpt: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  taskFamily: z.string().nullable(),
  complexity: z.string().nullable(),
  modelClass: z.string().nullable(),
  wouldHaveModel: z.string().nullable(),
  historicalCost: micros.nullable(),
  wouldHaveCost: micros.nullable(),
  equivalentBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  percentSavedBps: micros.nullable(),
});

export const report = importSummary.extend({
  benchmarkPrompt: z.string().nullable(),
  totals: z.object(figures),
  byTaskFamily: z.array(z.object({ taskFamily: z.string(), ...figures })),
  byComplexity: z.array(z.object({ complexity: z.string(), ...figures })),
  malformed: z.object({ count: z.number().int(), items: z.array(z.object({ line: z.number().int(), error: z.string() })) }),
  rows: z.object({ items: z.array(reportRow), nextCursor: z.string().nullable() }),
  methodology: z.object({
    savingsMethodologyVersion: z.string(),
    pricingVersion: z.string(),
    routingTableVersion: z.string().nullable(),
    classifierVersion: z.string().nullable(),
  }),
  insightsEngineVersion: z.string(),
});

// Response shapes of the /overview and /analytics endpoints (amounts are decimal strings, D1).
import { z } from 'zod';
import { INSIGHTS_ENGINE_VERSION } from '../../../core/vocabulary.ts';

/** D13: every insights response names the engine version its charts' footers show. */
export const versioned = <T extends z.ZodRawShape>(o: z.ZodObject<T>) => o.extend({ insightsEngineVersion: z.string() });
export const withVersion = <T extends object>(data: T) => ({ ...data, insightsEngineVersion: INSIGHTS_ENGINE_VERSION });

export const benchmark = z.object({ providerKey: z.string(), brand: z.string() }).nullable();
const micros = z.string().regex(/^-?\d+$/);

export const savingsSeries = z.object({
  windowDays: z.number().int(),
  benchmark,
  equivalentLabel: z.string(),
  series: z.array(z.object({ day: z.string(), serviceBurnMicros: micros, equivalentBurnMicros: micros.nullable(), unbenchmarkedBurnMicros: micros })),
});

const activityItem = z.object({
  kind: z.enum(['ai_usage', 'escalation', 'wallet', 'alert']),
  id: z.string(),
  at: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  channel: z.string(),
  label: z.string(),
  modelClass: z.string().nullable(),
  serviceBurnMicros: micros.nullable(),
  amountMicros: micros.optional(),
  tokensSaved: micros.nullable(),
  promptExcerpt: z.string().nullable(),
  deliveryPath: z.object({ provider: z.string(), model: z.string().nullable(), region: z.string().nullable() }).nullable().optional(),
  /** Alerts only: which threshold was crossed. */
  threshold: z
    .object({ kind: z.enum(['balance', 'runway']), thresholdMicros: z.string().nullable(), runwayDays: z.number().nullable(), thresholdDays: z.number().nullable() })
    .optional(),
});
export const activityList = z.array(activityItem);

export const overview = z.object({
  tiles: z.object({
    walletBalance: z.object({ tokens: micros, usdEquivalent: z.string() }),
    tokensSaved30d: micros.nullable(),
    percentSaved30dBps: micros.nullable(),
    serviceBurn30d: micros,
    runway: z.number().nullable(),
  }),
  benchmark,
  equivalentLabel: z.string(),
  savingsChart: savingsSeries,
  activity: activityList,
});

const rollup = { calls: z.number().int(), tokens: micros, serviceBurnMicros: micros };
export const usage = z.object({
  windowDays: z.number().int(),
  byTaskFamily: z.array(z.object({ taskFamily: z.string(), ...rollup })),
  byProject: z.array(z.object({ projectId: z.string(), projectName: z.string(), ...rollup })),
  byHour: z.array(z.object({ hour: z.string(), ...rollup })),
});

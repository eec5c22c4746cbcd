import { z } from 'zod';
import { PROVIDER_KEYS } from '../../../core/providers.ts';
import { nonNegativeMicros } from '../common.ts';

export const project = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  monthlyBudgetMicros: z.string().nullable(),
  qualityFloor: z.number(),
  benchmarkOverride: z.enum(PROVIDER_KEYS).nullable(),
  integrations: z.array(z.string()),
  stage: z.enum(['onboarding', 'connected', 'live', 'paused']),
  region: z.string().nullable(),
  createdAt: z.string(),
});

const fields = {
  name: z.string().trim().min(1).max(120),
  monthlyBudgetMicros: nonNegativeMicros.nullable(),
  qualityFloor: z.number().min(0).max(1).multipleOf(0.001, 'must have at most three decimals'),
  benchmarkOverride: z.enum(PROVIDER_KEYS).nullable(),
  integrations: z.array(z.string().min(1).max(64)).max(50),
  region: z.enum(['us', 'eu', 'asia']).nullable(),
};
export const createProjectBody = z.strictObject(fields).partial().required({ name: true });
export const patchProjectBody = z
  .strictObject(fields)
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'at least one field is required');

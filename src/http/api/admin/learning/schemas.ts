// Shapes of the admin learning-plane endpoints (spec §4, D9, D15): camelCase fields, money as
// decimal strings of micros and timestamps as ISO strings at the edge (D1).
import { z } from 'zod';
import { DETECTORS } from '../../../../app/learning/index.ts';
import { pageQuerySchema } from '../../common.ts';

export const proposalsQuery = pageQuerySchema.extend({
  status: z.enum(['minted']).optional(),
  priority: z.enum(['high', 'medium', 'low']).optional(),
  sourceSignal: z.enum(DETECTORS).optional(),
});

export const budgetPatch = z.strictObject({
  budgetMicros: z
    .union([z.string().regex(/^\d{1,18}$/, 'must be a whole number of micros, as a string'), z.int().nonnegative().max(Number.MAX_SAFE_INTEGER)])
    .transform((v) => BigInt(v)),
});

/** bigint → decimal string, Date → ISO string, everything else as is (a deep copy for the edge). */
export function edge(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(edge);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, edge(x)]));
  return v;
}

export const anyData = z.object({ success: z.literal(true), data: z.unknown() });

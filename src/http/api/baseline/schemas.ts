// Request and response schemas of /api/tenant/baseline, shared with the web app's benchmark
// picker (only zod and core imports).
import { z } from 'zod';
import { PROVIDER_KEYS } from '../../../core/providers.ts';

export const baseline = z.object({ providerKey: z.enum(PROVIDER_KEYS).nullable(), brand: z.string().nullable() });
export const baselinePatchBody = z.strictObject({ providerKey: z.enum(PROVIDER_KEYS, { message: `must be one of ${PROVIDER_KEYS.join(', ')}` }) });

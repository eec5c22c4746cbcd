// Schemas of GET/PATCH /api/tenant (D13), shared with the web app.
import { z } from 'zod';
import { roleSchema } from '../auth/schemas.ts';

export const tenant = z.object({ id: z.string(), name: z.string(), role: roleSchema, createdAt: z.string() });
export const tenantPatch = z.strictObject({ name: z.string().trim().min(1, 'must not be empty').max(120) });
export type TenantPatch = z.infer<typeof tenantPatch>;

// GET /api/tenant/insights/audit: decision summaries, the Layer 3 change log and the export log.
import { z } from 'zod';
import { auditInsights } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { versioned, withVersion } from './schemas.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

const count = z.number().int().nonnegative();
export const audit = z.object({
  windowDays: count,
  decisions: z.object({
    calls: count,
    attempts: count,
    escalatedAttempts: count,
    failedAttempts: count,
    scoredAttempts: count,
    belowFloorAttempts: count,
    sweptReservations: count,
    byModelClass: z.array(z.object({ modelClass: z.string(), attempts: count, escalated: count })),
    byTaskFamily: z.array(z.object({ taskFamily: z.string(), attempts: count, escalated: count })),
    deliveryPaths: z.array(z.object({ provider: z.string(), model: z.string(), region: z.string(), attempts: count })),
  }),
  changeLog: z.array(
    z.object({
      at: z.string(),
      rulesetVersion: z.string(),
      change: z.enum(['added', 'removed', 'renewed']),
      ruleId: z.string(),
      kind: z.string().nullable(),
      taskFamily: z.string().nullable(),
      modelClass: z.string().nullable(),
      endpoint: z.string().nullable(),
      expiresAt: z.string().nullable(),
      reason: z.string(),
    }),
  ),
  exportLog: z.array(z.object({ id: z.string(), userId: z.string().nullable(), kind: z.string(), filters: z.record(z.string(), z.unknown()), rows: count, at: z.string() })),
});

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/audit', { schema: { response: { 200: envelope(versioned(audit)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(withVersion(await auditInsights(s, authOf(req).tenantId))),
  );
export default route;

// GET /api/tenant/insights/summary?period=today|yesterday|wtd|mtd|custom&from=&to= : the /summary
// screen's numbers (the same ones the digest e-mails), in the caller's time zone.
import { z } from 'zod';
import { getSummary, SUMMARY_PERIODS } from '../../../app/insights/index.ts';
import { digestPreview } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { versioned, withVersion } from './schemas.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

const totals = z.object({
  serviceBurnMicros: z.string(),
  tokensSaved: z.string().nullable(),
  benchmarkEquivalentBurnMicros: z.string().nullable(),
  percentSaved: z.number().nullable(),
  calls: z.number(),
  escalations: z.number(),
});

export const summary = z.object({
  period: z.string(),
  timezone: z.string(),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  benchmarkProvider: z.string().nullable(),
  current: totals,
  previous: totals,
  deltas: z.object({ serviceBurnMicros: z.string(), tokensSaved: z.string().nullable(), calls: z.number(), escalations: z.number() }),
  topMovers: z.array(
    z.object({ kind: z.literal('project'), id: z.string(), name: z.string(), currentMicros: z.string(), previousMicros: z.string(), deltaMicros: z.string() }),
  ),
  source: z.literal('ledger'),
});

const query = z.strictObject({
  period: z.enum(SUMMARY_PERIODS).default('today'),
  from: z.string().max(40).optional(),
  to: z.string().max(40).optional(),
});

const route: RouteModule = (app, s) => {
  app.get('/api/tenant/insights/summary', { schema: { querystring: query, response: { 200: envelope(versioned(summary)) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(withVersion(await getSummary(s, a.tenantId, a.userId, req.query)));
  });
  // The latest digest e-mail of the caller's cadence, rendered by the e-mail's own renderer.
  const preview = z.object({ cadence: z.string(), periodStart: z.string(), subject: z.string(), text: z.string() });
  app.get('/api/tenant/insights/summary/digest-preview', { schema: { response: { 200: envelope(preview) } }, onRequest: requireAuth(s) }, async (req) => {
    const a = authOf(req);
    return ok(await digestPreview(s, a.tenantId, a.userId));
  });
};
export default route;

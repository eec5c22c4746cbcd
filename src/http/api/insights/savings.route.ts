// GET /api/tenant/insights/savings?window=7|30|90: per-day service burn vs <Provider>-equivalent burn.
import { z } from 'zod';
import { savingsSeries as build } from '../../../app/insights/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { savingsSeries, versioned, withVersion } from './schemas.ts';

const query = z.strictObject({ window: z.enum(['7', '30', '90']).default('30') });

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/insights/savings', { schema: { querystring: query, response: { 200: envelope(versioned(savingsSeries)) } }, onRequest: requireAuth(s) }, async (req) =>
    ok(withVersion(await build(s, authOf(req).tenantId, Number(req.query.window) as 7 | 30 | 90))),
  );
export default route;

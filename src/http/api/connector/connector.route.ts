// The read-only connector endpoints, authenticated by a service key (D14; decision "Connector
// reads" in docs/decisions.md): the customer API takes a user's JWT, but the MCP server and other
// connectors hold only a key. They get exactly what their tools show, nothing that writes.
//   POST /api/connector/heartbeat         the connector is alive (tile status); who the key is
//   GET  /api/connector/wallet            balance, reserved, available, runway
//   GET  /api/connector/savings?window=   7 | 30 | 90 days, locked vocabulary
//   GET  /api/connector/activity?limit=&cursor=   the key's project, newest first (D9 pages)
//   GET  /api/connector/today?channel=    today's calls and tokens saved of the key's project (extension popup)
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../app/shared/index.ts';
import type { KeyPrincipal } from '../../../app/identity/index.ts';
import { CHANNELS } from '../../../app/events/index.ts';
import { connectorActivity, connectorSavings, connectorToday, connectorWallet, keyIdentity } from '../../../app/connectors/index.ts';
import { connectorSeen } from '../../../app/connectors/index.ts';
import { appError } from '../../../core/errors.ts';
import { rateLimitHeaders } from '../../plugins/rate-limit.ts';
import { presentedChannel, presentedKey } from '../../proxy/scope.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

/** Reads per key per minute: generous for a tool, small enough that a loop cannot flood the database. */
export const CONNECTOR_READS_PER_MIN = 120;

declare module 'fastify' {
  interface FastifyRequest {
    keyPrincipal?: KeyPrincipal;
  }
}

const requireKey = (s: Services) => async (req: FastifyRequest, reply: FastifyReply) => {
  const key = presentedKey(req, 'openai');
  if (!key) throw appError('invalid_api_key', 'No API key was provided: send the service key as Authorization: Bearer <key>');
  const p = await s.keyCache.authenticate(key);
  if (!p) throw appError('invalid_api_key');
  const d = await s.limiter.take(`connector:${p.keyId}`, CONNECTOR_READS_PER_MIN, 60_000);
  reply.headers(rateLimitHeaders(d, 60));
  if (!d.allowed) throw appError('rate_limited', `More than ${CONNECTOR_READS_PER_MIN} connector reads per minute; retry shortly`, { headers: { 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) } });
  req.keyPrincipal = p;
};
const principal = (req: FastifyRequest): KeyPrincipal => {
  if (!req.keyPrincipal) throw appError('invalid_api_key');
  return req.keyPrincipal;
};

const micros = z.string().regex(/^-?\d+$/);
const identity = z.object({ tenantName: z.string(), projectId: z.string(), projectName: z.string(), environment: z.string(), billingUrl: z.string(), channel: z.enum(CHANNELS) });
const wallet = z.object({ balance: micros, reserved: micros, available: micros, usdEquivalent: z.string(), runway: z.number().nullable(), billingUrl: z.string() });
const savings = z.object({
  windowDays: z.number().int(),
  benchmarkProvider: z.string().nullable(),
  serviceBurn: micros,
  equivalentBurnLabel: z.string(),
  equivalentBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  percentSavedBps: micros.nullable(),
  series: z.array(z.object({ day: z.string(), serviceBurn: micros, equivalentBurn: micros.nullable(), unbenchmarkedBurn: micros })),
});
const activityItem = z.object({
  kind: z.string(),
  id: z.string(),
  at: z.string(),
  channel: z.string(),
  label: z.string(),
  modelClass: z.string().nullable(),
  serviceBurn: micros.nullable(),
  tokensSaved: micros.nullable(),
  promptExcerpt: z.string().nullable(),
});

const today = z.object({
  day: z.string(),
  channel: z.enum(CHANNELS).nullable(),
  calls: z.number().int(),
  serviceBurn: micros,
  benchmarkProvider: z.string().nullable(),
  tokensSaved: micros.nullable(),
});

const route: RouteModule = (app, s) => {
  app.post(
    '/api/connector/heartbeat',
    { schema: { body: z.strictObject({}).nullish(), response: { 200: envelope(identity) } }, onRequest: requireKey(s) },
    async (req) => {
      const p = principal(req);
      const channel = presentedChannel(req);
      await connectorSeen(s, { tenantId: p.tenantId, projectId: p.projectId, channel, keyId: p.keyId });
      return ok({ ...(await keyIdentity(s, p)), channel });
    },
  );
  app.get('/api/connector/wallet', { schema: { response: { 200: envelope(wallet) } }, onRequest: requireKey(s) }, async (req) => ok(await connectorWallet(s, principal(req).tenantId)));
  app.get(
    '/api/connector/savings',
    { schema: { querystring: z.strictObject({ window: z.enum(['7', '30', '90']).default('30') }), response: { 200: envelope(savings) } }, onRequest: requireKey(s) },
    async (req) => ok(await connectorSavings(s, principal(req).tenantId, Number(req.query.window) as 7 | 30 | 90)),
  );
  app.get(
    '/api/connector/activity',
    {
      schema: {
        querystring: z.strictObject({ limit: z.coerce.number().int().min(1).max(50).default(10), cursor: z.string().max(512).optional() }),
        response: { 200: envelope(z.object({ items: z.array(activityItem), nextCursor: z.string().nullable() })) },
      },
      onRequest: requireKey(s),
    },
    async (req) => ok(await connectorActivity(s, principal(req), req.query)),
  );
  app.get(
    '/api/connector/today',
    { schema: { querystring: z.strictObject({ channel: z.enum(CHANNELS).optional() }), response: { 200: envelope(today) } }, onRequest: requireKey(s) },
    async (req) => ok(await connectorToday(s, principal(req), req.query.channel ?? null)),
  );
};
export default route;

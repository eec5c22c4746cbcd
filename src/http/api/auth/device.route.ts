// Device authorisation (D14, RFC 8628), for the desktop bridge's sign-in:
//   POST /api/auth/device {deviceName}        → {deviceCode, userCode, verificationUri, interval, …}
//   POST /api/auth/device/token {deviceCode}  → tokens once approved; else 400 with code
//        authorization_pending | slow_down | expired_token | access_denied | invalid_grant
//   GET  /api/auth/device/verify?userCode=    the /device page: which device asks (signed in)
//   POST /api/auth/device/confirm {userCode, approve}   the /device page's answer (signed in;
//        a cookie-authenticated write, so it passes the same-origin check of requireAuth). Not
//        named ".../approve": no route may carry that verb (learning-plane lock 3, D15).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../../app/shared/index.ts';
import { ACCESS_TTL_S } from '../../../app/identity/index.ts';
import { decideDeviceAuthorization, describeUserCode, pollDeviceToken, startDeviceAuthorization } from '../../../app/identity/index.ts';
import { appError } from '../../../core/errors.ts';
import { authOf, metaOf, requireAuth } from '../../plugins/auth.ts';
import { rateLimitHeaders } from '../../plugins/rate-limit.ts';
import { envelope, ok, type RouteModule } from '../common.ts';

/** Per client address: starting sign-ins (10/min) and polling (60/min: a 5 s poll is 12). */
const START_PER_MIN = 10;
const POLL_PER_MIN = 60;
/** Per user: code confirmations, so a signed-in account cannot be used to guess codes. */
const DECIDE_PER_MIN = 10;

const limit = (s: Services, bucket: string, perMin: number, what: string) => async (req: FastifyRequest, reply: FastifyReply) => {
  const key = bucket === 'decide' ? `device-decide:${req.auth?.userId ?? req.ip}` : `device-${bucket}:${req.ip}`;
  const d = await s.limiter.take(key, perMin, 60_000);
  reply.headers(rateLimitHeaders(d, 60));
  if (!d.allowed) throw appError('rate_limited', `Too many ${what}; try again in a minute`, { headers: { 'retry-after': String(Math.ceil(d.retryAfterMs / 1000)) } });
};

// The spec names no request body for the start (D14): without one, or without a name, the device is
// named after its User-Agent, which the approval page shows.
const startBody = z.preprocess(
  (v) => v ?? {},
  z.strictObject({ deviceName: z.string().trim().min(1, 'name the device, e.g. "Ada’s laptop"').max(80).optional() }),
);
const deviceNameOf = (req: FastifyRequest, given: string | undefined): string => {
  if (given) return given;
  const ua = (req.headers['user-agent'] ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return ua ? `Device (${ua.slice(0, 60)})` : 'Unnamed device';
};
const started = z.object({ deviceCode: z.string(), userCode: z.string(), verificationUri: z.string(), verificationUriComplete: z.string(), expiresIn: z.number().int(), interval: z.number().int() });
const tokenBody = z.strictObject({ deviceCode: z.string().min(1).max(200) });
const issued = z.object({ accessToken: z.string(), refreshToken: z.string(), tokenType: z.literal('Bearer'), expiresIn: z.number().int(), sessionId: z.string(), deviceName: z.string(), tenantId: z.string() });
const userCode = z.string().trim().min(1).max(20);
const described = z.object({ userCode: z.string(), deviceName: z.string(), requestedAt: z.string(), expiresAt: z.string(), ip: z.string().nullable() });
const decided = z.object({ deviceName: z.string(), approved: z.boolean() });

const route: RouteModule = (app, s) => {
  app.post('/api/auth/device', { schema: { body: startBody, response: { 200: envelope(started) } }, onRequest: limit(s, 'start', START_PER_MIN, 'device sign-ins started') }, async (req) =>
    ok(await startDeviceAuthorization(s, { deviceName: deviceNameOf(req, req.body.deviceName) }, metaOf(req))),
  );
  app.post('/api/auth/device/token', { schema: { body: tokenBody, response: { 200: envelope(issued) } }, onRequest: limit(s, 'poll', POLL_PER_MIN, 'polls') }, async (req) => {
    const r = await pollDeviceToken(s, req.body.deviceCode, metaOf(req));
    return ok({ ...r.tokens, tokenType: 'Bearer' as const, expiresIn: ACCESS_TTL_S, sessionId: r.sessionId, deviceName: r.deviceName, tenantId: r.tenantId });
  });
  app.get(
    '/api/auth/device/verify',
    { schema: { querystring: z.strictObject({ userCode }), response: { 200: envelope(described) } }, onRequest: [requireAuth(s), limit(s, 'decide', DECIDE_PER_MIN, 'code checks')] },
    async (req) => ok(await describeUserCode(s, req.query.userCode)),
  );
  app.post(
    '/api/auth/device/confirm',
    { schema: { body: z.strictObject({ userCode, approve: z.boolean().default(true) }), response: { 200: envelope(decided) } }, onRequest: [requireAuth(s), limit(s, 'decide', DECIDE_PER_MIN, 'code confirmations')] },
    async (req) => ok(await decideDeviceAuthorization(s, authOf(req), { userCode: req.body.userCode, approve: req.body.approve }, metaOf(req))),
  );
};
export default route;

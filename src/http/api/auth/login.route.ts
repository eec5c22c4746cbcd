// POST /auth/login (the spec lists it without /api) and POST /api/auth/login (D2): the login
// result of spec §2; 10 attempts per minute per IP; lockout after 5 failures on an account.
// Sets the session cookies of D13 for the web app.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { login } from '../../../app/identity/index.ts';
import type { Services } from '../../../app/shared/index.ts';
import { appError } from '../../../core/errors.ts';
import { metaOf, setSessionCookies } from '../../plugins/auth.ts';
import { rateLimitHeaders } from '../../plugins/rate-limit.ts';
import { envelope, ok, type RouteModule } from '../common.ts';
import { loginBody, loginResult } from './schemas.ts';

export const loginRateLimit = (s: Services) => async (req: FastifyRequest, reply: FastifyReply) => {
  const d = await s.limiter.take(`login:${req.ip}`, s.config.RATE_LIMIT_LOGIN_PER_MIN, 60_000);
  reply.headers(rateLimitHeaders(d, 60));
  if (!d.allowed) throw appError('rate_limited', 'Too many sign-in attempts; try again later', { headers: rateLimitHeaders(d, 60) });
};

const route: RouteModule = (app, s) => {
  for (const url of ['/auth/login', '/api/auth/login']) {
    app.post(url, { schema: { body: loginBody, response: { 200: envelope(loginResult) } }, onRequest: loginRateLimit(s) }, async (req, reply) => {
      const result = await login(s, req.body, metaOf(req));
      setSessionCookies(s, req, reply, result.tokens);
      return ok(result);
    });
  }
};
export default route;

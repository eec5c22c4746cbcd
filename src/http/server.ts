// The HTTP server: a flat, readable list of registrations (CONVENTIONS 5). /api routes answer in
// the envelope; proxy routes answer in each vendor's own shape (their scope sets its handler).
import type { Socket } from 'node:net';
import Fastify, { LogController } from 'fastify';
import cookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../app/shared/index.ts';
import { appError, type AppError } from '../core/errors.ts';
import { WIRES } from '../wire/index.ts';
import { apiErrorHandler, sendApiError, toAppError } from './errors.ts';
import { renderProxyError, shapeForUrl } from './proxy/scope.ts';
import { callLoad } from './proxy/load.ts';
import type { App, RouteModule } from './api/common.ts';
import { registerWebApp } from './web/web-app.ts';
import { registerOpenApi } from './web/openapi.ts';
import { acceptEmptyJsonBodies } from './plugins/json-body.ts';
import pkg from '../../package.json' with { type: 'json' };

import signup from './api/auth/signup.route.ts';
import login from './api/auth/login.route.ts';
import refresh from './api/auth/refresh.route.ts';
import logout from './api/auth/logout.route.ts';
import verifyEmail from './api/auth/verify-email.route.ts';
import me from './api/users/me.route.ts';
import sessions from './api/users/sessions.route.ts';
import tokens from './api/users/tokens.route.ts';
import auditLog from './api/users/audit.route.ts';
import projects from './api/projects/projects.route.ts';
import keys from './api/keys/keys.route.ts';
import members from './api/members/members.route.ts';
import wallet from './api/wallet/wallet.route.ts';
import topup from './api/wallet/topup.route.ts';
import ledger from './api/ledger/ledger.route.ts';
import adminTenantLedger from './api/admin/tenant-ledger.route.ts';
import adminMoney from './api/admin/money.route.ts';
import adminLearningProposals from './api/admin/learning/proposals.route.ts';
import adminLearningProposalDetails from './api/admin/learning/proposal-details.route.ts';
import adminLearningBudget from './api/admin/learning/budget.route.ts';
import adminWebhooks from './api/admin/webhooks.route.ts';
import baseline from './api/baseline/baseline.route.ts';
import invoices from './api/invoices/invoices.route.ts';
import sandboxCheckout from './api/billing/sandbox.route.ts';
import stripeWebhook from './api/billing/stripe-webhook.route.ts';
import eventStream from './api/events/stream.route.ts';
import webhooks from './api/webhooks/webhooks.route.ts';
import notifications from './api/users/notifications.route.ts';
import insightsSummary from './api/insights/summary.route.ts';
import insightsAudit from './api/insights/audit.route.ts';
import insightsOverview from './api/insights/overview.route.ts';
import insightsSavings from './api/insights/savings.route.ts';
import insightsUsage from './api/insights/usage.route.ts';
import insightsActivity from './api/insights/activity.route.ts';
import ledgerExport from './api/ledger/export.route.ts';
import ledgerCheckpoints from './api/ledger/checkpoints.route.ts';
import integrations from './api/integrations/integrations.route.ts';
import connector from './api/connector/connector.route.ts';
import advisoryImports from './api/advisory/imports.route.ts';
import advisoryReport from './api/advisory/report.route.ts';
import advisoryExport from './api/advisory/export.route.ts';
import authTenants from './api/auth/tenants.route.ts';
import authPassword from './api/auth/password.route.ts';
import myPassword from './api/users/password.route.ts';
import tenant from './api/tenant/tenant.route.ts';
import invites from './api/members/invites.route.ts';
import integrationSetup from './api/integrations/setup.route.ts';
import deviceAuth from './api/auth/device.route.ts';
import copyPaste from './api/copy-paste/copy-paste.route.ts';
import catalogue from './api/catalogue/catalogue.route.ts';

const PACKAGE_VERSION: string = pkg.version;

const API_ROUTES: RouteModule[] = [
  signup,
  login,
  refresh,
  logout,
  verifyEmail,
  me,
  sessions,
  tokens,
  auditLog,
  projects,
  keys,
  members,
  wallet,
  topup,
  ledger,
  adminTenantLedger,
  adminMoney,
  adminLearningProposals,
  adminLearningProposalDetails,
  adminLearningBudget,
  adminWebhooks,
  baseline,
  invoices,
  sandboxCheckout,
  stripeWebhook,
  eventStream,
  webhooks,
  notifications,
  insightsSummary,
  insightsAudit,
  insightsOverview,
  insightsSavings,
  insightsUsage,
  insightsActivity,
  ledgerExport,
  ledgerCheckpoints,
  integrations,
  integrationSetup,
  deviceAuth,
  connector,
  authTenants,
  authPassword,
  myPassword,
  tenant,
  invites,
  copyPaste,
  advisoryImports,
  advisoryReport,
  advisoryExport,
  catalogue,
];

/** Extra route scopes (the proxy, events, billing pages) plug in here with their own error handling. */
declare module 'fastify' {
  interface FastifyInstance {
    routeList: Array<{ method: string; url: string }>;
  }
}

export type Scope = (app: App, s: Services) => Promise<void> | void;

/**
 * A request Node's HTTP parser refused (malformed framing, bytes after a body without a length,
 * headers past 16 KB, a request not received in time) never reaches a route. Its answer is still in
 * the surface's shape: the vendor's error body when the request line names a /v1 path, else the
 * envelope (issue 24 item 4; Fastify's default was `{"error":"Bad Request","message":"Client Error"}`).
 */
function clientError(error: Error, socket: Socket) {
  const err = error as Error & { code?: string; rawPacket?: unknown };
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const e: AppError =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? appError('headers_too_large')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? appError('request_timeout')
        : appError('validation', 'The request is not valid HTTP/1.1 (check its framing: Content-Length or Transfer-Encoding must match the body)');
  const path = (Buffer.isBuffer(err.rawPacket) ? err.rawPacket : Buffer.alloc(0)).toString('latin1').split('\r\n', 1)[0].split(' ')[1] ?? '';
  const body = JSON.stringify(
    path.startsWith('/v1/') ? WIRES[shapeForUrl(path)].renderError(e.status, e.code, e.message) : { success: false, error: e.message, code: e.code },
  );
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${e.status} ${e.status === 431 ? 'Request Header Fields Too Large' : e.status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

export async function buildServer(s: Services, scopes: Scope[] = []): Promise<App> {
  const app = Fastify({
    logger: s.config.LOG_LEVEL === 'silent' ? false : {
      level: s.config.LOG_LEVEL,
      // Secrets never reach the log (keys, tokens, cookies).
      redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers["x-goog-api-key"]', 'req.headers.cookie'],
    },
    // No per-request log lines: they would sit on the proxy's hot path.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: s.config.BODY_LIMIT_BYTES,
    // req.ip (rate limits, sessions, audit) is the client's only behind a trusted balancer.
    trustProxy: s.config.TRUST_PROXY,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Errors raised before any route runs (a URL whose percent-encoding does not decode) answer in
    // the surface's shape like every other error, not in Fastify's own body (issue 22 item 4).
    clientErrorHandler: clientError,
    frameworkErrors: (err, req, reply) => {
      const e = toAppError(err, s.log);
      return req.url.startsWith('/v1/') ? renderProxyError(reply, shapeForUrl(req.url), e) : sendApiError(reply, e);
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorateRequest('auth', null);
  // Every route, for the shared 401/isolation suite (test/route-guard.test.ts).
  const routeList: Array<{ method: string; url: string }> = [];
  app.addHook('onRoute', (r) => {
    for (const m of [r.method].flat()) if (m !== 'HEAD') routeList.push({ method: m, url: r.url });
  });
  app.decorate('routeList', routeList);
  // Before any route: the generator collects routes as they are registered.
  await registerOpenApi(app, PACKAGE_VERSION);

  await app.register(async (api: App) => {
    // Cookies belong to the /api session routes only: registered here, the plugin's onRequest and
    // onSend hooks do not run on every proxied call.
    await api.register(cookie);
    acceptEmptyJsonBodies(api);
    api.setErrorHandler(apiErrorHandler(s.log));
    for (const r of API_ROUTES) r(api, s);
  });
  for (const scope of scopes) await app.register(async (child: App) => scope(child, s));

  // 503 while draining (D17), so a load balancer's health check takes the replica out at once.
  app.get('/health', async (_req, reply) => (callLoad(s).draining ? reply.status(503).send({ status: 'draining' }) : { status: 'ok' }));
  // The web app (D13): its assets, `/`, and index.html for its routes and its not-found page.
  const web = await registerWebApp(app);
  app.setNotFoundHandler((req, reply) => {
    if (web.notFound(req, reply)) return reply;
    const path = req.url.split('?')[0];
    // `/api` itself is no resource: its 404 says where the reference is, not just "no route".
    const e =
      path === '/api' || path === '/api/'
        ? appError('not_found', `No route ${req.method} ${path}: the API's resources are under /api/ (e.g. GET /api/projects); the API reference is at /docs (OpenAPI document: /openapi.json)`)
        : appError('not_found', `No route ${req.method} ${path}`);
    // Under /v1 even a wrong path answers in a vendor's shape, so SDKs raise their NotFound error.
    return path === '/v1' || path.startsWith('/v1/') ? renderProxyError(reply, shapeForUrl(req.url), e) : sendApiError(reply, e);
  });
  app.setErrorHandler(apiErrorHandler(s.log));
  return app;
}

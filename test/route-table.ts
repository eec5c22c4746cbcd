// Every route the server registers, classified by who may call it (issue 24 item 5). The route
// table itself comes from the server (`app.routeList`, filled by an onRoute hook), and
// test/route-guard.test.ts fails on any route missing here: a route added without a decision about
// its guard cannot slip through. Public routes carry the reason they need no credential.
// test/hostile-input.test.ts uses the same table to pick credentials and fill path parameters.
import type { Role } from '../src/core/identity.ts';

/** What a tenant-owned path parameter names, so the tests can fill it with real ids. */
export type Resource =
  | 'project'
  | 'key'
  | 'member'
  | 'session'
  | 'pat'
  | 'invoice'
  | 'webhook'
  | 'delivery'
  | 'invite'
  | 'advisoryImport'
  | 'storedResponse'
  | 'tool'
  | 'platform';

export type Guard =
  /** No credential: the route authenticates with what is in its body, query or path, or shows nothing private. */
  | { kind: 'public'; reason: string }
  /** A user's access token, PAT or session cookie, with at least this role in the tenant. */
  | { kind: 'user'; role: Role }
  /** A platform administrator (D11): tenants are not isolated here by design, everyone else is 403. */
  | { kind: 'platform' }
  /** A service key, answering in the envelope (connector reads, D14). */
  | { kind: 'key' }
  /** A service key of the project, or a user with at least this role (advisory, D14 tier 6). */
  | { kind: 'userOrKey'; role: Role }
  /** A service key on the proxy: errors in the vendor's own shape. */
  | { kind: 'proxy'; shape: 'openai' | 'anthropic' | 'gemini' };

export interface RouteClass {
  guard: Guard;
  /** Path parameter name → what it names (tenant-owned ids must answer 404 to another tenant). */
  params?: Record<string, Resource>;
  /** A body the route accepts, so checks past validation (404, fuzzing from a valid start) reach the handler. */
  sample?: unknown;
}

const pub = (reason: string): RouteClass => ({ guard: { kind: 'public', reason } });
const user = (role: Role = 'viewer', params?: Record<string, Resource>, sample?: unknown): RouteClass => ({ guard: { kind: 'user', role }, params, sample });
const platform = (params?: Record<string, Resource>): RouteClass => ({ guard: { kind: 'platform' }, params });
const key: RouteClass = { guard: { kind: 'key' } };
const proxy = (shape: 'openai' | 'anthropic' | 'gemini', params?: Record<string, Resource>): RouteClass => ({ guard: { kind: 'proxy', shape }, params });

const SIGN_IN = 'signs in: the credential is the e-mail and password in the body (rate-limited per IP)';
const WEB = 'the web app or API documentation: static files, no tenant data';

export const ROUTES: Record<string, RouteClass> = {
  // Documentation and the web app.
  'GET /openapi.json': pub(WEB),
  'GET /.well-known/switchboard-ledger-key': pub('the public key that verifies ledger checkpoints (D17): published on purpose, no tenant data'),
  'GET /docs': pub(WEB),
  'GET /docs/static/index.html': pub(WEB),
  'GET /docs/static/swagger-initializer.js': pub(WEB),
  'GET /docs/json': pub(WEB),
  'GET /docs/yaml': pub(WEB),
  'GET /docs/static/*': pub(WEB),
  'GET /assets/*': pub(WEB),
  'GET /': pub(WEB),
  'GET /health': pub('load-balancer health check: says ok or draining, nothing else'),
  'GET /v1/messages-proxy/health': pub('proxy health (spec §4): whether an upstream is configured, nothing per tenant'),
  'GET /v1/chat-proxy/health': pub('proxy health (spec §4): whether an upstream is configured, nothing per tenant'),
  'GET /v1/generate-proxy/health': pub('proxy health (spec §4): whether an upstream is configured, nothing per tenant'),

  // Sign-in and account recovery: the body or link carries the credential.
  'POST /api/auth/signup': pub('creates a new user and tenant (rate-limited per IP)'),
  'POST /auth/login': pub(SIGN_IN),
  'POST /api/auth/login': pub(SIGN_IN),
  'POST /api/auth/refresh': pub('the refresh token in the body or the refresh cookie is the credential'),
  'GET /api/auth/verify-email': pub('the e-mailed one-time token in the query is the credential'),
  'POST /api/auth/verify-email': pub('the e-mailed one-time token in the body is the credential'),
  'POST /api/auth/password/forgot': pub('answers the same whether or not the address exists; mails the owner of the address'),
  'POST /api/auth/password/reset': pub('the e-mailed one-time reset token in the body is the credential'),
  'GET /api/members/invites/preview': pub('the invitation token in the query is the credential'),
  'POST /api/members/invites/accept': pub('the invitation token in the body is the credential (a signed-in user is optional)'),
  'POST /api/auth/device': pub('device authorisation start (D14): the device holds no credential yet'),
  'POST /api/auth/device/token': pub('device authorisation poll (D14): the device code in the body is the credential'),
  'GET /api/billing/sandbox/checkout/:checkoutId': pub('a processor-hosted style page: the unguessable checkout id is the credential'),
  'POST /api/billing/sandbox/checkout/:checkoutId/confirm': pub('a processor-hosted style page: the unguessable checkout id is the credential'),
  'POST /api/billing/stripe/webhook': pub('the Stripe-Signature HMAC over the body is the credential'),

  // The signed-in user's own account.
  'POST /api/auth/logout': user(),
  'POST /api/users/me/verify-email': user(),
  'GET /api/users/me': user(),
  'PATCH /api/users/me': user(),
  'GET /api/users/me/sessions': user(),
  'DELETE /api/users/me/sessions/:id': user('viewer', { id: 'session' }),
  'POST /api/users/me/tokens': user(),
  'GET /api/users/me/tokens': user(),
  'DELETE /api/users/me/tokens/:id': user('viewer', { id: 'pat' }),
  'GET /api/users/me/audit': user(),
  'GET /api/users/me/audit/verify': user(),
  'GET /api/users/me/notifications': user(),
  'PATCH /api/users/me/notifications': user(),
  'POST /api/users/me/notifications/test': user(),
  'GET /api/users/me/notifications/deliveries': user(),
  'POST /api/users/me/password': user(),
  'GET /api/auth/tenants': user(),
  'POST /api/auth/switch': user(),
  'GET /api/auth/device/verify': user(),
  'POST /api/auth/device/confirm': user(),

  // The tenant.
  'GET /api/tenant': user(),
  'PATCH /api/tenant': user('admin'),
  'GET /api/projects': user(),
  'POST /api/projects': user('admin'),
  'GET /api/projects/:id': user('viewer', { id: 'project' }),
  'PATCH /api/projects/:id': user('admin', { id: 'project' }, { name: 'renamed' }),
  'DELETE /api/projects/:id': user('admin', { id: 'project' }),
  'GET /api/projects/:id/integrations': user('viewer', { id: 'project' }),
  'POST /api/projects/:id/integrations/:tool/test': user('admin', { id: 'project', tool: 'tool' }),
  'DELETE /api/projects/:id/integrations/:tool': user('admin', { id: 'project', tool: 'tool' }),
  'POST /api/projects/:id/integrations/:tool/setup': user('admin', { id: 'project', tool: 'tool' }),
  'GET /api/service/projects/:id/events': user('viewer', { id: 'project' }),
  'POST /api/keys': user('admin'),
  'GET /api/keys': user(),
  'POST /api/keys/:id/rotate': user('admin', { id: 'key' }),
  'DELETE /api/keys/:id': user('admin', { id: 'key' }),
  'GET /api/members': user(),
  'POST /api/members': user('admin'),
  'PATCH /api/members/:id': user('admin', { id: 'member' }, { role: 'member' }),
  'DELETE /api/members/:id': user('admin', { id: 'member' }),
  'POST /api/members/invites': user('admin'),
  'GET /api/members/invites': user('admin'),
  'DELETE /api/members/invites/:id': user('admin', { id: 'invite' }),
  'GET /api/tenant/wallet': user(),
  'PUT /api/tenant/wallet/auto-topup': user('admin'),
  'DELETE /api/tenant/wallet/auto-topup': user('admin'),
  'POST /api/tenant/wallet/topup': user('admin'),
  'GET /api/tenant/ledger': user(),
  'GET /api/tenant/ledger/verify': user(),
  'GET /api/tenant/ledger/export': user(),
  'GET /api/tenant/ledger/checkpoints': user(),
  'POST /api/tenant/ledger/checkpoints': user('owner'),
  'GET /api/tenant/baseline': user(),
  'PATCH /api/tenant/baseline': user('admin'),
  'GET /api/tenant/invoices': user(),
  'GET /api/tenant/invoices/:id/pdf': user('viewer', { id: 'invoice' }),
  'GET /api/webhooks': user(),
  'POST /api/webhooks': user('admin'),
  'GET /api/webhooks/:id': user('viewer', { id: 'webhook' }),
  'PATCH /api/webhooks/:id': user('admin', { id: 'webhook' }, { description: 'renamed' }),
  'DELETE /api/webhooks/:id': user('admin', { id: 'webhook' }),
  'POST /api/webhooks/:id/rotate-secret': user('admin', { id: 'webhook' }),
  'GET /api/webhooks/:id/deliveries': user('viewer', { id: 'webhook' }),
  'GET /api/webhooks/deliveries/:id': user('viewer', { id: 'delivery' }),
  // Any role reaches the handler: admins replay the tenant's deliveries, anyone their own alert's (checked in the use case).
  'POST /api/webhooks/deliveries/:id/replay': user('viewer', { id: 'delivery' }),
  'GET /api/tenant/insights/summary': user(),
  'GET /api/tenant/insights/summary/digest-preview': user(),
  'GET /api/tenant/insights/audit': user(),
  'GET /api/tenant/insights/overview': user(),
  'GET /api/tenant/insights/savings': user(),
  'GET /api/tenant/insights/usage': user(),
  'GET /api/tenant/insights/activity': user(),
  'POST /api/copy-paste': user('member', undefined, { prompt: 'hello' }),
  'GET /api/models/catalogue': user(),
  'GET /api/tools': user(),

  // Advisory imports: a service key of the project, or a user.
  'POST /api/advisory/imports': { guard: { kind: 'userOrKey', role: 'member' } },
  'GET /api/advisory/imports': { guard: { kind: 'userOrKey', role: 'viewer' } },
  'GET /api/advisory/imports/:id': { guard: { kind: 'userOrKey', role: 'viewer' }, params: { id: 'advisoryImport' } },
  'GET /api/advisory/imports/:id/export': { guard: { kind: 'userOrKey', role: 'viewer' }, params: { id: 'advisoryImport' } },

  // Connector reads: a service key.
  'POST /api/connector/heartbeat': key,
  'GET /api/connector/wallet': key,
  'GET /api/connector/savings': key,
  'GET /api/connector/activity': key,
  'GET /api/connector/today': key,

  // Platform administration (D11).
  'GET /api/admin/tenants/:id/ledger': platform({ id: 'platform' }),
  'GET /api/admin/tenants/:id/ledger/verify': platform({ id: 'platform' }),
  'POST /api/admin/tenants/:id/adjustments': platform({ id: 'platform' }),
  'POST /api/admin/topups/:id/refund': platform({ id: 'platform' }),
  'GET /api/admin/learning/proposals': platform(),
  'GET /api/admin/learning/proposals/:id': platform({ id: 'platform' }),
  'GET /api/admin/learning/proposals/:id/synthetic': platform({ id: 'platform' }),
  'GET /api/admin/learning/proposals/:id/replay': platform({ id: 'platform' }),
  'GET /api/admin/learning/proposals/:id/gates': platform({ id: 'platform' }),
  'GET /api/admin/learning/proposals/:id/cost': platform({ id: 'platform' }),
  'GET /api/admin/learning/budget': platform(),
  'PATCH /api/admin/learning/budget/:id': platform({ id: 'platform' }),
  'GET /api/admin/webhooks/deliveries': platform(),
  'GET /api/admin/webhooks/deliveries/:id': platform({ id: 'platform' }),
  'GET /api/admin/webhooks/summary': platform(),

  // The proxy (Tier 1, D6): a service key, errors in the vendor's shape.
  'POST /v1/chat/completions': proxy('openai'),
  'POST /v1/chat-proxy/v1/chat/completions': proxy('openai'),
  'POST /v1/responses': proxy('openai'),
  'POST /v1/chat-proxy/v1/responses': proxy('openai'),
  'GET /v1/responses/:id': proxy('openai', { id: 'storedResponse' }),
  'DELETE /v1/responses/:id': proxy('openai', { id: 'storedResponse' }),
  'GET /v1/chat-proxy/v1/responses/:id': proxy('openai', { id: 'storedResponse' }),
  'DELETE /v1/chat-proxy/v1/responses/:id': proxy('openai', { id: 'storedResponse' }),
  'POST /v1/messages': proxy('anthropic'),
  'POST /v1/messages-proxy/v1/messages': proxy('anthropic'),
  'POST /v1/messages/count_tokens': proxy('anthropic'),
  'POST /v1/messages-proxy/v1/messages/count_tokens': proxy('anthropic'),
  'POST /v1/generate/generateContent': proxy('gemini'),
  'POST /v1/generate/streamGenerateContent': proxy('gemini'),
  'POST /v1/generate/v1beta/models/*': proxy('gemini'),
  'POST /v1/generate-proxy/v1beta/models/*': proxy('gemini'),
  'GET /v1/models': proxy('openai'),
  'GET /v1/chat-proxy/v1/models': proxy('openai'),
};

export const routeKey = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

export type Surface = 'api' | 'openai' | 'anthropic' | 'gemini' | 'other';

/** Which error shape a URL answers in: the envelope under /api, a vendor's own body under /v1. */
export function surfaceOf(url: string): Surface {
  const path = url.split('?')[0];
  if (path.startsWith('/api/')) return 'api';
  if (path.startsWith('/v1/messages')) return 'anthropic';
  if (path.startsWith('/v1/generate')) return 'gemini';
  if (path.startsWith('/v1/')) return 'openai';
  return 'other';
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Null when `body` is an error in the surface's own shape; otherwise what is wrong with it. */
export function errorShapeProblem(surface: Surface, body: unknown): string | null {
  if (!isObj(body)) return 'the error body is not a JSON object';
  switch (surface) {
    case 'api':
      if (body.success !== false) return 'envelope: success is not false';
      if (typeof body.error !== 'string' || body.error === '') return 'envelope: no error message';
      if (typeof body.code !== 'string') return 'envelope: no code';
      return null;
    case 'openai': {
      const e = body.error;
      if (!isObj(e) || typeof e.message !== 'string' || typeof e.type !== 'string' || !('param' in e) || !('code' in e)) return 'not an OpenAI error {error:{message,type,param,code}}';
      return null;
    }
    case 'anthropic': {
      const e = body.error;
      if (body.type !== 'error' || !isObj(e) || typeof e.type !== 'string' || typeof e.message !== 'string') return 'not an Anthropic error {type:"error",error:{type,message}}';
      return null;
    }
    case 'gemini': {
      const e = body.error;
      if (!isObj(e) || typeof e.code !== 'number' || typeof e.message !== 'string' || typeof e.status !== 'string') return 'not a Gemini error {error:{code,message,status}}';
      return null;
    }
    default:
      return null;
  }
}

// Every path, header, field, event, error, limit and enum value that service-spec.md and
// decisions.md name, extracted from those two files, each with the section it came from and the
// result of checking it against the running service (issue 14 item 2). test/conformance.test.ts
// drives the service item by item from these tables; `node --import tsx scripts/conformance-table.ts`
// prints them as the tables in docs/conformance.md.
//
// result: 'ok' (passed when first checked), 'fixed: <what>' (was a mismatch, fixed in this pass),
// or 'open: <why>' (not met yet, owned by another issue; the test does not assert it and prints a
// diagnostic when it starts to pass, so whoever lands it can mark it ok here).

export type Result = 'ok' | `fixed: ${string}` | `open: ${string}`;

/** Who may call a route: none (public), jwt (a signed-in member), admin (platform admin), key (service key). */
export type Auth = 'none' | 'jwt' | 'admin' | 'key';

export interface RouteItem {
  source: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** The path as the contract writes it; `:id` and `<model>` are filled by the test. */
  path: string;
  auth: Auth;
  result: Result;
}

const r = (source: string, method: RouteItem['method'], path: string, auth: Auth, result: Result = 'ok'): RouteItem => ({ source, method, path, auth, result });

export const ROUTES: RouteItem[] = [
  // spec §4 Authentication endpoints, D2
  r('§4 Auth', 'POST', '/auth/login', 'none'),
  r('D2', 'POST', '/api/auth/login', 'none'),
  r('§4 Auth, D2', 'POST', '/api/auth/refresh', 'none'),
  r('D2', 'POST', '/api/auth/signup', 'none'),
  r('D2', 'POST', '/api/auth/logout', 'jwt'),
  r('D2', 'POST', '/api/users/me/tokens', 'jwt'),
  r('D2', 'GET', '/api/users/me/tokens', 'jwt'),
  r('D2', 'DELETE', '/api/users/me/tokens/:id', 'jwt'),
  r('D2', 'GET', '/api/users/me/audit', 'jwt'),
  // spec §4 Proxy endpoints, D6, D19
  r('§4 Proxy', 'POST', '/v1/chat/completions', 'key'),
  r('§4 Proxy', 'POST', '/v1/messages', 'key'),
  r('§4 Proxy', 'POST', '/v1/generate/generateContent', 'key'),
  r('§4 Proxy', 'GET', '/v1/models', 'key'),
  r('§4 Proxy, §7 rule 1', 'GET', '/health', 'none'),
  r('§4 Proxy', 'POST', '/v1/messages-proxy/v1/messages', 'key'),
  r('§4 Proxy', 'GET', '/v1/messages-proxy/health', 'none'),
  r('§4 Proxy', 'POST', '/v1/chat-proxy/v1/chat/completions', 'key'),
  r('§4 Proxy', 'GET', '/v1/chat-proxy/v1/models', 'key'),
  r('§4 Proxy', 'GET', '/v1/chat-proxy/health', 'none'),
  r('§4 Proxy', 'POST', '/v1/generate-proxy/v1beta/models/<model>:generateContent', 'key'),
  r('§4 Proxy', 'POST', '/v1/generate-proxy/v1beta/models/<model>:streamGenerateContent?alt=sse', 'key'),
  r('D6', 'GET', '/v1/generate-proxy/health', 'none'),
  r('D19', 'POST', '/v1/messages/count_tokens', 'key'),
  r('D19', 'POST', '/v1/messages-proxy/v1/messages/count_tokens', 'key'),
  r('D19', 'POST', '/v1/responses', 'key'),
  r('D19', 'POST', '/v1/chat-proxy/v1/responses', 'key'),
  r('D19', 'GET', '/v1/responses/:id', 'key'),
  // spec §4 Tenant endpoints, D11
  r('§4 Tenant', 'GET', '/api/tenant/wallet', 'jwt'),
  r('§4 Tenant, D11', 'POST', '/api/tenant/wallet/topup', 'jwt'),
  r('§4 Tenant, D9', 'GET', '/api/tenant/ledger', 'jwt'),
  r('§4 Tenant, D8', 'GET', '/api/tenant/ledger/verify', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/baseline', 'jwt'),
  r('§4 Tenant', 'PATCH', '/api/tenant/baseline', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/insights/overview', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/insights/activity', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/insights/usage', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/insights/savings', 'jwt'),
  r('§4 Tenant', 'GET', '/api/tenant/insights/audit', 'jwt'),
  r('D11', 'GET', '/api/tenant/invoices', 'jwt'),
  r('D11', 'GET', '/api/tenant/invoices/:id/pdf', 'jwt'),
  // spec §4 User endpoints
  r('§4 User', 'GET', '/api/users/me', 'jwt'),
  r('§4 User', 'PATCH', '/api/users/me', 'jwt'),
  r('§4 User', 'GET', '/api/users/me/sessions', 'jwt'),
  r('§4 User', 'DELETE', '/api/users/me/sessions/:id', 'jwt'),
  // spec §4 Real-time endpoint
  r('§4 Real-time, §6', 'GET', '/api/service/projects/:id/events', 'jwt'),
  // spec §4 Webhook endpoints, D10
  r('§4 Webhook', 'POST', '/api/webhooks', 'jwt'),
  r('§4 Webhook', 'POST', '/api/webhooks/deliveries/:id/replay', 'jwt'),
  r('D10', 'GET', '/api/webhooks', 'jwt'),
  r('D10', 'GET', '/api/webhooks/:id', 'jwt'),
  r('D10', 'PATCH', '/api/webhooks/:id', 'jwt'),
  r('D10', 'DELETE', '/api/webhooks/:id', 'jwt'),
  r('D10', 'POST', '/api/webhooks/:id/rotate-secret', 'jwt'),
  r('D10', 'GET', '/api/webhooks/:id/deliveries', 'jwt'),
  r('D10', 'GET', '/api/webhooks/deliveries/:id', 'jwt'),
  // spec §4 Admin learning-plane endpoints, D15
  r('§4 Admin', 'GET', '/api/admin/learning/proposals', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/proposals/:id', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/proposals/:id/synthetic', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/proposals/:id/replay', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/proposals/:id/gates', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/proposals/:id/cost', 'admin'),
  r('§4 Admin', 'GET', '/api/admin/learning/budget', 'admin'),
  r('§4 Admin, D15', 'PATCH', '/api/admin/learning/budget/:id', 'admin'),
  // D3 keys
  r('D3', 'POST', '/api/keys', 'jwt'),
  r('D3', 'GET', '/api/keys', 'jwt'),
  r('D3', 'POST', '/api/keys/:id/rotate', 'jwt'),
  r('D3', 'DELETE', '/api/keys/:id', 'jwt'),
  // D4 projects
  r('D4', 'GET', '/api/projects', 'jwt'),
  r('D4', 'POST', '/api/projects', 'jwt'),
  r('D4', 'GET', '/api/projects/:id', 'jwt'),
  r('D4', 'PATCH', '/api/projects/:id', 'jwt'),
  r('D4', 'DELETE', '/api/projects/:id', 'jwt'),
  // D13 endpoints the screens need
  r('D13', 'GET', '/api/tenant', 'jwt'),
  r('D13', 'PATCH', '/api/tenant', 'jwt'),
  r('D13', 'GET', '/api/auth/tenants', 'jwt'),
  r('D13', 'POST', '/api/auth/switch', 'jwt'),
  r('D13', 'POST', '/api/auth/password/forgot', 'none'),
  r('D13', 'POST', '/api/auth/password/reset', 'none'),
  r('D13', 'POST', '/api/users/me/password', 'jwt'),
  r('D13', 'POST', '/api/members/invites', 'jwt'),
  r('D13', 'POST', '/api/members/invites/accept', 'none'),
  r('D13', 'GET', '/api/tools', 'jwt'),
  r('D13', 'GET', '/api/models/catalogue', 'jwt'),
  r('D13', 'POST', '/api/copy-paste', 'jwt'),
  // D14 connectors
  r('D14', 'POST', '/api/auth/device', 'none'),
  r('D14', 'POST', '/api/auth/device/token', 'none'),
  r('D14', 'POST', '/api/advisory/imports', 'jwt'),
  r('D14', 'GET', '/api/advisory/imports/:id', 'jwt'),
  // D17
  r('D17', 'GET', '/.well-known/switchboard-ledger-key', 'none'),
];

/** Web app routes (D13): each answers the app's HTML. */
export const WEB_ROUTES: Array<{ source: string; path: string; result: Result }> = [
  ...['/overview', '/analytics', '/summary', '/billing', '/settings/ledger'].map((path) => ({ source: '§1 Customer screens, D13', path, result: 'ok' as Result })),
  ...['/account', '/smartone'].map((path) => ({ source: '§1 Customer screens, D13', path, result: 'ok' as Result })),
  { source: '§1 Customer screens, D13', path: '/developer-zone', result: 'ok' },
  ...['/security', '/notifications', '/integrations'].map((path) => ({ source: '§1 Customer screens, D13', path, result: 'ok' as Result })),
  ...['/login', '/signup', '/forgot-password', '/reset-password', '/verify-email', '/invite', '/device'].map((path) => ({ source: 'D13', path, result: 'ok' as Result })),
  { source: 'D13', path: '/copy-paste', result: 'ok' },
  { source: 'D13', path: '/advisory', result: 'ok' },
  { source: 'D13', path: '/admin/learning', result: 'ok' },
  { source: 'D13', path: '/admin/', result: 'fixed: the admin console home (links to /admin/learning and /admin/webhooks; test/web/admin-webhooks.test.ts)' },
];

/**
 * Field types: string, number, integer, boolean, object, array, uuid, iso (ISO 8601 timestamp),
 * int (integer string, signed), uint (non-negative integer string), hex64, jwt; `|null` allows null.
 */
export type FieldType = string;

export interface FieldItem {
  source: string;
  /** The response the test reads it from (a probe name in test/conformance.test.ts). */
  probe: string;
  /** A dotted path into the response body; `items[0]` takes the first list item. */
  field: string;
  type: FieldType;
  result: Result;
}

const f = (source: string, probe: string, fields: Record<string, FieldType>, result: Result = 'ok'): FieldItem[] =>
  Object.entries(fields).map(([field, type]) => ({ source, probe, field, type, result }));

export const FIELDS: FieldItem[] = [
  ...f('D17 ledger checkpoint key (JWK Set, docs/ledger-checkpoints.md)', 'GET /.well-known/switchboard-ledger-key', {
    'keys[0].kty': 'string',
    'keys[0].crv': 'string',
    'keys[0].x': 'string',
    'keys[0].kid': 'string',
    pem: 'string',
  }),
  ...f('§2 Response envelope', 'GET /api/users/me', { success: 'boolean', data: 'object' }),
  ...f('§2 Response envelope, §7, D9', 'error 404', { success: 'boolean', error: 'string', code: 'string' }),
  ...f('D9 validation error names the field', 'error 400', { success: 'boolean', error: 'string', code: 'string', field: 'string' }),
  ...f('§2 Login result', 'POST /auth/login', {
    'data.user.id': 'string',
    'data.user.email': 'string',
    'data.user.name': 'string',
    'data.tokens.accessToken': 'jwt',
    'data.tokens.refreshToken': 'jwt',
  }),
  ...f('D2 signup returns the login data', 'POST /api/auth/signup', { 'data.user.id': 'string', 'data.user.email': 'string', 'data.user.name': 'string', 'data.tokens.accessToken': 'jwt', 'data.tokens.refreshToken': 'jwt' }),
  ...f('D2 refresh', 'POST /api/auth/refresh', { 'data.accessToken': 'jwt', 'data.refreshToken': 'jwt' }),
  ...f('§2 User, §4 GET /api/users/me', 'GET /api/users/me', {
    'data.id': 'string',
    'data.email': 'string',
    'data.name': 'string',
    'data.timezone': 'string',
    'data.bio': 'string|null',
    'data.avatarUrl': 'string|null',
    'data.emailVerifiedAt': 'iso|null',
  }),
  ...f('§4 User sessions, D9 pages', 'GET /api/users/me/sessions', { 'data.items': 'array', 'data.items[0].id': 'uuid', 'data.nextCursor': 'string|null' }, 'fixed: the list had no nextCursor and no ?limit=/&cursor= (D9)'),
  ...f('§2 Wallet, D8a', 'GET /api/tenant/wallet', {
    'data.balance': 'uint',
    'data.reserved': 'uint',
    'data.debited.h24': 'uint',
    'data.debited.d7': 'uint',
    'data.debited.d30': 'uint',
    'data.runway': 'number|null',
  }),
  ...f('D11 sandbox top-up', 'POST /api/tenant/wallet/topup', { 'data.checkoutId': 'string', 'data.checkoutUrl': 'string' }),
  ...f('§2 Ledger entry (customer view, D8), D9 running balance', 'GET /api/tenant/ledger', {
    'data.items': 'array',
    'data.nextCursor': 'string|null',
    'data.items[0].id': 'uuid',
    'data.items[0].tenantId': 'uuid',
    'data.items[0].projectId': 'uuid|null',
    'data.items[0].customerLabel': 'string',
    'data.items[0].amountMicros': 'int',
    'data.items[0].balanceAfterMicros': 'int',
    'data.items[0].benchmarkProvider': 'string|null',
    'data.items[0].sealHash': 'hex64',
    'data.items[0].prevHash': 'hex64',
    'data.items[0].createdAt': 'iso',
    'data.items[0].runningBalanceMicros': 'int',
  }),
  ...f('§2 Ledger entry (admin view: every column, D8)', 'GET /api/admin/tenants/:id/ledger', {
    'data.items[0].id': 'uuid',
    'data.items[0].tenantId': 'uuid',
    'data.items[0].projectId': 'uuid|null',
    'data.items[0].eventType': 'string',
    'data.items[0].customerLabel': 'string',
    'data.items[0].amountMicros': 'int',
    'data.items[0].balanceAfterMicros': 'int',
    'data.items[0].modelId': 'string|null',
    'data.items[0].providerKey': 'string|null',
    'data.items[0].benchmarkProvider': 'string|null',
    'data.items[0].benchmarkMethodologyVersion': 'string|null',
    'data.items[0].actualCostUsdMicros': 'int|null',
    'data.items[0].baselineCostUsdMicros': 'int|null',
    'data.items[0].benchmarkPricingVersion': 'string|null',
    'data.items[0].sealHash': 'hex64',
    'data.items[0].prevHash': 'hex64',
    'data.items[0].createdAt': 'iso',
  }),
  ...f('§4 verify, D8', 'GET /api/tenant/ledger/verify', { 'data.verified': 'boolean', 'data.firstBroken': 'string|null', 'data.checked': 'integer' }),
  ...f('§4 baseline, §2 Tenant baseline_provider_key', 'GET /api/tenant/baseline', { 'data.providerKey': 'string|null' }),
  ...f('§4 baseline PATCH', 'PATCH /api/tenant/baseline', { 'data.providerKey': 'string' }),
  ...f('D13 insightsEngineVersion on every insights response', 'GET /api/tenant/insights/overview', { 'data.insightsEngineVersion': 'string' }),
  ...f('D13 insightsEngineVersion on every insights response', 'GET /api/tenant/insights/activity', { 'data.insightsEngineVersion': 'string', 'data.items': 'array' }),
  ...f('D9 pages on the activity feed', 'GET /api/tenant/insights/activity', { 'data.nextCursor': 'string|null' }),
  ...f('D13 insightsEngineVersion on every insights response', 'GET /api/tenant/insights/usage', { 'data.insightsEngineVersion': 'string' }),
  ...f('D13 insightsEngineVersion on every insights response', 'GET /api/tenant/insights/savings', { 'data.insightsEngineVersion': 'string' }),
  ...f('D13 insightsEngineVersion on every insights response', 'GET /api/tenant/insights/audit', { 'data.insightsEngineVersion': 'string' }),
  ...f('D8a runway on the overview tiles', 'GET /api/tenant/insights/overview', { 'data.tiles.runway': 'number|null' }),
  ...f('D3 key record', 'POST /api/keys', {
    'data.key': 'string',
    'data.record.id': 'uuid',
    'data.record.name': 'string',
    'data.record.environment': 'string',
    'data.record.projectId': 'uuid',
    'data.record.prefix': 'string',
    'data.record.last4': 'string',
    'data.record.createdAt': 'iso',
    'data.record.lastUsedAt': 'iso|null',
    'data.record.expiresAt': 'iso|null',
    'data.record.revokedAt': 'iso|null',
    'data.record.rotatedFromId': 'uuid|null',
  }),
  ...f('D3 key list, D9 pages', 'GET /api/keys', { 'data.items': 'array', 'data.nextCursor': 'string|null' }),
  ...f('D3 rotate returns a new key', 'POST /api/keys/:id/rotate', { 'data.key': 'string', 'data.record.rotatedFromId': 'uuid' }),
  ...f('D4 project', 'GET /api/projects/:id', {
    'data.id': 'uuid',
    'data.name': 'string',
    'data.monthlyBudgetMicros': 'uint|null',
    'data.qualityFloor': 'number',
    'data.benchmarkOverride': 'string|null',
    'data.integrations': 'array',
    'data.stage': 'string',
    'data.createdAt': 'iso',
  }),
  ...f('D4 project list, D9 pages', 'GET /api/projects', { 'data.items': 'array', 'data.nextCursor': 'string|null' }),
  ...f('D2 personal access tokens, D9 pages', 'GET /api/users/me/tokens', { 'data.items': 'array', 'data.nextCursor': 'string|null' }, 'fixed: the list had no nextCursor and no ?limit=/&cursor= (D9)'),
  ...f('D2 personal access token created', 'POST /api/users/me/tokens', { 'data.token': 'string', 'data.record.id': 'uuid' }),
  ...f('D2 security audit log, D9 pages', 'GET /api/users/me/audit', { 'data.items': 'array', 'data.nextCursor': 'string|null', 'data.items[0].id': 'uuid' }),
  ...f('§2 Webhook (url, events, description, signing secret), D10 whsec_', 'POST /api/webhooks', {
    'data.secret': 'string',
    'data.webhook.id': 'uuid',
    'data.webhook.url': 'string',
    'data.webhook.events': 'array',
    'data.webhook.description': 'string',
  }),
  ...f('§2 Webhook, flat for clients that read the record at the top level', 'POST /api/webhooks', { 'data.id': 'uuid', 'data.url': 'string', 'data.events': 'array', 'data.description': 'string' }, 'fixed: the created webhook was only under data.webhook; its fields now also sit beside the secret'),
  ...f('D10 webhook list, D9 pages', 'GET /api/webhooks', { 'data.items': 'array', 'data.nextCursor': 'string|null' }),
  ...f('§2 Webhook delivery (id, event name, signature, body)', 'GET /api/webhooks/deliveries/:id', {
    'data.id': 'uuid',
    'data.eventType': 'string',
    'data.event': 'string',
    'data.signature': 'string',
    'data.body': 'string',
  }, 'fixed: the event name was only `eventType`; `event` added beside it'),
  ...f('D10 deliveries list, D9 pages', 'GET /api/webhooks/:id/deliveries', { 'data.items': 'array', 'data.nextCursor': 'string|null' }),
  ...f('D11 invoices, D9 pages', 'GET /api/tenant/invoices', { 'data.items': 'array', 'data.nextCursor': 'string|null', 'data.items[0].id': 'uuid' }),
  ...f('D13 tenant', 'GET /api/tenant', { 'data.id': 'uuid', 'data.name': 'string' }),
  ...f('D13 memberships, D9 pages', 'GET /api/auth/tenants', { 'data.items': 'array', 'data.nextCursor': 'string|null' }, 'fixed: the list had no nextCursor and no ?limit=/&cursor= (D9)'),
  ...f('D13 members, D9 pages', 'GET /api/members', { 'data.items': 'array', 'data.nextCursor': 'string|null' }, 'fixed: the list had no nextCursor and no ?limit=/&cursor= (D9)'),
  ...f('D13 invitations, D9 pages', 'GET /api/members/invites', { 'data.items': 'array', 'data.nextCursor': 'string|null' }, 'fixed: the list had no nextCursor and no ?limit=/&cursor= (D9)'),
  ...f('D13 switch returns a token pair', 'POST /api/auth/switch', { 'data.tokens.accessToken': 'jwt', 'data.tokens.refreshToken': 'jwt' }),
  ...f('D14 device authorisation', 'POST /api/auth/device', { 'data.deviceCode': 'string', 'data.userCode': 'string', 'data.verificationUri': 'string', 'data.interval': 'integer' }),
  ...f('§4 Admin budget: budgetMicros, spentMicros, available', 'GET /api/admin/learning/budget', {
    'data.items': 'array',
    'data.items[0].id': 'uuid',
    'data.items[0].budgetMicros': 'uint',
    'data.items[0].spentMicros': 'uint',
    'data.items[0].availableMicros': 'int',
  }),
  ...f('§4 GET /v1/models (OpenAI list shape)', 'GET /v1/models', { object: 'string', data: 'array', 'data[0].id': 'string' }),
  ...f('D19 count_tokens in Anthropic shape', 'POST /v1/messages/count_tokens', { input_tokens: 'integer' }),
  ...f('§4 Admin proposals, D15 D9 pages', 'GET /api/admin/learning/proposals', { 'data.items': 'array', 'data.nextCursor': 'string|null' }),
];

/** Response headers the contract names, read from a real response. */
export const HEADERS: Array<{ source: string; probe: string; header: string; pattern: string; result: Result }> = [
  { source: 'D6', probe: 'proxy call', header: 'x-service-call-id', pattern: '^[0-9a-f-]{36}$', result: 'ok' },
  { source: 'D6', probe: 'proxy call', header: 'x-service-model-class', pattern: '^(economy|standard|premium|frontier)$', result: 'ok' },
  { source: 'D6', probe: 'proxy call', header: 'x-service-tokens-saved', pattern: '^-?\\d+$', result: 'ok' },
  { source: '§7, D6 (also on success)', probe: 'proxy call', header: 'x-ratelimit-limit', pattern: '^\\d+$', result: 'ok' },
  { source: '§7, D6 (also on success)', probe: 'proxy call', header: 'x-ratelimit-remaining', pattern: '^\\d+$', result: 'ok' },
  { source: '§7, §8 rule, D6', probe: 'proxy 429', header: 'retry-after', pattern: '^\\d+$', result: 'ok' },
  { source: '§7, §8 rule, D6', probe: 'proxy 429', header: 'x-ratelimit-limit', pattern: '^60$', result: 'ok' },
  { source: '§7, §8 rule, D6', probe: 'proxy 429', header: 'x-ratelimit-remaining', pattern: '^0$', result: 'ok' },
  { source: 'D6 (IETF draft)', probe: 'proxy 429', header: 'ratelimit-policy', pattern: '.+', result: 'ok' },
  { source: 'D6 (IETF draft)', probe: 'proxy 429', header: 'ratelimit', pattern: '.+', result: 'ok' },
  { source: '§6 Webhooks', probe: 'webhook delivery', header: 'content-type', pattern: '^application/json', result: 'ok' },
  { source: '§6 Webhooks', probe: 'webhook delivery', header: 'x-service-event', pattern: '^llm\\.call$', result: 'ok' },
  { source: '§6 Webhooks', probe: 'webhook delivery', header: 'x-service-delivery', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', result: 'ok' },
  { source: '§6 Webhooks', probe: 'webhook delivery', header: 'x-service-signature', pattern: '^sha256=[0-9a-f]{64}$', result: 'ok' },
  { source: 'D10 Standard Webhooks', probe: 'webhook delivery', header: 'webhook-id', pattern: '^[0-9a-f-]{36}$', result: 'ok' },
  { source: 'D10 Standard Webhooks', probe: 'webhook delivery', header: 'webhook-timestamp', pattern: '^\\d{10}$', result: 'ok' },
  { source: 'D10 Standard Webhooks', probe: 'webhook delivery', header: 'webhook-signature', pattern: '^v1,[A-Za-z0-9+/]+=*$', result: 'ok' },
  { source: '§4 Real-time', probe: 'event stream', header: 'content-type', pattern: '^text/event-stream', result: 'ok' },
];

/** Event types of D10 and the payload fields the spec and decisions name. */
export const EVENTS: Array<{ source: string; type: string; payload: Record<string, FieldType>; result: Result }> = [
  {
    source: '§6, D10',
    type: 'llm.call',
    payload: {
      callId: 'uuid',
      modelClass: 'string',
      taskFamily: 'string',
      complexity: 'string',
      inputTokens: 'integer',
      outputTokens: 'integer',
      costMicros: 'uint',
      savingsTokens: 'int|null',
      escalated: 'boolean',
      latencyMs: 'integer',
      channel: 'string',
    },
    result: 'ok',
  },
  { source: '§6, D4', type: 'stage.changed', payload: { from: 'string', to: 'string', reason: 'string' }, result: 'ok' },
  { source: 'D10', type: 'connector.connected', payload: {}, result: 'ok' },
  { source: 'D10', type: 'connector.disconnected', payload: {}, result: 'ok' },
  { source: 'D10', type: 'routing.escalated', payload: {}, result: 'ok' },
  { source: 'D10', type: 'wallet.topup', payload: {}, result: 'ok' },
  { source: 'D10, D8a', type: 'wallet.threshold', payload: { balance: 'uint' }, result: 'ok' },
  { source: 'D10, D8a', type: 'runway.threshold', payload: { runway: 'number', balance: 'uint' }, result: 'ok' },
  { source: 'D10', type: 'budget.exhausted', payload: {}, result: 'ok' },
  { source: 'D10', type: 'presence.heartbeat', payload: {}, result: 'ok' },
];

/** Fields of every frame (stream and webhook body alike). */
export const FRAME_FIELDS: Record<string, FieldType> = { type: 'string', projectId: 'uuid', tenantId: 'uuid', actorUserId: 'uuid|null', at: 'iso', payload: 'object' };

/** Enumerations the contract names, and where the test sees each value accepted or produced. */
export const ENUMS: Array<{ source: string; name: string; values: string[]; result: Result }> = [
  { source: 'D1', name: 'benchmark provider keys (PATCH /api/tenant/baseline)', values: ['openai', 'anthropic', 'google', 'mistral', 'deepseek'], result: 'ok' },
  { source: 'D1', name: 'brand names (GET /api/tenant/baseline brand)', values: ['OpenAI', 'Anthropic', 'Google', 'Mistral', 'DeepSeek'], result: 'ok' },
  { source: '§2 Ledger entry', name: 'customerLabel', values: ['Top-up', 'AI usage', 'Refund', 'Adjustment'], result: 'ok' },
  { source: '§2 Ledger entry', name: 'eventType (admin view, ?type= filter)', values: ['WALLET_TOPUP', 'AI_USAGE', 'REFUND', 'ADJUSTMENT'], result: 'ok' },
  { source: 'D3, §1 developer zone', name: 'key environment (POST /api/keys)', values: ['dev', 'staging', 'production'], result: 'ok' },
  { source: 'D2, §1 /security, §8', name: 'idle sign-out (PATCH /api/users/me idleTimeout)', values: ['15min', '1h', '4h', '24h', 'never'], result: 'ok' },
  { source: 'D10', name: 'webhook event types (POST /api/webhooks events)', values: ['llm.call', 'stage.changed', 'connector.connected', 'connector.disconnected', 'routing.escalated', 'wallet.topup', 'wallet.threshold', 'runway.threshold', 'budget.exhausted', 'presence.heartbeat'], result: 'ok' },
  { source: 'D12', name: 'model classes (x-service-model-class, llm.call modelClass)', values: ['economy', 'standard', 'premium', 'frontier'], result: 'ok' },
  { source: 'D12', name: 'task families (llm.call taskFamily)', values: ['coding', 'writing', 'research', 'data-analysis', 'math', 'summarization', 'translation', 'extraction', 'conversation'], result: 'ok' },
  { source: '§1, D12', name: 'complexity (llm.call complexity)', values: ['low', 'medium', 'high'], result: 'ok' },
  { source: 'D14', name: 'channels (llm.call channel, x-service-channel)', values: ['proxy', 'mcp', 'extension', 'bridge', 'copy-paste', 'advisory'], result: 'ok' },
  { source: 'D4', name: 'project stages', values: ['onboarding', 'connected', 'live', 'paused'], result: 'ok' },
  { source: 'D2', name: 'member roles (POST /api/members/invites role)', values: ['owner', 'admin', 'member', 'viewer'], result: 'ok' },
  { source: '§1 /integrations, D14', name: 'integration tile status', values: ['connected', 'disconnected', 'not configured'], result: 'ok' },
];

/** Behaviours and limits, one line each; the test named in `check` asserts it. */
export const BEHAVIOURS: Array<{ source: string; item: string; check: string; result: Result }> = [
  { source: '§2 Login, §8, D2', item: 'access token lives 15 minutes, refresh token 7 days', check: 'login tokens', result: 'ok' },
  { source: 'D2', item: 'refresh tokens rotate; reusing a rotated one revokes the session', check: 'refresh rotation', result: 'ok' },
  { source: 'D3', item: 'key format svc_live_/svc_stage_/svc_dev_ + 32 base62 + 6 base62 checksum; PAT svc_pat_', check: 'key formats', result: 'ok' },
  { source: '§5', item: 'proxy key as Authorization: Bearer, x-api-key (messages, chat) or x-goog-api-key (generate)', check: 'key headers', result: 'ok' },
  { source: '§7, D6', item: 'proxy 401 in each vendor shape; 402 insufficient_balance; 400 malformed; 413 body too large', check: 'proxy errors', result: 'ok' },
  { source: '§7, D6', item: '503 when no upstream is configured, 502 when the upstream fails', check: 'proxy upstream errors', result: 'ok' },
  { source: '§8', item: 'rate limits 60 messages / 120 chat / 60 generate per minute per tenant; 429 when exhausted', check: 'proxy rate limits', result: 'ok' },
  { source: 'D9', item: '/api 600 requests per minute per user; login 10 per minute per IP; 429 in the envelope', check: 'api rate limits', result: 'ok' },
  { source: 'D9', item: 'every list: ?limit= default 50, max 200, &cursor=; {items, nextCursor}', check: 'pagination', result: 'ok' },
  { source: 'D9', item: 'ledger filters type, projectId, from, to, minAmount, maxAmount', check: 'ledger filters', result: 'ok' },
  { source: '§2 Learning-plane resources, §3 locks', item: 'proposal status minted, gate1ResultId, gate2ResultId, validationCostMicros, lastValidatedAt, manifestId null, approvedByUserId/rejectReason/approvedAt never written; synthetic cases (caseHash, quality scores), replay results (actualOutput, expectedOutput, passed, divergenceReason), cost summary (totalValidationCostMicros)', check: 'admin-learning.test.ts', result: 'ok' },
  { source: 'D9', item: 'admin gate history (GET /api/admin/learning/proposals/:id/gates) pages with {items, nextCursor}', check: 'admin-learning.test.ts', result: 'fixed: it had items only' },
  { source: 'D9, §8', item: 'GET /api/tenant/insights/activity pages with &cursor= and nextCursor', check: 'test/feed-pages.test.ts', result: 'fixed: a cursor over (time, source, id) across call logs, ledger entries and alerts; ?limit= default 50 (the §8 feed size), max 200' },
  { source: 'D9', item: 'GET /api/projects/:id/integrations pages with {items, nextCursor}', check: 'test/feed-pages.test.ts', result: 'fixed: {items, nextCursor} in catalogue order, the cursor is the last tile\'s tool' },
  { source: 'D9', item: 'GET /api/connector/activity (key-authenticated, for the connectors) pages with &cursor=', check: 'test/feed-pages.test.ts', result: 'fixed: {items, nextCursor}, the activity feed\'s cursor on the key\'s project (?limit= ≤ 50, default 10)' },
  { source: 'D6', item: 'x-service-tokens-saved on streamed responses and without a benchmark provider', check: 'src/http/proxy/proxy.test.ts', result: 'fixed: "null" without a benchmark provider (D7: savings are null, never a fabricated 0); "pending" on a stream with one, whose headers leave before it is settled (llm.call and the call log carry the figure)' },
  { source: 'D9', item: '/api errors 400 validation, 401, 403, 404, 409 with {success:false, error, code}', check: 'api errors', result: 'ok' },
  { source: 'D8', item: 'customer ledger omits eventType, modelId, providerKey, actualCostUsdMicros, baselineCostUsdMicros, benchmarkPricingVersion, benchmarkMethodologyVersion', check: 'ledger fields', result: 'ok' },
  { source: '§6', item: "stream: 'connected' frame {projectId, at}; event name = type; id: per frame; heartbeat ': heartbeat <epoch-ms>'; default interval 25 s", check: 'event stream', result: 'ok' },
  { source: '§6, D10', item: 'Last-Event-ID resumes with the missed frames', check: 'event stream', result: 'ok' },
  { source: '§4, §5', item: 'event stream authenticated by cookie as well as Authorization', check: 'event stream', result: 'ok' },
  { source: '§6 Webhooks', item: 'body is the stream frame; X-Service-Signature = sha256=HMAC(secret, raw body); Standard Webhooks signature verifies', check: 'webhook delivery', result: 'ok' },
  { source: '§6 retry rules', item: 'a failed delivery is retried 1 minute later', check: 'webhook retry', result: 'ok' },
  { source: 'D10a', item: 'replay of a failed delivery is a new attempt now; replay of a succeeded one is 409', check: 'webhook retry', result: 'ok' },
  { source: 'D10', item: 'webhook URL must be https and public unless ALLOW_PRIVATE_WEBHOOK_TARGETS=true', check: 'webhook url rules', result: 'ok' },
  { source: 'D10', item: '20 webhooks per tenant', check: 'webhook url rules', result: 'ok' },
  { source: 'D11', item: 'POST {checkoutUrl}/confirm completes the top-up: WALLET_TOPUP entry, invoice with a PDF', check: 'top-up', result: 'ok' },
  { source: '§8', item: 'activity feed: the last 50 events', check: 'activity feed size', result: 'ok' },
  { source: 'D15, §9', item: 'reserved verbs approve, reject, publish, promote, rollout, rollback answer 404', check: 'reserved verbs', result: 'ok' },
  { source: 'D15', item: 'PATCH /api/admin/learning/budget/:id {budgetMicros}', check: 'admin budget', result: 'ok' },
  { source: 'D6', item: 'the response echoes the client model string', check: 'proxy model echo', result: 'ok' },
  { source: 'D14', item: 'x-service-channel names the channel on llm.call', check: 'channel header', result: 'ok' },
  { source: 'D14', item: 'POST /api/auth/device works without a request body (the spec names none)', check: 'device start without body', result: 'fixed: deviceName is optional and defaults to a name from the User-Agent' },
  { source: '§4', item: 'POST routes whose request the spec gives as none accept an empty body (with or without a JSON content type)', check: 'empty bodies', result: 'ok' },
];

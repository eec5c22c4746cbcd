// The only reader of process.env (CONVENTIONS). Every setting is validated once at start-up;
// a bad value stops start-up with a message naming the variable (D11). No setting is needed for
// the default run.
import { isIP } from 'node:net';
import { z } from 'zod';
import { PROVIDER_KEYS, type ProviderKey } from './core/providers.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const port = z.coerce.number().int().min(0).max(65535);

/**
 * TRUST_PROXY: which direct peers may tell the client's address in X-Forwarded-For. `false` (the
 * default): nobody, the socket's address is the client's. `true`: every hop (only when nothing but
 * the balancer can reach the server). Otherwise a comma-separated list of addresses, CIDR ranges
 * and the names loopback, linklocal, uniquelocal, as Fastify's trustProxy takes it.
 */
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const trustProxy = z.string().transform((raw, ctx): boolean | string[] => {
  const v = raw.trim().toLowerCase();
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => {
    if (PROXY_NAMES.has(e)) return false;
    const [addr, bits, more] = e.split('/');
    const family = isIP(addr ?? '');
    if (!family || more !== undefined) return true;
    return bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  if (!entries.length || bad.length) {
    ctx.addIssue({ code: 'custom', message: `must be false, true, or a comma-separated list of addresses, CIDR ranges and loopback, linklocal, uniquelocal (not understood: ${bad.join(', ') || raw})` });
    return z.NEVER;
  }
  return entries;
});
const posInt = z.coerce.number().int().positive();
/** Money settings: a decimal integer string of USD micros, read as bigint (D1). */
const micros = z.string().regex(/^\d{1,18}$/, 'must be a whole number of USD micros').transform((v) => BigInt(v));

const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  /** Public base URL used in links (verification e-mails, checkout pages). Defaults to http://HOST:PORT. */
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
  /** Prefix of every Redis key (rate-limit buckets, event streams, presence): lets deployments share a Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[\w:.-]{1,64}$/, 'must be 1-64 characters of letters, digits, : . _ -').default('sb:'),
  /** Secrets for JWTs and ledger seals. Generated and kept in DATA_DIR when unset. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LEDGER_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Ed25519 private key (PKCS#8 PEM; `\n` allowed for line breaks) that signs the ledger
   * checkpoints (D17). Generated and kept in DATA_DIR when unset; every replica and worker of a
   * deployment must share it.
   */
  LEDGER_SIGNING_KEY: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  UPSTREAM_TIMEOUT_MS: posInt.default(60_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: posInt.default(5_000),
  /** Port of the simulated upstream started by `npm start` or `npm run sim` (0 = any free port). */
  SIM_PORT: port.default(0),
  /**
   * Base URL of a simulated upstream running on its own (`npm run sim` prints it): with no provider
   * configured, `serve` (and `start`, instead of starting its own) sends every provider there, each
   * under its path suffix (`/openai`, `/anthropic`, `/google`, `/mistral`, `/deepseek`), and labels
   * the answers simulated (D11).
   */
  SIM_URL: z.url().refine((u) => /^https?:\/\//.test(u), 'must be an http:// URL').optional(),
  /**
   * Proxy calls in flight on one replica past which the next is shed at once with the vendor's
   * native 503 and Retry-After (D17); 0 turns shedding off.
   */
  MAX_INFLIGHT_CALLS: z.coerce.number().int().min(0).default(256),
  SSE_HEARTBEAT_MS: posInt.default(25_000),
  /** Open event streams allowed per user and per tenant on one replica; more answer 429 (issue 22 item 3). */
  SSE_MAX_STREAMS_PER_USER: posInt.default(20),
  SSE_MAX_STREAMS_PER_TENANT: posInt.default(200),
  ALLOW_PRIVATE_WEBHOOK_TARGETS: bool.default(false),
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  /** Base URL of the Stripe API (default https://api.stripe.com); point it at stripe-mock or a test double. */
  STRIPE_API_BASE: z.url().optional(),
  /**
   * A reservation whose call has not settled after this long is released by the sweeper (D8). The
   * worker sweeps every quarter of it (at least every second, at most every minute), so a hold is
   * released between the timeout and 1.25 × the timeout (+ 1 s); below 1 s that cannot be honoured.
   */
  RESERVATION_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1_000, 'must be at least 1000 (ms): the sweeper runs at most once a second')
    .max(7 * 24 * 3_600_000, 'must be at most 604800000 (7 days)')
    .default(10 * 60_000),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// URL').optional(),
  MAIL_FROM: z.string().default('Switchboard <no-reply@switchboard.local>'),
  /** Request body limit for the proxy and /api, bytes. */
  BODY_LIMIT_BYTES: posInt.default(4 * 1024 * 1024),
  QA_JUDGE_ENABLED: bool.default(false),
  /** Per-tenant proxy rate limits, requests per minute (spec §8 defaults). */
  RATE_LIMIT_MESSAGES_PER_MIN: posInt.default(60),
  RATE_LIMIT_CHAT_PER_MIN: posInt.default(120),
  RATE_LIMIT_GENERATE_PER_MIN: posInt.default(60),
  /**
   * The load balancer(s) whose X-Forwarded-For is believed (see trustProxy above): the client
   * address that sign-in and device-code rate limits, sessions and the audit log record. Off by
   * default; `npm run cluster` sets 127.0.0.1 (its HAProxy). docs/cluster.md.
   */
  TRUST_PROXY: trustProxy.default(false),
  /** Sign-in attempts per minute per client address (D9). */
  RATE_LIMIT_LOGIN_PER_MIN: posInt.default(10),
  /** The learning plane (D15): worker jobs only, never the request path. false keeps the worker from running it. */
  LEARNING_ENABLED: bool.default(true),
  /** The plane's stages run shortly after the worker starts, then every this many seconds. */
  LEARNING_INTERVAL_SECONDS: posInt.default(60),
  /** Fires of one signal within 24 hours that mint a proposal. */
  LEARNING_SIGNAL_MIN_FIRES: posInt.default(3),
  /** Consumed outbox rows keep their request and response bodies this long; their hashes stay. */
  LEARNING_OUTBOX_RETENTION_DAYS: posInt.default(30),
  /** Tier B calls a real cheap model only when true AND an upstream key is configured; mock otherwise. */
  LEARNING_TIER_B_LIVE: bool.default(false),
  /** Gate 2: passedCount / caseCount at least this. */
  LEARNING_REPLAY_PASS_RATIO: z.coerce.number().min(0).max(1).default(0.9),
  /** Default monthly budgets per category (USD micros), applied when a month's row is first made. */
  LEARNING_BUDGET_SYNTHGEN_MICROS: micros.default(5_000_000n),
  LEARNING_BUDGET_REPLAY_MICROS: micros.default(1_000_000n),
  /** A proposal validated longer ago than this is flagged stale and validated again. */
  LEARNING_STALE_AFTER_HOURS: posInt.default(24),
  /** Detectors: scored calls a cell needs before the cost, quality and escalation detectors judge it. */
  LEARNING_MIN_EVIDENCE: posInt.default(10),
  /** Coverage: a task family with fewer calls than this in 24 hours has too little evidence. */
  LEARNING_COVERAGE_MIN_EVIDENCE: posInt.default(20),
  /** Yielding (docs/learning-plane.md): the serving side counts as quiet after this many ms without a proxy call. */
  LEARNING_QUIET_MS: posInt.default(500),
  /** Share of wall time the plane may work while calls are being served (0: only when quiet, or behind). */
  LEARNING_BUSY_SHARE: z.coerce.number().min(0).max(1).default(0.02),
  /** Unconsumed outbox rows from which the plane takes its busy share under traffic (below: only quiet moments; 0: always). */
  LEARNING_BUSY_BACKLOG: z.coerce.number().int().min(0).default(50_000),
  /** Unconsumed outbox rows at which the plane stops yielding until it is back under, so the backlog stays bounded. */
  LEARNING_BACKLOG_CAP: posInt.default(100_000),
});

/** <PROVIDER>_API_KEY and <PROVIDER>_BASE_URL for each of the five providers (D11). */
const providerSchema = z.object(
  Object.fromEntries(
    PROVIDER_KEYS.flatMap((p) => [
      [`${p.toUpperCase()}_API_KEY`, z.string().min(1).optional()],
      [`${p.toUpperCase()}_BASE_URL`, z.url().optional()],
    ]),
  ) as Record<string, z.ZodOptional<z.ZodString>>,
);

export interface ProviderConfig {
  apiKey?: string;
  baseUrl?: string;
}

export type Config = z.infer<typeof schema> & {
  providers: Record<ProviderKey, ProviderConfig>;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset": shells and .env files often export VAR= .
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  const prov = providerSchema.safeParse(cleaned);
  const issues = [...(parsed.error?.issues ?? []), ...(prov.error?.issues ?? [])];
  if (!parsed.success || !prov.success) {
    const lines = issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  // Stripe needs both halves: without the webhook secret no payment could ever be confirmed.
  if (parsed.data.STRIPE_SECRET_KEY && !parsed.data.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration:\n  STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set');
  }
  const providers = {} as Record<ProviderKey, ProviderConfig>;
  for (const p of PROVIDER_KEYS) {
    const up = p.toUpperCase();
    providers[p] = { apiKey: prov.data[`${up}_API_KEY`], baseUrl: prov.data[`${up}_BASE_URL`] };
  }
  return { ...parsed.data, providers };
}

// The settings of the processes that run on a user's machine (`switchboard mcp`, D14). They talk
// to a Switchboard over HTTP and need none of the server's settings.
const connectorSchema = z.object({
  /** The Switchboard deployment, e.g. https://switchboard.example.com (no trailing /v1). */
  SWITCHBOARD_URL: z
    .url()
    .refine((u) => /^https?:\/\//.test(u), 'must be an http:// or https:// URL')
    .transform((u) => u.replace(/\/+$/, '').replace(/\/v1$/, ''))
    .default('http://127.0.0.1:8080'),
  /** A service key of the project the connector works for (create one at <url>/developer-zone). */
  SWITCHBOARD_API_KEY: z.string().min(1, 'is required: create a key at <SWITCHBOARD_URL>/developer-zone').optional(),
  /** `switchboard advisory` only: a user's access token or personal access token instead of a key. */
  SWITCHBOARD_TOKEN: z.string().min(1).optional(),
  /** Where the desktop bridge keeps its sign-in (a 0600 file): default $XDG_CONFIG_HOME/switchboard or ~/.config/switchboard. */
  SWITCHBOARD_CONFIG_DIR: z.string().min(1).optional(),
  XDG_CONFIG_HOME: z.string().min(1).optional(),
  HOME: z.string().min(1).optional(),
  /** The name the bridge's session gets (shown on /security); default the host name. */
  SWITCHBOARD_DEVICE_NAME: z.string().trim().min(1).max(80).optional(),
  /** How often the bridge checks that its session still stands (seconds). */
  SWITCHBOARD_BRIDGE_CHECK_SECONDS: z.coerce.number().positive().max(3600).default(60),
  /** The command the bridge's tray runs with the dashboard's URL ("Open dashboard"); default xdg-open. */
  SWITCHBOARD_OPENER: z.string().trim().min(1).default('xdg-open'),
});
export type ConnectorConfig = z.infer<typeof connectorSchema>;

export function loadConnectorConfig(env: Record<string, string | undefined> = process.env): ConnectorConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = connectorSchema.safeParse(cleaned);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  return parsed.data;
}

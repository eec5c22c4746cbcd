// Boots the service: database (embedded unless DATABASE_URL), migrations, services, HTTP server
// and, for `start`, the simulated upstream and the worker in the same process. Tests use the very
// same function, so what they exercise is what `npm start` runs.
import { join, resolve } from 'node:path';
import '../infra/routing-weights.ts';
import { shippedModel } from '../core/routing/classify.ts';
import type { Config } from '../config.ts';
import { createDb } from '../store/db.ts';
import { startEmbeddedPostgres, type EmbeddedDb } from '../store/embedded.ts';
import { migrate } from '../store/migrations/index.ts';
import { systemClock, type Clock } from '../infra/clock.ts';
import { MemoryRateLimiter } from '../infra/limiter/memory.ts';
import { RedisRateLimiter } from '../infra/limiter/redis.ts';
import { FailOpenRateLimiter } from '../infra/limiter/fallback.ts';
import type { RateLimiter } from '../infra/limiter/limiter.ts';
import type { EventBus } from '../infra/bus/bus.ts';
import { MemoryEventBus } from '../infra/bus/memory.ts';
import { RedisEventBus } from '../infra/bus/redis.ts';
import { OutboxRelay } from '../app/events/index.ts';
import { Admission } from '../app/money/index.ts';
import { Settler } from '../app/money/index.ts';
import { writeFollowUps } from '../app/calls/index.ts';
import { createWebhookClient } from '../infra/webhook-client.ts';
import { createMailer } from '../infra/mailer.ts';
import { createPaymentProcessor } from '../infra/payments/index.ts';
import { BRANDS } from '../core/providers.ts';
import { PRICE_BOOK, checkRegistry, type PriceBook } from '../core/pricing/index.ts';
import { KeyCache } from '../app/identity/index.ts';
import { evictCallContexts } from '../app/money/index.ts';
import { LocalInvalidation, RedisInvalidation, type Invalidation } from '../infra/invalidation.ts';
import { createLogger } from '../infra/logger.ts';
import { loadSecrets, markServing } from '../app/shared/index.ts';
import type { Services } from '../app/shared/index.ts';
import PgBoss from 'pg-boss';
import { buildServer } from '../http/server.ts';
import { buildCallDeps } from '../app/calls/index.ts';
import { RulesCache } from '../app/calls/index.ts';
import { proxyRoutes } from '../http/proxy/index.ts';
import { callLoad } from '../http/proxy/load.ts';
import { createQueues, startWorker } from '../jobs/index.ts';
import { createJobQueue } from '../jobs/queues.ts';
import type { App } from '../http/api/common.ts';

export interface RuntimeOptions {
  clock?: Clock;
  /** Listen for HTTP (serve). */
  http?: boolean;
  /** Run the background job handlers in this process (worker). */
  worker?: boolean;
  /** Base URL of a simulated upstream: used for every provider when none is configured. */
  simUrl?: string | null;
  /** The registry the start-up check compares (spec §1 rule 4); the shipped ones unless a test swaps one. */
  registry?: { brands: Readonly<Record<string, { key: string }>>; priceBook: PriceBook };
}

/** Spec §1 rule 4, D7: the brand registry and the price book must agree, or the service does not start. */
export function assertRegistry(brands: Readonly<Record<string, { key: string }>>, priceBook: PriceBook): void {
  const r = checkRegistry(brands, priceBook);
  if (!r.ok) throw new Error(`brand registry and price book disagree (${r.code}): ${r.message}`);
}

export interface Runtime {
  url: string;
  /** Where the data is, for the start-up banner. */
  dbDescription: string;
  services: Services;
  app: App | null;
  close(): Promise<void>;
}

const CLOSE_STEP_TIMEOUT_MS = 30_000;
/** How long SIGTERM waits for the proxy calls in flight before closing the server anyway. */
const DRAIN_TIMEOUT_MS = 25_000;

export async function startRuntime(cfg: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  // Layer 1's table is read and checked now: a missing or stale file stops the start with its fix,
  // and the first call does not pay for the read.
  shippedModel();
  const closers: Array<() => Promise<unknown>> = [];
  // Each shutdown step is bounded: a step that never settles (a drain waiting on work that will not
  // come) must not keep SIGTERM, or a test file's process, from ending. It is named on stderr.
  const close = async () => {
    for (const c of closers.reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), CLOSE_STEP_TIMEOUT_MS)));
      const done = await Promise.race([c().then(() => 'ok', () => 'ok'), late]);
      clearTimeout(timer);
      if (done === 'late') {
        process.stderr.write(`${JSON.stringify({ level: 'warn', msg: 'shutdown step did not finish; continuing', step: c.toString().slice(0, 120), timeoutMs: CLOSE_STEP_TIMEOUT_MS })}\n`);
      }
    }
  };
  try {
    assertRegistry(opts.registry?.brands ?? BRANDS, opts.registry?.priceBook ?? PRICE_BOOK);
    let databaseUrl = cfg.DATABASE_URL;
    let embedded: EmbeddedDb | null = null;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres({ dataDir: join(cfg.DATA_DIR, 'pg'), passwordFile: join(cfg.DATA_DIR, 'pg-password') });
      closers.push(() => embedded!.stop());
      databaseUrl = embedded.url;
    }
    const { db } = createDb(databaseUrl);
    closers.push(() => db.destroy());
    await migrate(db);

    const clock = opts.clock ?? systemClock;
    const log = createLogger(cfg.LOG_LEVEL);
    let limiter: RateLimiter;
    let bus: EventBus;
    let invalidation: Invalidation = new LocalInvalidation();
    const onBusError = (e: unknown) => log.warn(e, 'event bus error');
    if (cfg.REDIS_URL) {
      const { Redis } = await import('ioredis');
      // Reconnect attempts every 50 ms more, capped at 500 ms (ioredis' default cap is 2 s): once
      // Redis is back, every replica shares its buckets again within half a second.
      const redis = new Redis(cfg.REDIS_URL, { maxRetriesPerRequest: 2, lazyConnect: false, retryStrategy: (times) => Math.min(times * 50, 500) });
      // A lost connection is retried by ioredis; without a listener each attempt would print an
      // "Unhandled error event". The limiter below says when Redis is gone and when it is back.
      redis.on('error', () => {});
      closers.push(() => redis.quit());
      // Fail open to per-replica buckets while Redis is down (docs/cluster.md).
      limiter = new FailOpenRateLimiter(redis, new RedisRateLimiter(redis, `${cfg.REDIS_KEY_PREFIX}rl:`), new MemoryRateLimiter(clock), (down, err) =>
        down
          ? log.warn({ err: err instanceof Error ? err.message : undefined }, 'Redis unreachable: rate limits are per replica until it is back')
          : log.warn('Redis is back: rate limits are shared across replicas again'),
      );
      bus = new RedisEventBus(redis, { prefix: cfg.REDIS_KEY_PREFIX, onError: onBusError });
      const inv = new RedisInvalidation(redis, `${cfg.REDIS_KEY_PREFIX}invalidate`, (e) => log.warn(e, 'cache invalidation error'));
      await inv.whenReady();
      invalidation = inv;
    } else {
      limiter = new MemoryRateLimiter(clock);
      bus = new MemoryEventBus({ onError: onBusError });
    }
    closers.push(() => bus.close());
    const publicUrl = cfg.PUBLIC_URL ?? `http://${cfg.HOST.includes(':') ? `[${cfg.HOST}]` : cfg.HOST}:${cfg.PORT}`;
    closers.push(() => invalidation.close());
    const keyCache = new KeyCache(db, clock);
    keyCache.broadcast = (id) => invalidation.publish({ kind: 'key', id });
    const flush = setInterval(() => keyCache.flushLastUsed().catch((e) => log.warn(e, 'last-used flush failed')), 5_000);
    flush.unref();
    closers.push(async () => {
      clearInterval(flush);
      await keyCache.flushLastUsed().catch(() => {});
    });

    // pg-boss keeps its own small pool; its schema lives beside ours in the same database.
    const boss = new PgBoss({ connectionString: databaseUrl, max: 4, schema: 'pgboss' });
    boss.on('error', (e) => log.warn(e, 'job queue error'));
    await boss.start();
    closers.push(() => boss.stop({ graceful: false, wait: true, timeout: 5_000 }));
    await createQueues(boss);

    // Layer 3 rules are read from memory on the hot path and refreshed in the background.
    const rules = new RulesCache({ db, clock, log });
    await rules.refresh();
    rules.start();
    closers.push(async () => rules.stop());

    const base: Omit<Services, 'outbox' | 'admission' | 'settler'> = {
      config: cfg,
      db,
      clock,
      limiter,
      secrets: await loadSecrets(cfg),
      mailer: createMailer({ smtpUrl: cfg.SMTP_URL, outboxDir: resolve(cfg.DATA_DIR, 'outbox'), from: cfg.MAIL_FROM }),
      keyCache,
      log,
      publicUrl,
      boss,
      jobs: createJobQueue(boss, log),
      calls: buildCallDeps(cfg, opts.simUrl ?? null, rules.current),
      rules,
      payments: await createPaymentProcessor(cfg),
      bus,
      webhookClient: createWebhookClient({ allowPrivate: cfg.ALLOW_PRIVATE_WEBHOOK_TARGETS }),
      invalidation,
    };
    closers.push(() => base.calls.upstream.close());
    closers.push(() => base.webhookClient.close());
    // The relay needs the finished container, and the container holds the relay.
    const services = base as Services;
    invalidation.onMessage((m) => (m.kind === 'key' ? keyCache.evict(m.id) : evictCallContexts(services, m.id)));
    services.outbox = new OutboxRelay(services);
    services.settler = new Settler(services, writeFollowUps);
    services.admission = new Admission(services);
    services.admission.start();
    // Closed in reverse: the HTTP server stops first, then settlements drain, then leases are released.
    closers.push(() => services.admission.close());
    closers.push(() => services.settler.drain());
    if (opts.http !== false || opts.worker) {
      services.outbox.start();
      closers.push(() => services.outbox.close());
    }
    // Background work yields to the calls this process serves; a worker that serves none reads the
    // replicas' traffic from the database instead (app/shared/traffic.ts).
    if (opts.http !== false) markServing(services);
    if (opts.worker) {
      const stopWorker = await startWorker(boss, services);
      closers.push(async () => stopWorker());
    }

    let app: App | null = null;
    let url = publicUrl;
    if (opts.http !== false) {
      app = await buildServer(services, [proxyRoutes]);
      closers.push(() => app!.close());
      // Runs before the server closes (closers run in reverse): new proxy calls are refused with a
      // 503 and /health turns 503, calls and streams in flight finish and settle (D17). The event
      // streams still open are then ended by the close; their clients resume with Last-Event-ID.
      closers.push(() => callLoad(services).drain(DRAIN_TIMEOUT_MS));
      const address = await app.listen({ port: cfg.PORT, host: cfg.HOST });
      url = address.replace('0.0.0.0', '127.0.0.1');
      if (!cfg.PUBLIC_URL) services.publicUrl = url;
    }
    return { url, dbDescription: embedded ? `embedded PostgreSQL (${embedded.location})` : 'DATABASE_URL', services, app, close };
  } catch (e) {
    await close();
    throw e;
  }
}

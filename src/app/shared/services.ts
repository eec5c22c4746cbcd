// The service container: every piece of infrastructure is built once at start-up and passed in
// (CONVENTIONS 7). Use cases take what they need from here; nothing reads globals.
import type { Config } from '../../config.ts';
import type { LedgerSigningKey } from '../../core/ledger/checkpoint.ts';
import type { Db } from '../../store/db.ts';
import type { Clock } from '../../infra/clock.ts';
import type { RateLimiter } from '../../infra/limiter/limiter.ts';
import type { Mailer } from '../../infra/mailer.ts';
import type { KeyCache } from '../identity/index.ts';
import type { EventBus } from '../../infra/bus/bus.ts';
import type { OutboxRelay } from '../events/index.ts';
import type { WebhookClient } from '../../infra/webhook-client.ts';
import type PgBoss from 'pg-boss';
import type { Invalidation } from '../../infra/invalidation.ts';
import type { CallDeps } from '../calls/index.ts';
import type { RulesCache } from '../calls/index.ts';
import type { PaymentProcessor } from '../../infra/payments/processor.ts';
import type { Admission } from '../money/index.ts';
import type { Settler } from '../money/index.ts';
import type { JobQueue } from './jobs.ts';

export interface Secrets {
  /** HS256 key for access and refresh JWTs. */
  jwt: Uint8Array;
  /** HMAC key for ledger and security-audit seals. */
  ledger: Buffer;
  /** Ed25519 key that signs ledger checkpoints (D17); its public half is at /.well-known/switchboard-ledger-key. */
  ledgerSigning: LedgerSigningKey;
}

export interface Logger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface Services {
  config: Config;
  db: Db;
  clock: Clock;
  limiter: RateLimiter;
  secrets: Secrets;
  mailer: Mailer;
  keyCache: KeyCache;
  log: Logger;
  /** Base URL links point at (verification e-mails, checkout pages). */
  publicUrl: string;
  /** The job queue (pg-boss), for the runtime and the worker; use cases enqueue through `jobs`. */
  boss: PgBoss;
  /** What the use cases enqueue (app/ never imports jobs/). */
  jobs: JobQueue;
  /** Cache invalidation that reaches every replica (keys, call contexts). */
  invalidation: Invalidation;
  /** The proxy call pipeline's collaborators (providers, pools, health). */
  calls: CallDeps;
  /** Layer 3 rules in force, refreshed from the database in the background. */
  rules: RulesCache;
  /** Takes the money for top-ups: the sandbox by default, Stripe when configured (D11). */
  payments: PaymentProcessor;
  /** Project event streams (in-process, or Redis Streams with REDIS_URL). */
  bus: EventBus;
  /** Relays events written with enqueueEventInTx; `kick()` after a commit publishes at once. */
  outbox: OutboxRelay;
  /** Outbound webhook HTTP with the SSRF rules of D10 applied at connect time. */
  webhookClient: WebhookClient;
  /** The proxy's reservations: in-memory admission against wallet leases (D8). */
  admission: Admission;
  /** Every settlement, group-committed (D8). */
  settler: Settler;
}

/**
 * A map kept per service container, for caches that live as long as one runtime (tests run several
 * runtimes in one process, so a module-level map would mix them). Call once per cache.
 */
export function mapPerServices<V>(): (s: Services) => Map<string, V> {
  const maps = new WeakMap<Services, Map<string, V>>();
  return (s) => {
    let m = maps.get(s);
    if (!m) maps.set(s, (m = new Map()));
    return m;
  };
}

// Cache invalidation across replicas. Each replica caches service keys (KeyCache) and call
// contexts (project settings); a revocation or an edit must reach every replica at once, not when
// their TTLs run out. In-process by default (one replica: the handlers run right away); with
// REDIS_URL, messages go out on a Redis pub/sub channel every replica listens to.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

export interface InvalidationMessage {
  /** 'key': a service key changed (id = key id); 'context': a tenant's project settings or benchmark changed (id = tenant id). */
  kind: 'key' | 'context';
  id: string;
}

export interface Invalidation {
  /** Apply here at once, and tell every other replica. */
  publish(m: InvalidationMessage): void;
  onMessage(handler: (m: InvalidationMessage) => void): void;
  close(): Promise<void>;
}

export class LocalInvalidation implements Invalidation {
  protected handlers: Array<(m: InvalidationMessage) => void> = [];
  publish(m: InvalidationMessage): void {
    for (const h of this.handlers) h(m);
  }
  onMessage(handler: (m: InvalidationMessage) => void): void {
    this.handlers.push(handler);
  }
  async close(): Promise<void> {}
}

export class RedisInvalidation extends LocalInvalidation {
  private readonly origin = randomUUID();
  private readonly sub: Redis;
  private readonly ready: Promise<unknown>;

  constructor(
    private readonly pub: Redis,
    private readonly channel: string,
    onError: (e: unknown) => void,
  ) {
    super();
    // A subscribed connection can do nothing else, so it gets its own.
    this.sub = pub.duplicate();
    this.sub.on('error', onError);
    this.sub.on('message', (_channel: string, raw: string) => {
      try {
        const m = JSON.parse(raw) as InvalidationMessage & { origin: string };
        if (m.origin === this.origin) return; // already applied when published here
        super.publish({ kind: m.kind, id: m.id });
      } catch (e) {
        onError(e);
      }
    });
    this.ready = this.sub.subscribe(channel);
  }

  /** Resolves once this replica listens: start-up waits for it so no message is missed. */
  whenReady(): Promise<unknown> {
    return this.ready;
  }

  override publish(m: InvalidationMessage): void {
    super.publish(m);
    void this.pub.publish(this.channel, JSON.stringify({ ...m, origin: this.origin })).catch(() => {});
  }

  override async close(): Promise<void> {
    await this.sub.quit().catch(() => {});
  }
}

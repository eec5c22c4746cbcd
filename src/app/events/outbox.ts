// The event outbox relay: publishes events written with enqueueEventInTx once their transaction
// has committed. Every serving or working process runs one; they share the table with
// `FOR UPDATE SKIP LOCKED`, so each row is taken by one relay at a time. Within a batch, webhook
// deliveries are created and the rows marked in the same transaction (exactly once), and frames
// are published to the bus before that commit (at least once: a crash between the two publishes
// a frame again, never loses one). A batch costs a constant number of statements, not a few per
// row: BEGIN, one statement that claims and marks the rows and says which have a subscribed
// webhook, COMMIT; and only when a webhook matched, its query and the deliveries' inserts.
// A kick after the writer's commit makes the path prompt; the poll (150 ms) is the safety net for
// kicks on other replicas and for crashes. Passes start at least MIN_GAP_MS apart, each taking
// everything pending, so a few passes a second serve every commit, whether calls come one at a
// time or fifty at once, instead of one pass per commit.
import { performance } from 'node:perf_hooks';
import type { Services } from '../shared/index.ts';
import { createDeliveriesBatch, publishFrames } from './events.ts';
import { claimOutboxBatch } from './events.repo.ts';

const BATCH = 100;
/** Least time between the starts of two passes (an event waits at most this much longer). */
export const MIN_GAP_MS = 20;

export class OutboxRelay {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private startedAt = 0;
  private delayed: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;
  /** Passes run, and those that found a row whose tenant has a subscribed webhook. */
  readonly stats = { passes: 0, hooked: 0 };

  constructor(
    private readonly s: Services,
    private readonly pollMs = 150,
  ) {}

  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
  }

  /** Run a pass now (coalesced with one already running). */
  kick(): void {
    if (this.closed || this.soon) return; // a pass about to start will see the new rows
    if (this.running || this.delayed) {
      this.again = true;
      return;
    }
    const wait = MIN_GAP_MS - (performance.now() - this.startedAt);
    if (wait > 0) {
      this.delayed = setTimeout(() => {
        this.delayed = null;
        this.run();
      }, wait);
      return;
    }
    // After the current turn of the event loop: the response whose commit kicked is written first.
    this.soon = setImmediate(() => {
      this.soon = null;
      this.run();
    });
  }

  private run(): void {
    if (this.closed) return;
    this.startedAt = performance.now();
    this.running = this.drain()
      .then(() => {})
      .catch((e) => this.s.log.warn(e, 'event outbox relay failed'))
      .finally(() => {
        this.running = null;
        if (!this.again || this.closed) return;
        this.again = false;
        const wait = MIN_GAP_MS - (performance.now() - this.startedAt);
        if (wait <= 0) return this.run();
        this.delayed = setTimeout(() => {
          this.delayed = null;
          this.run();
        }, wait);
      });
  }

  /** Publish everything pending; resolves with the number of rows published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.pass();
      total += n;
      if (n < BATCH || this.closed) return total;
    }
  }

  private async pass(): Promise<number> {
    const s = this.s;
    return s.db.transaction().execute(async (tx) => {
      const rows = await claimOutboxBatch(tx, s.clock.now(), BATCH);
      this.stats.passes += 1;
      if (rows.length === 0) return 0;
      rows.sort((x, y) => (x.id < y.id ? -1 : 1)); // publish in outbox order
      // A constant number of statements per batch, whatever its size: when a row's tenant has a
      // webhook subscribed to its type, the deliveries of those rows (one webhook query, one
      // insert, one job insert); the tenant-wide fan-out query when there is such a row.
      const batch = rows.map((r) => ({ frame: r.frame, tenantWide: r.tenant_wide }));
      const hooked = rows.filter((r) => r.hooked).map((r) => r.frame);
      if (hooked.length > 0) {
        this.stats.hooked += 1;
        await createDeliveriesBatch(s, tx, hooked);
      }
      await publishFrames(s, tx, batch);
      return rows.length;
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.delayed) clearTimeout(this.delayed);
    this.delayed = null;
    if (this.soon) clearImmediate(this.soon);
    this.soon = null;
    this.timer = null;
    await this.running;
  }
}

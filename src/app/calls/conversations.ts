// Thread continuity (spec §1, issue 19 item 7): the calls of one conversation
// (`x-service-conversation-id`) keep the model class of their earlier turns (never lower) and the
// endpoint chosen for them while that endpoint stays healthy, so a thread does not change models
// mid-way and keeps the provider's prompt cache warm. Pins live in this process, per tenant,
// bounded in number and age (docs/routing.md, "Thread continuity"): a lookup is a Map read on the
// hot path, never a round trip before the upstream call.
import { classRank, type ModelClass } from '../../core/model-class.ts';

export interface ConversationPin {
  modelClass: ModelClass;
  /** Layer 2's endpoint key (`provider:model`) that answered the last turn. */
  endpointKey: string;
  at: number;
}

export class ConversationPins {
  private readonly pins = new Map<string, ConversationPin>();

  constructor(
    private readonly maxEntries = 100_000,
    private readonly ttlMs = 24 * 60 * 60 * 1000,
  ) {}

  private static key(tenantId: string, conversationId: string): string {
    return `${tenantId}\u0000${conversationId}`;
  }

  get(tenantId: string, conversationId: string, now: number): ConversationPin | undefined {
    const k = ConversationPins.key(tenantId, conversationId);
    const pin = this.pins.get(k);
    if (!pin) return undefined;
    if (now - pin.at > this.ttlMs) {
      this.pins.delete(k);
      return undefined;
    }
    return pin;
  }

  /** Record the turn's class (the pin never goes down) and the endpoint that answered it. */
  record(tenantId: string, conversationId: string, modelClass: ModelClass, endpointKey: string, now: number): void {
    const k = ConversationPins.key(tenantId, conversationId);
    const old = this.pins.get(k);
    const keep = old && now - old.at <= this.ttlMs && classRank(old.modelClass) > classRank(modelClass);
    // Re-inserted so the Map's order is least recently used first.
    this.pins.delete(k);
    this.pins.set(k, { modelClass: keep ? old.modelClass : modelClass, endpointKey, at: now });
    if (this.pins.size > this.maxEntries) {
      const oldest = this.pins.keys().next().value;
      if (oldest !== undefined) this.pins.delete(oldest);
    }
  }

  get size(): number {
    return this.pins.size;
  }
}

/** The class a turn runs at: the classifier's, raised to the conversation's pinned class. */
export function continuedClass(decided: ModelClass, pin: ConversationPin | undefined): ModelClass {
  return pin && classRank(pin.modelClass) > classRank(decided) ? pin.modelClass : decided;
}

/**
 * The failover list with the pinned endpoint first when it is in the list and healthy (not a
 * half-open trial): Layer 2 already left out endpoints whose circuit is open or that cannot serve
 * the request, so a pinned endpoint missing from the list is not used and the pin moves on.
 */
export function pinnedFirst<T extends { key: string; trial: boolean }>(endpoints: T[], pin: ConversationPin | undefined): T[] {
  if (!pin) return endpoints;
  const i = endpoints.findIndex((e) => e.key === pin.endpointKey && !e.trial);
  if (i <= 0) return endpoints;
  return [endpoints[i], ...endpoints.slice(0, i), ...endpoints.slice(i + 1)];
}

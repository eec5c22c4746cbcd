// The call pipeline's collaborators, built once at start-up (CONVENTIONS 7): the configured
// providers, the endpoint candidates per routing scope, health tracking, the upstream pools, and
// the stages that touch money (context, admission, settlement, what follows it, failure), injected
// so a benchmark can time or replace them (bench/stages.ts, bench/hop-server.ts).
import type { Config } from '../../config.ts';
import type { ClientShape } from '../../core/canonical/types.ts';
import { endpointsFromPriceBook, type EndpointCandidate } from '../../core/routing/layer2.ts';
import type { Layer3Rule } from '../../core/routing/rules.ts';
import { BRANDS, type ProviderKey } from '../../core/providers.ts';
import { UpstreamClient } from '../../infra/upstream.ts';
import { HealthTracker } from './health.ts';
import { ConversationPins } from './conversations.ts';
import { configuredProviders, type ProviderEndpoint } from './providers.ts';
import { loadContext } from './context.ts';
import { admit } from './admit.ts';
import { fail, settle } from './settle.ts';
import { afterSettlement } from './after-settlement.ts';

/** The stages of a call that touch money, in the order a call meets them (pipeline.ts). */
export interface CallStages {
  loadContext: typeof loadContext;
  admit: typeof admit;
  settle: typeof settle;
  afterSettlement: typeof afterSettlement;
  fail: typeof fail;
}

/** Everything the pipeline needs beyond Services, built once at start-up. */
export interface CallDeps {
  providers: Map<string, ProviderEndpoint>;
  /** Endpoint candidates per routing scope: 'any' and one per client wire (vendor-locked). */
  candidates: Record<'any' | ClientShape, EndpointCandidate[]>;
  health: HealthTracker;
  upstream: UpstreamClient;
  stages: CallStages;
  /** Layer 3 rules in force (read by Layers 1 and 2). */
  rules: () => readonly Layer3Rule[];
  /** Thread continuity: each conversation's class and endpoint (conversations.ts). */
  pins: ConversationPins;
}

export function buildCallDeps(cfg: Config, simUrl: string | null, rules: () => readonly Layer3Rule[] = () => []): CallDeps {
  const providers = configuredProviders(cfg, simUrl);
  const all = endpointsFromPriceBook().filter((c) => providers.has(c.provider as ProviderKey));
  const byWire = (w: ClientShape) => all.filter((c) => BRANDS[c.provider as ProviderKey].wire === w);
  return {
    providers,
    candidates: { any: all, openai: byWire('openai'), anthropic: byWire('anthropic'), gemini: byWire('gemini') },
    health: new HealthTracker(),
    upstream: new UpstreamClient({ connectTimeoutMs: cfg.UPSTREAM_CONNECT_TIMEOUT_MS, timeoutMs: cfg.UPSTREAM_TIMEOUT_MS }),
    stages: { loadContext, admit, settle, afterSettlement, fail },
    rules,
    pins: new ConversationPins(),
  };
}

// The call pipeline's collaborators, built once at start-up (CONVENTIONS 7): the configured
// providers, the endpoint candidates per routing scope, health tracking, the upstream pools.
import type { Config } from '../../config.ts';
import type { ClientShape } from '../../core/canonical/types.ts';
import { endpointsFromPriceBook } from '../../core/routing/layer2.ts';
import type { Layer3Rule } from '../../core/routing/rules.ts';
import { BRANDS, type ProviderKey } from '../../core/providers.ts';
import { UpstreamClient } from '../../infra/upstream.ts';
import * as accounting from './accounting.ts';
import { HealthTracker } from './health.ts';
import { ConversationPins } from './conversations.ts';
import type { CallDeps } from './pipeline.ts';
import { configuredProviders } from './providers.ts';

export function buildCallDeps(cfg: Config, simUrl: string | null, rules: () => readonly Layer3Rule[] = () => []): CallDeps {
  const providers = configuredProviders(cfg, simUrl);
  const all = endpointsFromPriceBook().filter((c) => providers.has(c.provider as ProviderKey));
  const byWire = (w: ClientShape) => all.filter((c) => BRANDS[c.provider as ProviderKey].wire === w);
  return {
    providers,
    candidates: { any: all, openai: byWire('openai'), anthropic: byWire('anthropic'), gemini: byWire('gemini') },
    health: new HealthTracker(),
    upstream: new UpstreamClient({ connectTimeoutMs: cfg.UPSTREAM_CONNECT_TIMEOUT_MS, timeoutMs: cfg.UPSTREAM_TIMEOUT_MS }),
    accounting,
    rules,
    pins: new ConversationPins(),
  };
}

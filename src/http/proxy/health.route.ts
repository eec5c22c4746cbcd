// Health of each vendor-prefixed proxy (spec §4; D6 names the generate one). 200 while the API
// is up; the body says whether an upstream is configured for that shape and whether it is the
// simulated one (always labelled as such, D11).
import type { ClientShape } from '../../core/canonical/types.ts';
import type { Services } from '../../app/shared/index.ts';
import type { RouteModule } from '../api/common.ts';

function status(s: Services, wire: ClientShape) {
  const providers = [...s.calls.providers.values()].filter((p) => p.wire === wire);
  return {
    status: 'ok',
    upstream: providers.length > 0 ? 'configured' : 'unconfigured',
    simulated: providers.length > 0 && providers.every((p) => p.simulated),
  };
}

const route: RouteModule = (app, s) => {
  app.get('/v1/messages-proxy/health', async () => status(s, 'anthropic'));
  app.get('/v1/chat-proxy/health', async () => status(s, 'openai'));
  app.get('/v1/generate-proxy/health', async () => status(s, 'gemini'));
};
export default route;

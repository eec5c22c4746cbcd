// POST /v1/messages (generic drop-in: any provider, translated) and
// POST /v1/messages-proxy/v1/messages (messages-shape vendor only, piped through) — D6.
import type { RouteModule } from '../api/common.ts';
import { handleCall } from './scope.ts';

const route: RouteModule = (app, s) => {
  app.post('/v1/messages', { config: { shape: 'anthropic' } }, (req, reply) =>
    handleCall(s, req, reply, { shape: 'anthropic', surface: 'messages', vendorLocked: false }),
  );
  app.post('/v1/messages-proxy/v1/messages', { config: { shape: 'anthropic' } }, (req, reply) =>
    handleCall(s, req, reply, { shape: 'anthropic', surface: 'messages', vendorLocked: true }),
  );
};
export default route;

// POST /v1/chat/completions (generic drop-in: any provider, translated) and
// POST /v1/chat-proxy/v1/chat/completions (chat-shape vendors only, piped through) — D6.
import type { RouteModule } from '../api/common.ts';
import { handleCall } from './scope.ts';

const route: RouteModule = (app, s) => {
  app.post('/v1/chat/completions', { config: { shape: 'openai' } }, (req, reply) =>
    handleCall(s, req, reply, { shape: 'openai', surface: 'chat', vendorLocked: false }),
  );
  app.post('/v1/chat-proxy/v1/chat/completions', { config: { shape: 'openai' } }, (req, reply) =>
    handleCall(s, req, reply, { shape: 'openai', surface: 'chat', vendorLocked: true }),
  );
};
export default route;

// GET /v1/models: the catalogue of models eligible for routing under the tenant (those of the
// configured providers), in the OpenAI list shape — or the Anthropic one when the caller sends
// `anthropic-version`, as the Anthropic SDK does. GET /v1/chat-proxy/v1/models: the curated list
// of the chat-shape vendors. The client's `model` is only a hint (D6), so any id here is accepted.
import type { FastifyRequest } from 'fastify';
import { allModels } from '../../core/pricing/price-book.ts';
import { BRANDS, type ProviderKey } from '../../core/providers.ts';
import type { Services } from '../../app/shared/index.ts';
import type { RouteModule } from '../api/common.ts';
import { authenticateKey } from './scope.ts';

const CREATED = Math.floor(Date.parse('2026-11-01T00:00:00Z') / 1000);

function eligible(s: Services, chatOnly: boolean) {
  return allModels().filter((m) => s.calls.providers.has(m.provider) && (!chatOnly || BRANDS[m.provider as ProviderKey].wire === 'openai'));
}

function list(s: Services, req: FastifyRequest, chatOnly: boolean) {
  const models = eligible(s, chatOnly);
  if (!chatOnly && req.headers['anthropic-version']) {
    const data = models.map((m) => ({ type: 'model', id: m.id, display_name: m.id, created_at: new Date(CREATED * 1000).toISOString() }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  }
  return {
    object: 'list',
    data: models.map((m) => ({ id: m.id, object: 'model', created: CREATED, owned_by: BRANDS[m.provider as ProviderKey].name })),
  };
}

const route: RouteModule = (app, s) => {
  app.get('/v1/models', { config: { shape: 'openai' } }, async (req) => {
    await authenticateKey(s, req, 'openai');
    return list(s, req, false);
  });
  app.get('/v1/chat-proxy/v1/models', { config: { shape: 'openai' } }, async (req) => {
    await authenticateKey(s, req, 'openai');
    return list(s, req, true);
  });
};
export default route;

// The OpenAI Responses API on the chat shape (D19): POST /v1/responses (generic, any provider,
// translated) and POST /v1/chat-proxy/v1/responses (vendor-prefixed: chat-shape providers only),
// plain and streamed, through the same pipeline as chat completions (routed, reserved, settled,
// ledgered, evented). With `store` (the API's default) the answer is kept 30 days before its last
// bytes leave, so `previous_response_id` can continue it at once; GET/DELETE /v1/responses/:id
// read and remove it. `store: false` keeps nothing. An `item_reference` input item names an output
// item of one of the tenant's stored responses and is replaced by that item before the call is read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../app/shared/index.ts';
import { deleteStoredResponse, findStoredItems, findStoredResponse, storeResponse } from '../../app/calls/index.ts';
import { appError } from '../../core/errors.ts';
import type { Message } from '../../core/canonical/types.ts';
import { createResponsesWire, outputToMessages } from '../../wire/openai/responses/index.ts';
import type { RouteModule } from '../api/common.ts';
import { authenticateKey, handleCall } from './scope.ts';

type Body = Record<string, unknown> | null;

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function notFound(id: string) {
  return appError('not_found', `No response with id '${id}' was found (stored responses are kept 30 days; 'store: false' keeps none).`, {
    field: 'previous_response_id',
  });
}

/** `{type:'item_reference', id}`, or the same without `type` (the SDK's `ItemReference`: a bare `{id}`). */
const isReference = (it: unknown): it is Record<string, unknown> =>
  isObj(it) && (it.type === 'item_reference' || ((it.type === undefined || it.type === null) && it.role === undefined && 'id' in it));

/**
 * The body with each `item_reference` replaced by the item it names, from this tenant's live stored
 * responses; a reference to no such item is OpenAI's own 404 (`Item with id '…' not found.`).
 */
async function resolveReferences(s: Services, tenantId: string, body: Body): Promise<Body> {
  const input = body?.input;
  if (!Array.isArray(input) || !input.some(isReference)) return body;
  const ids: string[] = [];
  input.forEach((it, i) => {
    if (!isReference(it)) return;
    if (typeof it.id !== 'string' || it.id === '') throw appError('validation', `input[${i}].id: must be the id of an item (a non-empty string)`, { field: `input[${i}].id` });
    ids.push(it.id);
  });
  const items = await findStoredItems(s, tenantId, [...new Set(ids)]);
  const missing = ids.find((id) => !items.has(id));
  if (missing !== undefined) {
    throw appError('not_found', `Item with id '${missing}' not found. Items are kept with their stored response for 30 days; 'store: false' keeps none.`, { field: 'input' });
  }
  return { ...body, input: input.map((it) => (isReference(it) ? items.get(it.id as string) : it)) };
}

function create(s: Services, vendorLocked: boolean) {
  return (req: FastifyRequest, reply: FastifyReply) => {
    const b = (isObj(req.body) ? req.body : null) as Body;
    const store = b?.store !== false;
    const previous = typeof b?.previous_response_id === 'string' && b.previous_response_id !== '' ? b.previous_response_id : null;
    const customTools = new Set<string>();
    if (Array.isArray(b?.tools)) for (const t of b.tools) if (isObj(t) && t.type === 'custom' && typeof t.name === 'string') customTools.add(t.name);
    const wire = createResponsesWire({
      store,
      previousResponseId: previous,
      customTools,
      reasoning: isObj(b?.reasoning) ? b.reasoning : null,
      include: Array.isArray(b?.include) ? b.include.filter((x): x is string => typeof x === 'string') : [],
      metadata: isObj(b?.metadata) ? b.metadata : null,
      promptCacheKey: typeof b?.prompt_cache_key === 'string' ? b.prompt_cache_key : undefined,
    });
    return handleCall(s, req, reply, {
      shape: 'openai',
      surface: 'chat',
      vendorLocked,
      wire,
      async prepare(principal, call) {
        call.body = await resolveReferences(s, principal.tenantId, call.body as Body);
        let history: Message[] | undefined;
        if (previous) {
          const prior = await findStoredResponse(s, principal.tenantId, previous);
          if (!prior) throw notFound(previous);
          history = prior.conversation;
          // A continued conversation is one thread (D19): the previous response names it.
          call.conversationId ??= previous;
        }
        if (history) call.parseCtx = { ...call.parseCtx, history };
        if (!store) return;
        call.onDelivered = async (canonical, callId, body, routed) => {
          const response = body ?? wire.lastEncoder()?.final() ?? null;
          if (!response || typeof response.id !== 'string') return;
          // Thread continuity: a response that continues this one (previous_response_id) finds
          // the thread's class and endpoint under its id.
          s.calls.pins.record(principal.tenantId, response.id, routed.modelClass, routed.endpointKey, s.clock.now().getTime());
          await storeResponse(s, {
            id: response.id,
            tenantId: principal.tenantId,
            callId,
            // The reasoning goes in with its signature, shown to the client or not, so a
            // continued response gives it back to the provider that made it.
            conversation: [...canonical.messages, ...outputToMessages(response.output, wire.lastReasoning())],
            response,
          });
        };
      },
    });
  };
}

function read(s: Services) {
  return async (req: FastifyRequest) => {
    const principal = await authenticateKey(s, req, 'openai');
    const id = (req.params as { id: string }).id;
    const found = await findStoredResponse(s, principal.tenantId, id);
    if (!found) throw notFound(id);
    return found.response;
  };
}

function remove(s: Services) {
  return async (req: FastifyRequest) => {
    const principal = await authenticateKey(s, req, 'openai');
    const id = (req.params as { id: string }).id;
    if (!(await deleteStoredResponse(s, principal.tenantId, id))) throw notFound(id);
    return { id, object: 'response', deleted: true };
  };
}

const route: RouteModule = (app, s) => {
  const cfg = { config: { shape: 'openai' as const } };
  app.post('/v1/responses', cfg, create(s, false));
  app.post('/v1/chat-proxy/v1/responses', cfg, create(s, true));
  for (const prefix of ['/v1', '/v1/chat-proxy/v1']) {
    app.get(`${prefix}/responses/:id`, cfg, read(s));
    app.delete(`${prefix}/responses/:id`, cfg, remove(s));
  }
};
export default route;

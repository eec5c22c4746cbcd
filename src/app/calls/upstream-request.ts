// The request sent upstream for one endpoint (D19). Translated from the canonical call, except
// on a vendor-prefixed proxy whose provider speaks the client's own wire: there the client's body
// goes as it came, with its query string and beta headers.
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import { WIRES, type UpstreamRequest, type WireFormat } from '../../wire/index.ts';
import { isResponsesWire, responsesWire } from '../../wire/openai/responses/index.ts';
import type { CallRequest } from './call-request.ts';
import type { ProviderEndpoint } from './providers.ts';

/**
 * The wire a provider is spoken to in: its brand's, except that a Responses API call goes to OpenAI
 * in the Responses API, the only wire where OpenAI returns reasoning (summaries and the encrypted
 * reasoning a next turn sends back). It is still translated both ways (not the client's own wire
 * object), so the gateway's stored-response ids never reach the vendor.
 */
export function upstreamWire(req: CallRequest, provider: Pick<ProviderEndpoint, 'key' | 'wire'>): WireFormat {
  if (provider.key === 'openai' && isResponsesWire(req.clientWire)) return responsesWire;
  return WIRES[provider.wire];
}

/**
 * The upstream request. A vendor-prefixed call whose provider speaks the client's own wire sends
 * the client's body as it came, with only the model replaced (and the chat wire's usage frames
 * asked for, D6), plus its query string and beta headers (D19); every other call is translated.
 */
export function upstreamRequest(req: CallRequest, call: CanonicalRequest, wire: WireFormat, model: string): UpstreamRequest & { headers?: Record<string, string> } {
  const built = wire.buildUpstreamRequest(call, model);
  const client = req.clientWire ?? WIRES[req.shape];
  if (!req.vendorLocked || client !== wire || req.body === null || typeof req.body !== 'object') return built;
  const body: Record<string, unknown> = { ...(req.body as Record<string, unknown>) };
  if ('model' in built.body) body.model = built.body.model;
  if (built.body.stream_options !== undefined) {
    const asked = body.stream_options !== null && typeof body.stream_options === 'object' ? (body.stream_options as Record<string, unknown>) : {};
    body.stream_options = { ...asked, ...(built.body.stream_options as Record<string, unknown>) };
  }
  const query = req.forward?.query ?? '';
  const sep = built.path.includes('?') ? '&' : '?';
  return { path: query ? built.path + sep + query : built.path, body, stream: built.stream, headers: req.forward?.headers };
}

/** A pass-through answer (vendor-prefixed, same wire): the vendor's body, the client's model echoed (D6). */
export function passThroughBody(raw: Record<string, unknown>, call: CanonicalRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { ...raw };
  if (call.shape === 'gemini') {
    if ('modelVersion' in body) body.modelVersion = call.model;
  } else if ('model' in body) body.model = call.model;
  return body;
}

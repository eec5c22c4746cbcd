// Stage 6a of a call attempt (pipeline.ts): the request goes upstream through the provider's wire,
// walking the route's failover list until one endpoint answers 2xx. Health is tracked per
// endpoint; a 404/405 names the operator's <PROVIDER>_BASE_URL setting; a provider's own 4xx is
// final (another endpoint would only repeat it).
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import { appError, AppError } from '../../core/errors.ts';
import type { WireFormat } from '../../wire/index.ts';
import type { RankedEndpoint } from '../../core/routing/layer2.ts';
import type { UpstreamError, UpstreamResponse } from '../../infra/upstream.ts';
import { upstreamUrl, type ProviderEndpoint } from './providers.ts';
import { upstreamRequest, upstreamWire } from './upstream-request.ts';
import type { CallRequest } from './call-request.ts';
import type { CallDeps } from './deps.ts';

/** The endpoint that answered, and its answer (headers read, body not yet). */
export interface Sent {
  res: UpstreamResponse;
  endpoint: RankedEndpoint;
  provider: ProviderEndpoint;
  wire: WireFormat;
}

/** Retryable upstream outcomes fail over to the next endpoint; others are final. */
function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

async function drain(res: UpstreamResponse): Promise<string> {
  try {
    return await res.body.text();
  } catch {
    return '';
  }
}

/**
 * Walk the failover list until one endpoint answers 2xx. Failover happens only before any byte
 * reached the client, which is always true here: nothing is sent until an upstream has answered.
 */
export async function sendUpstream(
  s: Services,
  deps: CallDeps,
  req: CallRequest,
  call: CanonicalRequest,
  endpoints: readonly RankedEndpoint[],
): Promise<Sent> {
  // Built only when an endpoint fails (the error object is not free on the hot path).
  let lastError: AppError | null = null;
  for (const endpoint of endpoints) {
    const provider = deps.providers.get(endpoint.provider);
    if (!provider) continue;
    const wire = upstreamWire(req, provider);
    const up = upstreamRequest(req, call, wire, endpoint.model);
    const started = Date.now();
    deps.health.begin(endpoint.provider, endpoint.key, s.clock.now().getTime());
    try {
      const url = upstreamUrl(provider, up.path);
      const headers = wire.authHeaders(provider.apiKey);
      if (up.headers) for (const k in up.headers) headers[k] = up.headers[k];
      const res = await deps.upstream.post(url, headers, JSON.stringify(up.body), req.signal);
      if (res.status >= 200 && res.status < 300) {
        deps.health.success(endpoint.provider, endpoint.key, Date.now() - started, s.clock.now().getTime());
        return { res, endpoint, provider, wire };
      }
      const text = await drain(res);
      if (res.status === 404 || res.status === 405) {
        // No such route (or model) at the configured URL: the operator's setting, not the client's
        // request, is at fault. Another endpoint may be configured right. The URL stays in the log.
        deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
        const setting = `${endpoint.provider.toUpperCase()}_BASE_URL`;
        s.log.warn({ provider: endpoint.provider, model: endpoint.model, url, status: res.status, upstream: upstreamMessage(text, res.status) }, `upstream answered ${res.status}: check ${setting}`);
        lastError = appError('upstream_failed', `The upstream provider has no such endpoint or model (it answered ${res.status}); the operator should check ${setting} and the model catalogue`);
        continue;
      }
      if (isRetryableStatus(res.status)) {
        deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
        lastError = appError('upstream_failed', `The upstream provider answered ${res.status}`);
        continue;
      }
      // The provider refused the request itself (4xx): our translation or the client's input is
      // at fault, not the endpoint, so trying another would only repeat it.
      deps.health.success(endpoint.provider, endpoint.key, Date.now() - started, s.clock.now().getTime());
      throw appError(res.status === 401 || res.status === 403 ? 'upstream_failed' : 'validation', upstreamMessage(text, res.status));
    } catch (e) {
      if (e instanceof AppError) throw e;
      const err = e as UpstreamError;
      if (err.kind === 'aborted') throw appError('upstream_failed', 'The client closed the request');
      deps.health.failure(endpoint.provider, endpoint.key, s.clock.now().getTime());
      lastError = appError('upstream_failed', err.kind === 'timeout' ? 'The upstream provider timed out' : 'The upstream provider could not be reached');
    }
  }
  throw lastError ?? appError('upstream_failed');
}

function upstreamMessage(text: string, status: number): string {
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === 'string' ? j.error : (j.error?.message ?? j.message);
    if (m) return `Upstream rejected the request: ${m}`;
  } catch {
    /* not JSON */
  }
  return `Upstream rejected the request (${status})`;
}


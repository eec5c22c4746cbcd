// The Messages wire (clients of /v1/messages; provider anthropic).
import type { WireFormat } from '../types.ts';
import { errorBody } from './errors.ts';
import { API_VERSION, buildUpstreamRequest, parseRequest } from './request.ts';
import { parseUpstreamResponse, renderResponse } from './response.ts';
import { createStreamDecoder, createStreamEncoder, isTerminal, usageFromRecord } from './stream.ts';

export const anthropicWire: WireFormat = {
  shape: 'anthropic',
  parseRequest: (body) => parseRequest(body),
  renderResponse,
  createStreamEncoder,
  renderError: errorBody,
  buildUpstreamRequest,
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey, 'anthropic-version': API_VERSION }),
  parseUpstreamResponse,
  createStreamDecoder,
  isTerminal,
  usageFromRecord,
};

export { API_VERSION, DEFAULT_MAX_TOKENS, JSON_OUTPUT_HINT, MESSAGES_PATH } from './request.ts';

// The generateContent wire (clients of /v1/generate/...; provider google). Model and streaming
// come from the URL, so parseRequest reads them from its context.
import type { WireFormat } from '../types.ts';
import { errorBody } from './errors.ts';
import { buildUpstreamRequest, parseRequest } from './request.ts';
import { parseUpstreamResponse, renderResponse } from './response.ts';
import { createStreamDecoder, createStreamEncoder, isTerminal, usageFromRecord } from './stream.ts';

export const geminiWire: WireFormat = {
  shape: 'gemini',
  parseRequest,
  renderResponse,
  createStreamEncoder,
  renderError: errorBody,
  buildUpstreamRequest: (req, upstreamModel) => buildUpstreamRequest(req, upstreamModel),
  authHeaders: (apiKey) => ({ 'x-goog-api-key': apiKey }),
  parseUpstreamResponse,
  createStreamDecoder,
  isTerminal,
  usageFromRecord,
};

export { modelPath, stripModelsPrefix } from './request.ts';

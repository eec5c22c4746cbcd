// The Chat Completions wire (clients of /v1/chat/completions; every provider whose brand speaks it).
import type { WireFormat } from '../types.ts';
import { errorBody } from './errors.ts';
import { buildUpstreamRequest, parseRequest } from './request.ts';
import { parseUpstreamResponse, renderResponse } from './response.ts';
import { createStreamDecoder, createStreamEncoder, isTerminal, usageFromRecord } from './stream.ts';

export const openaiWire: WireFormat = {
  shape: 'openai',
  parseRequest: (body) => parseRequest(body),
  renderResponse,
  createStreamEncoder,
  renderError: errorBody,
  buildUpstreamRequest,
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  parseUpstreamResponse,
  createStreamDecoder,
  isTerminal,
  usageFromRecord,
};

export { CHAT_PATH, JSON_MODE_HINT } from './request.ts';
export { DONE_FRAME } from './stream.ts';

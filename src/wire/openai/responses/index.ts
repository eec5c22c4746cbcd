// The OpenAI Responses API wire (D19): part of the chat shape (errors, keys, rate limit), with its
// own request items, response object and event stream. `createResponsesWire(echo)` gives one per
// request, so the response can echo what the canonical call does not carry (store,
// previous_response_id, custom tools) and the caller can read the finished stream's response.
import type { WireFormat } from '../../types.ts';
import { errorBody } from '../errors.ts';
import { buildUpstreamRequest, parseRequest } from './request.ts';
import { parseUpstreamResponse, renderResponse, type Reasoning, type ResponsesEcho } from './response.ts';
import { createStreamDecoder, createStreamEncoder, isTerminal, usageFromRecord, type ResponsesStreamEncoder } from './stream.ts';

export interface ResponsesWire extends WireFormat {
  readonly responsesApi: true;
  /** The last stream encoder this wire made (to read the finished response from). */
  lastEncoder(): ResponsesStreamEncoder | null;
  /** The reasoning of the last answer this wire rendered or streamed, signature included. */
  lastReasoning(): Reasoning | null;
}

export function createResponsesWire(echo: ResponsesEcho = {}): ResponsesWire {
  let last: ResponsesStreamEncoder | null = null;
  let rendered: Reasoning | null = null;
  return {
    shape: 'openai',
    responsesApi: true,
    parseRequest,
    renderResponse: (res, req) => {
      rendered = res.reasoning ?? null;
      return renderResponse(res, req, echo);
    },
    createStreamEncoder: (req) => (last = createStreamEncoder(req, echo)),
    renderError: errorBody,
    buildUpstreamRequest,
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    parseUpstreamResponse,
    createStreamDecoder,
    isTerminal,
    usageFromRecord,
    lastEncoder: () => last,
    lastReasoning: () => last?.reasoning() ?? rendered,
  };
}

/** The stateless wire (no echo): the upstream side of OpenAI, the simulated upstream, the contract tests. */
export const responsesWire: WireFormat = createResponsesWire();

export const isResponsesWire = (w: WireFormat | undefined): w is ResponsesWire => w !== undefined && 'responsesApi' in w;

export { RESPONSES_PATH, CUSTOM_INPUT } from './request.ts';
export { outputToMessages, responseId, RESPONSE_PREFIX, type Reasoning, type ResponsesEcho } from './response.ts';

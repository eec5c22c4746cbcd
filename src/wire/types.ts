// The contract every vendor wire format implements (CONVENTIONS 1, 3). A wire format is a set of
// pure functions for both directions: the client side (parse a request, render a response, encode
// a stream, render an error) and the upstream side (build a request, read a response, decode a
// stream). The gateway composes them: client wire → canonical → provider wire and back.
import type {
  CanonicalRequest,
  CanonicalResponse,
  ClientShape,
  Message,
  Result,
  StreamEvent,
  Usage,
} from '../core/canonical/types.ts';

/** One Server-Sent Event as it travels on the wire (see sse.ts). */
export interface SseRecord {
  event?: string;
  data: string;
  id?: string;
  retry?: number;
}

/** Request facts that a wire carries outside the body (the generate-content wire puts them in the URL). */
export interface ParseContext {
  model?: string;
  stream?: boolean;
  /** Earlier turns of a stored conversation the request continues (Responses `previous_response_id`). */
  history?: Message[];
}

export interface UpstreamRequest {
  /** Path to append to the provider's base URL, which carries no version segment. */
  path: string;
  body: Record<string, unknown>;
  stream: boolean;
}

/**
 * Knobs for dialects of one wire (several providers speak the chat-completions wire with small
 * differences). The provider layer sets them; defaults suit the vendor that defined the wire.
 */
export interface UpstreamOptions {
  /** Field that carries the output-token cap (chat-completions wire). Default `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Ask for usage frames in streams (chat-completions wire). Default true (D6). */
  streamUsage?: boolean;
  /** Output-token cap sent when the request has none, for wires that require one. */
  defaultMaxTokens?: number;
}

/** Turns canonical stream events into the client's SSE text. Stateful: one per response. */
export interface StreamEncoder {
  encode(ev: StreamEvent): string;
}

/** Turns upstream SSE records into canonical stream events. Stateful: one per response. */
export interface StreamDecoder {
  push(rec: SseRecord): StreamEvent[];
  /** The upstream closed the stream: flush what a well-behaved stream would have ended with. */
  end(): StreamEvent[];
}

/**
 * Usage read off one raw upstream record. Every value is a running total for the whole response,
 * so a later record's value replaces an earlier one.
 */
export type UsagePatch = Partial<Usage>;

export interface WireFormat {
  readonly shape: ClientShape;

  /** Validate a client request body and produce the canonical request. Never throws. */
  parseRequest(body: unknown, ctx?: ParseContext): Result<CanonicalRequest>;
  /** The vendor's exact non-streamed response body; `model` echoes `req.model` (D6). */
  renderResponse(res: CanonicalResponse, req: CanonicalRequest): Record<string, unknown>;
  createStreamEncoder(req: CanonicalRequest): StreamEncoder;
  /** The vendor's native error body, so its SDK raises its own typed error (D6, spec 7). */
  renderError(status: number, code: string, message: string, field?: string): Record<string, unknown>;

  buildUpstreamRequest(
    req: CanonicalRequest,
    upstreamModel: string,
    opts?: UpstreamOptions,
  ): UpstreamRequest;
  authHeaders(apiKey: string): Record<string, string>;
  parseUpstreamResponse(body: unknown): Result<CanonicalResponse>;
  createStreamDecoder(): StreamDecoder;

  /**
   * True for the record that ends a successful stream. A pass-through pipe holds it back until the
   * call is settled, then forwards it.
   */
  isTerminal(rec: SseRecord): boolean;
  /** Usage carried by one raw upstream record, if any (pass-through billing). */
  usageFromRecord(rec: SseRecord): UsagePatch | undefined;
}

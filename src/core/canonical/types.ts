// The canonical chat call: the one internal representation that sits between the three client
// wire shapes (src/wire/*) and the provider adapters. Every translation goes client → canonical →
// provider and back, so N shapes × M providers needs N + M translators, not N × M.
// Token counts are plain numbers (they are counts, not money); money is bigint elsewhere.

export type ClientShape = 'openai' | 'anthropic' | 'gemini';

export type TextPart = { type: 'text'; text: string };
/** An image given inline (base64 `data`) or by `url`. Only sent to providers whose wire takes it. */
export type ImagePart = { type: 'image'; mediaType: string; data?: string; url?: string };
/** A model's request to call a tool. `arguments` is the JSON text exactly as produced. */
export type ToolCallPart = { type: 'tool_call'; id: string; name: string; arguments: string };
/** The result of a tool call, sent back by the client. */
export type ToolResultPart = {
  type: 'tool_result';
  toolCallId: string;
  name?: string;
  content: string;
  isError?: boolean;
};
/**
 * The model's thinking in an earlier assistant turn, sent back by the client (Anthropic `thinking`
 * blocks, Responses `reasoning` items, Gemini `thought` parts). `signature` is the vendor's opaque
 * proof (Anthropic signature, Responses encrypted_content, Gemini thoughtSignature); `origin` is the
 * wire that made it, so it only goes back to a provider of that wire (see wire/reasoning.ts).
 *
 * `redacted`: Anthropic's `redacted_thinking` block, thinking the vendor encrypted (no text, the
 * `data` is the signature): it goes back only to an Anthropic provider, as the block it came as.
 */
export type ReasoningPart = { type: 'reasoning'; text: string; signature?: string; origin?: ReasoningOrigin; redacted?: true };
export type ContentPart = TextPart | ImagePart | ToolCallPart | ToolResultPart | ReasoningPart;

/** The wire whose model produced a reasoning signature: Anthropic, Gemini, or the Responses API. */
export type ReasoningOrigin = 'anthropic' | 'gemini' | 'responses';

/** System text is carried on the request, never as a message. */
export interface Message {
  role: 'user' | 'assistant' | 'tool';
  content: ContentPart[];
}

export interface ToolDef {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json_schema'; name?: string; schema: Record<string, unknown>; strict?: boolean };

export interface CanonicalRequest {
  /** The wire shape the client spoke. */
  shape: ClientShape;
  /** The client's `model` string: a hint only, echoed back in the response (D6). */
  model: string;
  system?: string;
  messages: Message[];
  tools?: ToolDef[];
  toolChoice?: ToolChoice;
  /** Whether the model may call several tools in one turn (absent: the provider's default). */
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  stop?: string[];
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: the client wants the final usage chunk. */
  includeUsage?: boolean;
  /**
   * The client asked for thinking / reasoning (Anthropic `thinking`, `reasoning_effort`, Responses
   * `reasoning`, Gemini `thinkingConfig`); `visible`: it wants the text (or a summary) back, not
   * only the token count.
   */
  reasoning?: { visible: boolean; effort?: string };
  /** Choices asked for (`n`, `candidateCount`) when more than one: only a pass-through sends them
   * upstream, and its reservation covers every one. */
  candidates?: number;
  /** `x-service-conversation-id` header, for thread continuity. */
  conversationId?: string;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

export interface Usage {
  /** Every prompt token, cached or not (what a price book without cache rates bills). */
  inputTokens: number;
  /** Every generated token, reasoning included (some wires report reasoning separately). */
  outputTokens: number;
  /** The part of `inputTokens` served from the provider's prompt cache, when reported. */
  cachedInputTokens?: number;
  /** The part of `outputTokens` spent thinking, when reported. */
  reasoningTokens?: number;
}

export interface CanonicalResponse {
  id: string;
  /** The upstream model that produced it (internal; the client sees its own `model` echoed). */
  model: string;
  /** Text and tool_call parts, in order. */
  content: Array<TextPart | ToolCallPart>;
  finishReason: FinishReason;
  /** The stop sequence that ended the answer, when the provider says which one. */
  stopSequence?: string;
  usage: Usage;
  /**
   * The model's thinking, when it was asked for (its tokens are in usage.outputTokens). `text` may
   * be '' when only the signature came back (a reasoning item without a summary).
   */
  reasoning?: { text: string; signature?: string; origin?: ReasoningOrigin; redacted?: string[] };
}

/**
 * A stream as typed events (CONVENTIONS 2): decoders turn upstream SSE into these, encoders turn
 * them into the client's SSE. `index` is the content block index (text or tool call) in the
 * response, so a transcoder can keep per-block state.
 */
export type StreamEvent =
  | { type: 'start'; id: string; model: string; inputTokens?: number }
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  /** Thinking text of the block at `index` (before the answer's blocks). */
  | { type: 'reasoning_delta'; index: number; text: string }
  /** The opaque signature that closes a thinking block (Anthropic's signature_delta). */
  | { type: 'reasoning_signature'; index: number; signature: string; origin?: ReasoningOrigin }
  /** A block of thinking the vendor encrypted (Anthropic's `redacted_thinking`: no text, its `data`). */
  | { type: 'reasoning_redacted'; index: number; data: string }
  | { type: 'block_end'; index: number }
  | { type: 'finish'; finishReason: FinishReason; usage?: Usage; stopSequence?: string }
  /** A failure after the stream began; `status`/`code` pick the vendor error type when known. */
  | { type: 'error'; message: string; status?: number; code?: string };

/** Expected failures are results, not exceptions (CONVENTIONS 4). */
export type Result<T, C extends string = string> =
  | { ok: true; value: T }
  | { ok: false; code: C; message: string; field?: string };

export const ok = <T>(value: T): { ok: true; value: T } => ({ ok: true, value });
export const fail = <C extends string>(code: C, message: string, field?: string) =>
  ({ ok: false, code, message, field }) as const;

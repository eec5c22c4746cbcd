// Token estimates used before a call has real usage: the worst-case reservation (D8) and the
// prompt-length feature of Layer 1 (D12). Deterministic and O(1) per string (length only, no
// scan): the reservation is released and replaced by the real cost at settlement, so what matters
// is that the estimate is cheap, stable and does not under-reserve grossly.
import type { CanonicalRequest, ContentPart } from '../canonical/types.ts';

/** Roughly four characters per token for English text and code (the common BPE average). */
export const CHARS_PER_TOKEN = 4;
/** Flat charge per image part; about what a 1024×1024 image costs at the vendors' high detail. */
export const IMAGE_TOKENS = 765;
/** Role markers and separators each vendor adds per message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Tool definitions are serialised into the prompt by the vendors; this covers the wrapper. */
export const TOOL_OVERHEAD_TOKENS = 8;

/** ceil(length / 4): deterministic, never 0 for non-empty text. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function partTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return estimateTokens(part.text);
    case 'image':
      return IMAGE_TOKENS;
    case 'tool_call':
      return estimateTokens(part.name) + estimateTokens(part.arguments);
    case 'tool_result':
      return estimateTokens(part.content) + (part.name ? estimateTokens(part.name) : 0);
    case 'reasoning':
      // Earlier thinking sent back: counted in full (a reservation errs on the high side).
      return estimateTokens(part.text);
  }
}

/** Estimated input tokens of a whole request: system, messages, images and tool definitions. */
export function estimateInputTokens(req: CanonicalRequest): number {
  let total = req.system ? estimateTokens(req.system) + MESSAGE_OVERHEAD_TOKENS : 0;
  for (const message of req.messages) {
    total += MESSAGE_OVERHEAD_TOKENS;
    for (const part of message.content) total += partTokens(part);
  }
  if (req.tools) {
    for (const tool of req.tools) {
      // The schema must be serialised to be measured; tool lists are small, so this is cheap.
      total +=
        TOOL_OVERHEAD_TOKENS +
        estimateTokens(tool.name) +
        (tool.description ? estimateTokens(tool.description) : 0) +
        estimateTokens(JSON.stringify(tool.parameters));
    }
  }
  if (req.responseFormat?.type === 'json_schema') total += estimateTokens(JSON.stringify(req.responseFormat.schema));
  return total;
}

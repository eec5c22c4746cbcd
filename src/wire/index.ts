// The three client wire shapes by name. Providers map to a shape through BRANDS[key].wire.
import type { ClientShape } from '../core/canonical/types.ts';
import { anthropicWire } from './anthropic/index.ts';
import { geminiWire } from './gemini/index.ts';
import { openaiWire } from './openai/index.ts';
import type { WireFormat } from './types.ts';

export const WIRES: Record<ClientShape, WireFormat> = {
  openai: openaiWire,
  anthropic: anthropicWire,
  gemini: geminiWire,
};

export type {
  ParseContext,
  SseRecord,
  StreamDecoder,
  StreamEncoder,
  UpstreamOptions,
  UpstreamRequest,
  UsagePatch,
  WireFormat,
} from './types.ts';
export { createSseParser, encodeSse, encodeSseComment, encodeSseJson, parseSse, SseParser } from './sse.ts';

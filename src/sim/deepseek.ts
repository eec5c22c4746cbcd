// DeepSeek's reasoning models on the simulated upstream. DeepSeek speaks the chat-completions wire
// with one addition: a reasoning model (`deepseek-reasoner…`) always thinks, and returns the
// thinking as `message.reasoning_content` (streamed: `delta.reasoning_content` chunks before the
// answer's content), a field OpenAI's wire does not have, so the shared wire encoder never writes
// it. The simulator adds it here, as DeepSeek's API documents it.
import type { CanonicalRequest } from '../core/canonical/types.ts';
import { encodeSseJson } from '../wire/sse.ts';

/** Whether the simulated DeepSeek thinks for this request: its reasoning models always do. */
export const deepseekThinks = (provider: string, req: CanonicalRequest): boolean => provider === 'deepseek' && req.model.startsWith('deepseek-reasoner');

/** The request as the answer generator sees it: thinking asked for, and shown. */
export const withVisibleThinking = (req: CanonicalRequest): CanonicalRequest => ({ ...req, reasoning: { visible: true } });

/** A rendered `chat.completion` with the thinking in `choices[0].message.reasoning_content`. */
export function addReasoningContent(rendered: Record<string, unknown>, thought: string): void {
  const choices = rendered.choices as Array<{ message: Record<string, unknown> }>;
  if (choices[0]) choices[0].message.reasoning_content = thought;
}

/**
 * The stream's frames with the thinking inserted after the first one (the role chunk), in a few
 * `delta.reasoning_content` chunks, as DeepSeek streams it before the answer's content.
 */
export function withReasoningFrames(frames: string[], thought: string, id: string, model: string): string[] {
  const pieces = thought.match(/[\s\S]{1,40}/g) ?? [];
  const created = Math.floor(Date.now() / 1000);
  const chunks = pieces.map((p) =>
    encodeSseJson({
      id: `chatcmpl-${id}`,
      object: 'chat.completion.chunk',
      created,
      model,
      system_fingerprint: null,
      choices: [{ index: 0, delta: { content: null, reasoning_content: p }, logprobs: null, finish_reason: null }],
    }),
  );
  return [...frames.slice(0, 1), ...chunks, ...frames.slice(1)];
}

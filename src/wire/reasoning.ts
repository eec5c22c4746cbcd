// Reasoning signatures across wires. Each vendor signs its model's thinking (Anthropic's thinking
// `signature`, the Responses API's `encrypted_content`, Gemini's `thoughtSignature`) and accepts
// only its own back. A client sees a signature as its own vendor would send it when the thinking
// came from a provider of its own wire; a signature made by another wire's provider is wrapped
// (`sbr1.<origin>.<signature>`) so that, when the client sends it back, the gateway knows where it
// came from and gives it only to a provider of that wire (any other gets the thinking's text, or
// nothing, never a signature it would reject).
import type { ReasoningOrigin, ReasoningPart } from '../core/canonical/types.ts';

const WRAPPED = /^sbr1\.(anthropic|gemini|responses)\.(.+)$/s;

/** The signature as the client of wire `shape` is shown it. */
export function signatureOut(r: { signature?: string; origin?: ReasoningOrigin }, shape: ReasoningOrigin): string | undefined {
  if (r.signature === undefined || r.signature === '') return undefined;
  if (r.origin === undefined || r.origin === shape) return r.signature;
  return `sbr1.${r.origin}.${r.signature}`;
}

/** A signature a client of wire `shape` sent back: its origin, unwrapped. */
export function signatureIn(raw: string, shape: ReasoningOrigin): { signature: string; origin: ReasoningOrigin } {
  const m = WRAPPED.exec(raw);
  return m ? { origin: m[1] as ReasoningOrigin, signature: m[2] } : { origin: shape, signature: raw };
}

/** A canonical reasoning part read from a client of wire `shape`. */
export function reasoningPart(text: string, rawSignature: string | undefined, shape: ReasoningOrigin): ReasoningPart {
  const p: ReasoningPart = { type: 'reasoning', text };
  if (rawSignature !== undefined && rawSignature !== '') Object.assign(p, signatureIn(rawSignature, shape));
  return p;
}

/** The signature to send to a provider of wire `shape`: only its own. */
export const signatureFor = (p: ReasoningPart, shape: ReasoningOrigin): string | undefined =>
  p.signature !== undefined && p.signature !== '' && p.origin === shape ? p.signature : undefined;

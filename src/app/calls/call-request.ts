// What the proxy hands the call pipeline for one call, and what it gets back.
import type { CanonicalRequest, ClientShape } from '../../core/canonical/types.ts';
import type { ParseContext, WireFormat } from '../../wire/index.ts';
import type { KeyPrincipal } from '../identity/index.ts';
import type { AbortLike } from '../../infra/abort.ts';

/** A key's principal, or the same without a key for surfaces a user drives from the web app. */
export type CallPrincipal = Omit<KeyPrincipal, 'keyId'> & { keyId: string | null };

export type Surface = 'chat' | 'messages' | 'generate';

export interface CallRequest {
  shape: ClientShape;
  surface: Surface;
  /** Vendor-prefixed proxies route only among providers speaking the client's own wire (D6). */
  vendorLocked: boolean;
  body: unknown;
  parseCtx?: ParseContext;
  /** Who pays: a service key's project, or (copy-paste) a signed-in user's project with no key. */
  principal: CallPrincipal;
  /** Recorded on the call log; defaults to 'proxy:<surface>'. */
  channel?: string;
  conversationId?: string;
  /** Aborted when the client goes away: cancels the upstream request (an AbortSignal, or the proxy's CallAbort). */
  signal: AbortLike;
  /** The client's wire when it is not the shape's default one (the Responses API on the chat shape). */
  clientWire?: WireFormat;
  /**
   * Vendor-prefixed proxies (D19): what the client sent beyond the body, forwarded untouched when
   * the provider speaks the client's own wire — the query string and the vendor's beta headers.
   */
  forward?: { query: string; headers: Record<string, string> };
  /**
   * Runs once the answer is settled and before its last bytes leave: `body` is the rendered JSON
   * answer, or null for a stream (the caller reads it from its own encoder).
   */
  onDelivered?: (call: CanonicalRequest, callId: string, body: Record<string, unknown> | null, routed: Routed) => Promise<void>;
}

/** Where a delivered call went: its model class and Layer 2's endpoint key. */
export interface Routed {
  modelClass: import('../../core/model-class.ts').ModelClass;
  endpointKey: string;
}

export interface JsonOutcome {
  kind: 'json';
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}
export interface StreamedOutcome {
  kind: 'streamed';
}

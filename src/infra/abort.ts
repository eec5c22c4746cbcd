// A cancel signal for one proxied call (the client went away before its answer finished).
//
// The proxy used an AbortController per call; on Node 20 constructing one (its AbortSignal is an
// EventTarget) costs several µs, more than most stages of a call. The call path only needs what
// undici and the stream pump read of a signal: `aborted`, `reason`, and abort listeners. An
// AbortSignal has all of that, so calls that come with one (copy-paste, the connection test) pass
// it unchanged; the proxy passes a CallAbort.

/** What the call path reads of a signal. AbortSignal satisfies it; so does CallAbort. */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** An abort signal and its trigger in one small object; fires its listeners once, in order. */
export class CallAbort implements AbortLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | null = null;

  addEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(type: 'abort', listener: () => void): void {
    if (type !== 'abort' || !this.listeners) return;
    const i = this.listeners.indexOf(listener);
    if (i >= 0) this.listeners.splice(i, 1);
  }

  /** As AbortController.abort(): the reason is the same AbortError DOMException. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners;
    this.listeners = null;
    if (listeners) for (const l of listeners) l();
  }
}

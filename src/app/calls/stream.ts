// Streaming delivery (CONVENTIONS 2): upstream SSE is parsed into records; when the client speaks
// the provider's wire the records are forwarded as they come (pass-through), otherwise they are
// decoded into canonical events and re-encoded in the client's shape. Either way the stream's
// last frame is held back until settle() has made the debit durable (D8), usage is taken from the
// provider's own usage frames, and counted from the text when a provider omits it (D6).
import type { CanonicalRequest, StreamEvent, Usage } from '../../core/canonical/types.ts';
import { SseParser, encodeSse } from '../../wire/sse.ts';
import type { SseRecord, WireFormat } from '../../wire/types.ts';
import { classify, type UpstreamResponse } from '../../infra/upstream.ts';
import type { AbortLike } from '../../infra/abort.ts';

export interface StreamSink {
  /** Send the status line and headers; called once, before the first write. */
  open(headers: Record<string, string>): void;
  /** Returns false when the socket's buffer is full: wait for drained() before writing more. */
  write(text: string): boolean;
  drained(): Promise<void>;
  end(): void;
  readonly closed: boolean;
}

export interface Counted {
  /** All output text and tool-call arguments seen, for usage estimates and the quality check. */
  outputText: string;
  /** The upstream ended its stream normally (a finish was seen). */
  complete: boolean;
}

export interface PumpOptions {
  upstream: UpstreamResponse;
  providerWire: WireFormat;
  clientWire: WireFormat;
  call: CanonicalRequest;
  /**
   * Pipe the provider's frames through as they are (the vendor-prefixed proxies, D6). Otherwise
   * frames are always re-encoded, even between like wires, so the client's model is echoed (D6).
   */
  pipeThrough: boolean;
  sink: StreamSink;
  signal: AbortLike;
  /** Usage as far as the provider reported it; the caller estimates what is missing. */
  settle(usage: Partial<Usage>, counted: Counted): Promise<void>;
}

export async function pumpStream(o: PumpOptions): Promise<void> {
  // The same wire object on both sides (the Responses API shares the chat shape, not its frames).
  const passThrough = o.pipeThrough && o.providerWire === o.clientWire;
  const dropUsageChunk = passThrough && o.clientWire.shape === 'openai' && !o.call.includeUsage;
  const parser = new SseParser();
  const decoder = o.providerWire.createStreamDecoder();
  const encoder = passThrough ? null : o.clientWire.createStreamEncoder(o.call);
  let held = '';
  let holding = false;
  const usage: Partial<Usage> = {};
  let outputText = '';
  let complete = false;

  const send = async (text: string) => {
    if (!text || o.sink.closed) return;
    if (!o.sink.write(text)) await o.sink.drained();
  };

  // Frames produced from one upstream chunk are written to the client in one write: one pass
  // through the HTTP response and one await per chunk instead of per record (the bytes and their
  // order are the same; they left in the same event-loop turn before as well). The exception is the
  // frames of the stream's first upstream event: they leave as soon as they are encoded, not after
  // the rest of their chunk (an upstream that sends several events at once would otherwise hold the
  // client's first byte back while they are all decoded and re-encoded).
  let out = '';
  let firstOut = true;

  const onEvents = (events: StreamEvent[]) => {
    for (const ev of events) {
      if (ev.type === 'text_delta') outputText += ev.text;
      else if (ev.type === 'tool_call_delta') outputText += ev.argumentsDelta;
      else if (ev.type === 'start' && ev.inputTokens !== undefined) usage.inputTokens = ev.inputTokens;
      else if (ev.type === 'finish') {
        complete = true;
        if (ev.usage) Object.assign(usage, ev.usage);
      }
      if (!encoder) continue;
      if (ev.type === 'finish') holding = true;
      const text = encoder.encode(ev);
      if (holding) held += text;
      else out += text;
    }
  };

  const onRecords = (records: SseRecord[]) => {
    for (const rec of records) {
      const events = decoder.push(rec);
      if (passThrough) {
        const patch = o.providerWire.usageFromRecord(rec);
        if (patch) Object.assign(usage, patch);
        // Everything from the terminal record on waits for settlement.
        if (o.providerWire.isTerminal(rec)) holding = true;
        // We always ask the chat wire for usage (D6); a client that did not ask gets no usage-only chunk.
        const text = dropUsageChunk && rec.data.includes('"choices":[]') ? '' : encodeSse(rec);
        if (holding) held += text;
        else out += text;
      }
      onEvents(events);
      if (firstOut && out && !o.sink.closed) {
        firstOut = false;
        // A full buffer is waited for by the next send(), like any other.
        o.sink.write(out);
        out = '';
      }
    }
  };

  const flush = async () => {
    const text = out;
    out = '';
    await send(text);
  };

  // What the client's error event says when the stream cannot end whole: the status the JSON path
  // would have answered for the same upstream failure (502: the upstream failed), except a timeout,
  // which is 504 in the event (Gemini DEADLINE_EXCEEDED, Anthropic timeout_error): the client's
  // 200 is already sent, so the event is the only place the kind of failure can show.
  let failure: { message: string; status: number } | null = null;
  try {
    for await (const chunk of o.upstream.body) {
      onRecords(parser.push(chunk as Buffer));
      await flush();
      if (o.sink.closed) break;
    }
    onEvents(decoder.end());
    await flush();
  } catch (e) {
    if (!o.signal.aborted && !o.sink.closed) {
      const u = classify(e);
      failure =
        u.kind === 'timeout'
          ? { status: 504, message: `The upstream provider timed out mid-stream (${u.message}); retry the call` }
          : { status: 502, message: `The upstream stream broke: ${u.message}; retry the call` };
    }
  }
  // Frames already produced from a chunk that then failed still go out, ahead of the error event.
  await flush();
  if (o.sink.closed || o.signal.aborted) {
    // The client left: the tokens were still produced upstream, so the call is billed for them.
    o.upstream.body.destroy();
    complete = false;
  }

  if (!complete && failure === null && !o.sink.closed) failure = { status: 502, message: 'The upstream stream ended early; retry the call' };
  await o.settle(usage, { outputText, complete });

  if (o.sink.closed) return;
  if (failure !== null) {
    const errText = (encoder ?? o.clientWire.createStreamEncoder(o.call)).encode({ type: 'error', message: failure.message, status: failure.status });
    await send(errText);
  } else {
    await send(held);
  }
  o.sink.end();
}

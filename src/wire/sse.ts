// The one Server-Sent Events parser and encoder (CONVENTIONS 2), used for upstream streams coming
// in and client streams going out. Parsing follows the WHATWG event-stream rules: lines end in
// CRLF, LF or CR (a CR may end one chunk and its LF start the next), `:` lines are comments,
// several `data:` lines join with "\n", a blank line dispatches. Bytes are decoded incrementally,
// so a multi-byte character split across chunks survives.
import type { SseRecord } from './types.ts';

export type { SseRecord } from './types.ts';

const LF = 10;
const CR = 13;

export class SseParser {
  private readonly decoder = new TextDecoder('utf-8');
  private line = '';
  /** The previous chunk ended in CR: a leading LF in the next chunk belongs to that line end. */
  private skipLeadingLf = false;
  private started = false;
  private event: string | undefined;
  private data: string[] = [];
  private hasData = false;
  private id: string | undefined;
  private retry: number | undefined;

  /** Feed a chunk (bytes or text); returns the records it completed. */
  push(chunk: string | Uint8Array): SseRecord[] {
    let text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
    if (text.length === 0) return [];
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const out: SseRecord[] = [];
    let start = 0;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      const line = this.line + text.slice(start, i);
      this.line = '';
      if (c === CR) {
        if (i + 1 < text.length) {
          if (text.charCodeAt(i + 1) === LF) i++;
        } else {
          this.skipLeadingLf = true;
        }
      }
      start = i + 1;
      this.takeLine(line, out);
    }
    if (start < text.length) this.line += text.slice(start);
    return out;
  }

  /**
   * The stream closed. Strictly an unterminated event is dropped; servers that omit the final
   * blank line are common enough that a pending event with data is dispatched instead.
   */
  end(): SseRecord[] {
    const out: SseRecord[] = [];
    const tail = this.decoder.decode();
    if (tail) out.push(...this.push(tail));
    if (this.line.length > 0) {
      const line = this.line;
      this.line = '';
      this.takeLine(line, out);
    }
    this.dispatch(out);
    return out;
  }

  private takeLine(line: string, out: SseRecord[]): void {
    if (line.length === 0) {
      this.dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* ':' */) return;
    const colon = line.indexOf(':');
    let field: string;
    let value: string;
    if (colon === -1) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.data.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
  }

  private dispatch(out: SseRecord[]): void {
    if (this.hasData) {
      const rec: SseRecord = { data: this.data.length === 1 ? this.data[0] : this.data.join('\n') };
      if (this.event !== undefined && this.event !== '') rec.event = this.event;
      if (this.id !== undefined) rec.id = this.id;
      if (this.retry !== undefined) rec.retry = this.retry;
      out.push(rec);
    }
    this.event = undefined;
    this.data = [];
    this.hasData = false;
    this.id = undefined;
    this.retry = undefined;
  }
}

export const createSseParser = (): SseParser => new SseParser();

/** Parse a whole SSE document at once (tests, buffered bodies). */
export function parseSse(text: string | Uint8Array): SseRecord[] {
  const p = new SseParser();
  return [...p.push(text), ...p.end()];
}

const NEWLINE = /\r\n|\r|\n/;

/** Encode one record. Data containing line breaks becomes several `data:` lines. */
export function encodeSse(rec: SseRecord): string {
  let out = '';
  if (rec.event !== undefined) out += `event: ${rec.event}\n`;
  if (rec.id !== undefined) out += `id: ${rec.id}\n`;
  if (rec.retry !== undefined) out += `retry: ${rec.retry}\n`;
  if (NEWLINE.test(rec.data)) {
    for (const line of rec.data.split(NEWLINE)) out += `data: ${line}\n`;
  } else {
    out += `data: ${rec.data}\n`;
  }
  return out + '\n';
}

/** A comment frame: ignored by every client, useful as a keep-alive. */
export const encodeSseComment = (text = ''): string => `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;

/** A JSON data frame, optionally named. */
export const encodeSseJson = (data: unknown, event?: string): string =>
  encodeSse(event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) });

// Small vendor-neutral helpers shared by the wire formats: ids, JSON arguments, media URLs.
// Ids use the platform CSPRNG (no I/O); everything else is pure.
import type { ContentPart, ImagePart, Message, TextPart, ToolCallPart } from '../core/canonical/types.ts';
import { isObj, type Obj } from './validate.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random base62 id body (24 chars ≈ 143 bits). */
export function randomId(len = 24): string {
  const bytes = new Uint8Array(len);
  crypto.getRandomValues(bytes);
  let s = '';
  for (let i = 0; i < len; i++) s += ALPHABET[bytes[i] % 62];
  return s;
}

/**
 * Give an id the vendor's prefix. A foreign prefix (letters then `-` or `_`) is replaced so the
 * id stays recognisable as the same call across wires.
 */
export function withPrefix(id: string, prefix: string): string {
  if (id.startsWith(prefix)) return id;
  const body = id.replace(/^[A-Za-z]+[-_]/, '');
  return prefix + (body || randomId());
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Tool arguments are JSON text in canonical form; wires that carry objects need an object. */
export function argsToObject(args: string): Obj {
  if (args.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(args);
    return isObj(v) ? v : { value: v };
  } catch {
    return {};
  }
}

export const objectToArgs = (v: unknown): string => (v === undefined || v === null ? '{}' : JSON.stringify(v));

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

/** `data:image/png;base64,...` → inline image; any other URL stays a URL. */
export function imageFromUrl(url: string, mediaType?: string): ImagePart {
  const m = DATA_URL.exec(url);
  if (m) return { type: 'image', mediaType: m[1] ?? mediaType ?? 'image/png', data: m[2] };
  return { type: 'image', mediaType: mediaType ?? guessImageType(url), url };
}

export function imageToUrl(img: ImagePart): string {
  if (img.data !== undefined) return `data:${img.mediaType};base64,${img.data}`;
  return img.url ?? '';
}

export function guessImageType(url: string): string {
  const path = url.split(/[?#]/)[0].toLowerCase();
  if (path.endsWith('.png')) return 'image/png';
  if (path.endsWith('.gif')) return 'image/gif';
  if (path.endsWith('.webp')) return 'image/webp';
  if (path.endsWith('.heic')) return 'image/heic';
  return 'image/jpeg';
}

/** All text of a list of parts, concatenated (answers and tool results are read as one text). */
export const textOf = (parts: readonly ContentPart[]): string =>
  parts.map((p) => (p.type === 'text' ? p.text : '')).join('');

export const isText = (p: ContentPart): p is TextPart => p.type === 'text';
export const isToolCall = (p: ContentPart): p is ToolCallPart => p.type === 'tool_call';

/**
 * Find the tool name a result answers, for wires that key results by name rather than id.
 * Searches the assistant turns before message `upTo`.
 */
export function toolNameFor(messages: readonly Message[], upTo: number, toolCallId: string): string | undefined {
  for (let i = upTo - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool_call' && p.id === toolCallId) return p.name;
  }
  return undefined;
}

/** Push a message, merging into the previous one when the role repeats (wires that alternate). */
export function pushMerged<T extends { role: string; content: unknown[] }>(list: T[], msg: T): void {
  const last = list[list.length - 1];
  if (last && last.role === msg.role) last.content.push(...msg.content);
  else list.push(msg);
}

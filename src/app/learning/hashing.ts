// Content hashes and the response shape (D15). Pure: the evidence stage and the synthetic
// generators both use them, so one request always hashes the same way wherever it appears.
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../core/ledger/canonical-json.ts';

/** sha256 (hex) of the RFC 8785 canonical JSON of `value`: key order and spacing never matter. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}

export const RESPONSE_SHAPES = ['tool_calls', 'json', 'code', 'list', 'prose', 'empty'] as const;
export type ResponseShape = (typeof RESPONSE_SHAPES)[number];

/**
 * The shape of a canonical response (core/canonical CanonicalResponse), one of six: a pattern's
 * third key after task family and complexity (D15). Anything unreadable counts as 'empty'.
 */
export function responseShape(response: unknown): ResponseShape {
  const content = (response as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return 'empty';
  if (content.some((p) => (p as { type?: string })?.type === 'tool_call')) return 'tool_calls';
  const text = content
    .filter((p) => (p as { type?: string })?.type === 'text')
    .map((p) => String((p as { text?: unknown }).text ?? ''))
    .join('')
    .trim();
  if (text === '') return 'empty';
  if ((text.startsWith('{') && text.endsWith('}')) || (text.startsWith('[') && text.endsWith(']'))) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {
      /* not JSON after all: fall through */
    }
  }
  if (text.includes('```')) return 'code';
  const listLines = text.split('\n').filter((l) => /^\s*(?:[-*•]|\d+[.)])\s+/.test(l)).length;
  return listLines >= 3 ? 'list' : 'prose';
}

/** Start of the UTC hour holding `at`: patterns and endpoint windows are kept per hour. */
export const hourStart = (at: Date): Date => new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);

/** UTC month key of a budget window, YYYY-MM (D15). */
export const monthKey = (at: Date): string => at.toISOString().slice(0, 7);

/** UTC day key of an evidence window, YYYY-MM-DD: one synthetic batch per proposal, policy and day. */
export const dayKey = (at: Date): string => at.toISOString().slice(0, 10);

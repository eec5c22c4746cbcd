// Cursor pagination for every list (D9): `?limit=` (default 50, max 200) `&cursor=`; the cursor is
// an opaque token over the last row's sort key, so pages stay stable while rows are added.
import { z } from 'zod';
import { appError } from '../../core/errors.ts';

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(512).optional(),
});
export type PageQuery = z.infer<typeof pageQuery>;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The largest PostgreSQL bigint: a larger sequence number would fail in SQL, not here (issue 22 item 4). */
export const MAX_BIGINT = 9_223_372_036_854_775_807n;

export function encodeCursor(key: Record<string, string>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

export function decodeCursor<K extends string>(cursor: string | undefined, fields: readonly K[]): Record<K, string> | null {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<string, unknown>;
    for (const f of fields) if (typeof v[f] !== 'string') throw new Error('bad cursor');
    if ('id' in v && !UUID.test(String(v.id))) throw new Error('bad cursor');
    if ('seq' in v && (!/^\d{1,19}$/.test(String(v.seq)) || BigInt(String(v.seq)) > MAX_BIGINT)) throw new Error('bad cursor');
    return v as Record<K, string>;
  } catch {
    throw appError('validation', 'cursor is not valid', { field: 'cursor' });
  }
}

/** Rows were fetched with limit + 1: the extra row only says a next page exists. */
export function toPage<R, T>(rows: R[], limit: number, map: (r: R) => T, key: (r: R) => Record<string, string>): Page<T> {
  const more = rows.length > limit;
  const slice = more ? rows.slice(0, limit) : rows;
  return { items: slice.map(map), nextCursor: more ? encodeCursor(key(slice[slice.length - 1])) : null };
}

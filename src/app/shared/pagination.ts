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

/**
 * D9 pages over a list a use case reads whole because it is short by nature (a user's sessions,
 * tokens and memberships, a tenant's members and invitations). The list is put in a total order by
 * (`key`, id) and the cursor is the last item's pair, so a page stays right while items come and go.
 */
export function pageList<T>(items: readonly T[], q: PageQuery, key: (x: T) => { at: string; id: string }, dir: 'asc' | 'desc'): Page<T> {
  const sign = dir === 'asc' ? 1 : -1;
  const cmp = (a: { at: string; id: string }, b: { at: string; id: string }) => sign * (a.at < b.at ? -1 : a.at > b.at ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const sorted = [...items].sort((a, b) => cmp(key(a), key(b)));
  const after = decodeCursor(q.cursor, ['at', 'id'] as const);
  const rest = after ? sorted.filter((x) => cmp(key(x), after) > 0) : sorted;
  return toPage(rest, q.limit, (x) => x, key);
}

// The activity feed (spec §1 /overview and /analytics, §8, D9): AI usage and escalations from the
// call log, top-ups, refunds and adjustments from the ledger, and balance and runway alerts from
// the event outbox, merged newest first and paged with a cursor across the three sources.
//
// Order and cursor: items are ordered by (time, source, id) descending, time at the database's
// microsecond precision. The cursor is the last item's triple; each source reads its next
// limit + 1 rows strictly after it, the three are merged, and the first `limit` are the page, so a
// page is exact however the sources interleave, and stays right while new rows arrive above it.
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { decodeCursor, encodeCursor, type Page } from '../shared/index.ts';
import { feedAlerts, feedCalls, feedWalletEntries, type Key, type Source } from './activity.repo.ts';

export interface ActivityQuery {
  limit: number;
  cursor?: string;
  /** Free text over prompt fragments, project name and (analytics only) model id. */
  search?: string;
  projectId?: string;
  /** 'proxy', 'mcp', … (the call's surface) or 'wallet' for top-ups. */
  channel?: string;
  /** Customer copy (the /overview feed): no delivery path. */
  customer?: boolean;
}

const AT_KEY = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function cursorKey(cursor: string | undefined): Key | null {
  const c = decodeCursor(cursor, ['at', 'src', 'k'] as const);
  if (!c) return null;
  const valid = AT_KEY.test(c.at) && (c.src === 'a' ? /^\d{1,19}$/.test(c.k) : (c.src === 'c' || c.src === 'w') && UUID.test(c.k));
  if (!valid) throw appError('validation', 'cursor is not valid', { field: 'cursor' });
  return { at: c.at, src: c.src as Source, k: c.k };
}

function compareDesc(a: Key, b: Key): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  if (a.src !== b.src) return a.src < b.src ? 1 : -1;
  if (a.src === 'a') {
    const x = BigInt(a.k);
    const y = BigInt(b.k);
    return x === y ? 0 : x < y ? 1 : -1;
  }
  return a.k === b.k ? 0 : a.k < b.k ? 1 : -1;
}

/** One page of the live activity feed (AI usage, top-ups, escalations, alerts), newest first. */
export async function activity(s: Services, tenantId: string, q: ActivityQuery) {
  const cur = cursorKey(q.cursor);
  const n = q.limit + 1;
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const walletOnly = q.projectId || like || (q.channel && q.channel !== 'wallet');
  const calls = q.channel === 'wallet' ? [] : await feedCalls(s.db, tenantId, { projectId: q.projectId, channel: q.channel, like, customer: q.customer }, cur, n);
  const topups = walletOnly ? [] : await feedWalletEntries(s.db, tenantId, cur, n);
  // Balance and runway alerts (D10 threshold events) live in the event outbox for its 24-hour
  // retention: the feed shows the recent ones.
  const alerts = walletOnly ? [] : await feedAlerts(s.db, tenantId, cur, n);
  const at = (key: string) => `${key.slice(0, 23)}Z`;
  const items = [
    ...alerts.map((a) => ({
      key: { at: a.at_key, src: 'a' as const, k: a.id },
      kind: 'alert' as const,
      id: a.id,
      at: at(a.at_key),
      projectId: null,
      projectName: null,
      channel: 'wallet',
      label: a.type === 'wallet.threshold' ? 'Balance below your alert threshold' : 'Runway below your alert threshold',
      modelClass: null,
      serviceBurnMicros: null,
      amountMicros: typeof a.payload.balance === 'string' ? a.payload.balance : undefined,
      tokensSaved: null,
      promptExcerpt: null,
      threshold:
        a.type === 'wallet.threshold'
          ? { kind: 'balance' as const, thresholdMicros: String(a.payload.threshold ?? ''), runwayDays: null, thresholdDays: null }
          : { kind: 'runway' as const, thresholdMicros: null, runwayDays: Number(a.payload.runway ?? 0), thresholdDays: Number(a.payload.thresholdDays ?? 0) },
    })),
    ...calls.map((c) => ({
      key: { at: c.at_key, src: 'c' as const, k: c.id },
      kind: c.escalated ? ('escalation' as const) : ('ai_usage' as const),
      id: c.id,
      at: at(c.at_key),
      projectId: c.project_id,
      projectName: c.project_name,
      channel: c.channel.split(':')[0],
      label: c.escalated ? 'Escalated to a stronger model class' : 'AI usage',
      modelClass: c.model_class,
      serviceBurnMicros: c.debited_micros.toString(),
      tokensSaved: c.baseline !== null && c.actual !== null ? (c.baseline - c.actual).toString() : null,
      promptExcerpt: c.excerpt.slice(0, 200),
      ...(q.customer ? {} : { deliveryPath: c.provider_key ? { provider: c.provider_key, model: c.model_id, region: c.region } : null }),
    })),
    ...topups.map((t) => ({
      key: { at: t.at_key, src: 'w' as const, k: t.id },
      kind: 'wallet' as const,
      id: t.id,
      at: at(t.at_key),
      projectId: null,
      projectName: null,
      channel: 'wallet',
      label: t.customer_label,
      modelClass: null,
      serviceBurnMicros: null,
      amountMicros: t.amount_micros.toString(),
      tokensSaved: null,
      promptExcerpt: null,
    })),
  ];
  items.sort((a, b) => compareDesc(a.key, b.key));
  const more = items.length > q.limit;
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    items: page.map(({ key: _key, ...item }) => item),
    nextCursor: more && last ? encodeCursor({ at: last.key.at, src: last.key.src, k: last.key.k }) : null,
  } satisfies Page<unknown>;
}

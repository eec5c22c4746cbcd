// The /summary numbers (spec §1): service burn, tokens saved, calls and escalations for a period
// and the period before it, their deltas, and the three top movers. Served by
// GET /api/tenant/insights/summary and mailed as the daily/weekly digest.
//
// Source: the ledger (ledger_entries, AI_USAGE rows), which is the source of truth for money and
// exists for every call. Service burn = the debits; tokens saved = baseline − actual cost (D7;
// 1 token = 1 micro, D1); calls = first attempts (call log: no parent); escalations = attempts
// marked escalated (every attempt is debited and ledgered under its own call id, D5); movers = projects whose burn changed most. Task
// families are not on ledger rows, so movers are projects until the call log is read here too.
import type { Services } from '../shared/index.ts';
import { ledgerSums } from '../money/index.ts';
import { projectNames, tenantBenchmarkKeyOrThrow, userTimezone } from './insights.repo.ts';
import { appError } from '../../core/errors.ts';
import { addDays, addMonths, formatLocalDate, fromLocal, localDateOf, mondayOf, parseLocalDate } from '../../core/time/zoned.ts';

export const SUMMARY_PERIODS = ['today', 'yesterday', 'wtd', 'mtd', 'custom'] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];
export const MAX_CUSTOM_DAYS = 366;

export interface Range {
  from: Date;
  to: Date;
}

export interface PeriodRanges {
  current: Range;
  previous: Range;
}

const DAY = 86_400_000;
const capAt = (d: Date, cap: Date) => (d > cap ? cap : d);

/**
 * The period and the one it is compared with, in the user's time zone. Partial periods (today,
 * week to date, month to date) compare with the same elapsed span of the previous day, week or
 * month; complete ones with the complete period before.
 */
export function resolvePeriod(period: SummaryPeriod, now: Date, tz: string, custom?: { from?: string; to?: string }): PeriodRanges {
  const today = localDateOf(now, tz);
  const todayStart = fromLocal(today, tz);
  switch (period) {
    case 'today': {
      const prevStart = fromLocal(addDays(today, -1), tz);
      return { current: { from: todayStart, to: now }, previous: { from: prevStart, to: capAt(new Date(prevStart.getTime() + (now.getTime() - todayStart.getTime())), todayStart) } };
    }
    case 'yesterday': {
      const y = fromLocal(addDays(today, -1), tz);
      return { current: { from: y, to: todayStart }, previous: { from: fromLocal(addDays(today, -2), tz), to: y } };
    }
    case 'wtd': {
      const monday = mondayOf(now, tz);
      const start = fromLocal(monday, tz);
      const prevStart = fromLocal(addDays(monday, -7), tz);
      return { current: { from: start, to: now }, previous: { from: prevStart, to: capAt(new Date(prevStart.getTime() + (now.getTime() - start.getTime())), start) } };
    }
    case 'mtd': {
      const first = { ...today, day: 1 };
      const start = fromLocal(first, tz);
      const prevFirst = addMonths(first, -1);
      const prevStart = fromLocal(prevFirst, tz);
      return { current: { from: start, to: now }, previous: { from: prevStart, to: capAt(new Date(prevStart.getTime() + (now.getTime() - start.getTime())), start) } };
    }
    case 'custom': {
      const from = parseBound(custom?.from, tz, 'from', false);
      const to = parseBound(custom?.to, tz, 'to', true);
      if (to <= from) throw appError('validation', 'to must be after from', { field: 'to' });
      if (to.getTime() - from.getTime() > MAX_CUSTOM_DAYS * DAY + 3_600_000) throw appError('validation', `a custom period spans at most ${MAX_CUSTOM_DAYS} days`, { field: 'to' });
      const len = to.getTime() - from.getTime();
      return { current: { from, to }, previous: { from: new Date(from.getTime() - len), to: from } };
    }
  }
}

/** A calendar date (local midnight; `to` dates are inclusive) or an ISO 8601 instant. */
function parseBound(v: string | undefined, tz: string, field: 'from' | 'to', inclusiveEnd: boolean): Date {
  if (!v) throw appError('validation', `${field} is required for a custom period`, { field });
  const date = parseLocalDate(v);
  if (date) return fromLocal(inclusiveEnd ? addDays(date, 1) : date, tz);
  const t = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(v) ? new Date(v) : null;
  if (!t || Number.isNaN(t.getTime())) throw appError('validation', `${field} must be a date (YYYY-MM-DD) or an ISO 8601 time with offset`, { field });
  return t;
}

/** The complete local week before the one containing `now` (weekly digests). */
export function lastWeek(now: Date, tz: string): PeriodRanges & { periodStart: string } {
  const monday = mondayOf(now, tz);
  const start = addDays(monday, -7);
  return {
    periodStart: formatLocalDate(start),
    current: { from: fromLocal(start, tz), to: fromLocal(monday, tz) },
    previous: { from: fromLocal(addDays(monday, -14), tz), to: fromLocal(start, tz) },
  };
}

export interface Totals {
  serviceBurnMicros: string;
  /** Null when the tenant has no benchmark provider (D7: never a fabricated 0). */
  tokensSaved: string | null;
  benchmarkEquivalentBurnMicros: string | null;
  percentSaved: number | null;
  calls: number;
  escalations: number;
}

export interface Mover {
  kind: 'project';
  id: string;
  name: string;
  currentMicros: string;
  previousMicros: string;
  deltaMicros: string;
}

export interface Summary {
  period: SummaryPeriod | 'last-week';
  timezone: string;
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  benchmarkProvider: string | null;
  current: Totals;
  previous: Totals;
  deltas: { serviceBurnMicros: string; tokensSaved: string | null; calls: number; escalations: number };
  topMovers: Mover[];
  source: 'ledger';
}

async function totals(s: Services, tenantId: string, r: Range, hasBenchmark: boolean): Promise<Totals> {
  // Each attempt has its own call id and ledger entry (D5); its call-log row says whether it was
  // an escalated attempt or a retry (parent_call_id), so calls count first attempts only.
  const [t] = await ledgerSums(s.db, tenantId, r.from, r.to, 'none', { calls: true });
  const row = { baseline: t!.baseline, saved: t!.baseline - t!.actual, calls: t!.calls, escalations: t!.escalations, burn: t!.burn.toString() };
  const baseline = row.baseline;
  const saved = row.saved;
  const calls = Number(row.calls);
  return {
    serviceBurnMicros: row.burn,
    tokensSaved: hasBenchmark ? saved.toString() : null,
    benchmarkEquivalentBurnMicros: hasBenchmark ? baseline.toString() : null,
    // A ratio for display, one decimal; the amounts themselves stay exact.
    percentSaved: hasBenchmark && baseline > 0n ? Number((saved * 1000n) / baseline) / 10 : null,
    calls,
    escalations: Number(row.escalations),
  };
}

async function movers(s: Services, tenantId: string, p: PeriodRanges): Promise<Mover[]> {
  const [cur, prev, projects] = await Promise.all([
    ledgerSums(s.db, tenantId, p.current.from, p.current.to, 'project'),
    ledgerSums(s.db, tenantId, p.previous.from, p.previous.to, 'project'),
    projectNames(s.db, tenantId),
  ]);
  const curOf = new Map(cur.map((r) => [r.key, r.burn]));
  const prevOf = new Map(prev.map((r) => [r.key, r.burn]));
  const rows = projects
    .filter((p) => curOf.has(p.id) || prevOf.has(p.id))
    .map((p) => ({ id: p.id, name: p.name, cur: (curOf.get(p.id) ?? 0n).toString(), prev: (prevOf.get(p.id) ?? 0n).toString() }));
  const abs = (v: bigint) => (v < 0n ? -v : v);
  return rows
    .map((r) => ({ ...r, delta: BigInt(r.cur) - BigInt(r.prev) }))
    .filter((r) => r.delta !== 0n)
    .sort((a, b) => (abs(b.delta) > abs(a.delta) ? 1 : abs(b.delta) < abs(a.delta) ? -1 : a.name.localeCompare(b.name)))
    .slice(0, 3)
    .map((r) => ({ kind: 'project' as const, id: r.id, name: r.name, currentMicros: r.cur, previousMicros: r.prev, deltaMicros: r.delta.toString() }));
}

export async function buildSummary(s: Services, tenantId: string, tz: string, period: Summary['period'], ranges: PeriodRanges): Promise<Summary> {
  const t = await tenantBenchmarkKeyOrThrow(s.db, tenantId);
  const hasBenchmark = t.baseline_provider_key !== null;
  const [current, previous, top] = await Promise.all([totals(s, tenantId, ranges.current, hasBenchmark), totals(s, tenantId, ranges.previous, hasBenchmark), movers(s, tenantId, ranges)]);
  return {
    period,
    timezone: tz,
    from: ranges.current.from.toISOString(),
    to: ranges.current.to.toISOString(),
    previousFrom: ranges.previous.from.toISOString(),
    previousTo: ranges.previous.to.toISOString(),
    benchmarkProvider: t.baseline_provider_key,
    current,
    previous,
    deltas: {
      serviceBurnMicros: (BigInt(current.serviceBurnMicros) - BigInt(previous.serviceBurnMicros)).toString(),
      tokensSaved: current.tokensSaved === null || previous.tokensSaved === null ? null : (BigInt(current.tokensSaved) - BigInt(previous.tokensSaved)).toString(),
      calls: current.calls - previous.calls,
      escalations: current.escalations - previous.escalations,
    },
    topMovers: top,
    source: 'ledger',
  };
}

export async function getSummary(s: Services, tenantId: string, userId: string, q: { period: SummaryPeriod; from?: string; to?: string }): Promise<Summary> {
  const u = await userTimezone(s.db, userId);
  return buildSummary(s, tenantId, u.timezone, q.period, resolvePeriod(q.period, s.clock.now(), u.timezone, q));
}

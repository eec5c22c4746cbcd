// The /overview and /analytics numbers (spec §1, §4): the overview tiles, the savings series
// (service burn vs <Provider>-equivalent burn), usage rollups and the activity feed. All from
// the ledger and call log; amounts stay bigint until the edge.
//
// Locked vocabulary (spec §1): savings use only Tokens saved, % saved, Benchmark provider, Service
// burn and <Provider>-equivalent burn (1 wallet token = 1 USD micro, D1). With no benchmark
// provider, savings are null and `benchmark` is null so the screen shows the prompt to choose one,
// never a fabricated 0 %. Customer views never name a model; the activity feed carries the
// approved delivery path only for the analytics Audit tab and its search (D8).
import { sql } from 'kysely';
import type { Services } from '../shared/services.ts';
import { BRANDS, isProviderKey } from '../../core/providers.ts';
import { getWalletView } from '../money/wallet-view.ts';
import { formatUsd2 } from '../../core/money.ts';
import { ledgerSums } from '../money/ledger-rollups.repo.ts';
import { callSumsBy } from '../money/call-rollups.repo.ts';

const DAY = 86_400_000;
export const SAVINGS_WINDOWS = [7, 30, 90] as const;
export type SavingsWindow = (typeof SAVINGS_WINDOWS)[number];
export const ACTIVITY_FEED_SIZE = 50;

export async function benchmarkOf(s: Services, tenantId: string) {
  const t = await s.db.selectFrom('tenants').select('baseline_provider_key').where('id', '=', tenantId).executeTakeFirst();
  const key = t?.baseline_provider_key;
  return isProviderKey(key) ? { providerKey: key, brand: BRANDS[key].name } : null;
}

/** "<Provider>-equivalent burn", or "Benchmark-equivalent burn" with no provider (spec §1). */
const equivalentLabel = (b: { brand: string } | null) => `${b ? b.brand : 'Benchmark'}-equivalent burn`;

export async function burnTotals(s: Services, tenantId: string, since: Date, until: Date) {
  const [t] = await ledgerSums(s.db, tenantId, since, until);
  return { burn: t!.burn, baseline: t!.baseline, actual: t!.actual };
}

/** % saved as basis points, rounded down; null without a benchmark-equivalent burn. */
const percentBps = (saved: bigint, baseline: bigint) => (baseline > 0n ? (saved * 10_000n) / baseline : null);

export async function savingsSeries(s: Services, tenantId: string, days: SavingsWindow) {
  const now = s.clock.now();
  const since = new Date(Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY);
  const bench = await benchmarkOf(s, tenantId);
  // Like with like (issue 14): the two lines sum the same rows, those priced against a benchmark;
  // calls made without one are counted apart (unbenchmarkedBurnMicros), never on one side only.
  const rows = { rows: await ledgerSums(s.db, tenantId, since, new Date(now.getTime() + 1), 'day') };
  const byDay = new Map(rows.rows.map((r) => [r.key, r]));
  const series = [];
  for (let i = 0; i < days; i++) {
    const day = new Date(since.getTime() + i * DAY).toISOString().slice(0, 10);
    const r = byDay.get(day);
    const burn = r?.burn ?? 0n;
    const compared = r?.compared ?? 0n;
    series.push({
      day,
      // Rows keep the benchmark they were attributed to (spec §1 rule 5); with none chosen now, no
      // comparison is drawn and the line is the whole burn.
      serviceBurnMicros: (bench ? compared : burn).toString(),
      equivalentBurnMicros: bench ? (r?.baseline ?? 0n).toString() : null,
      unbenchmarkedBurnMicros: (bench ? burn - compared : 0n).toString(),
    });
  }
  return { windowDays: days, benchmark: bench, equivalentLabel: equivalentLabel(bench), series };
}

export async function overview(s: Services, tenantId: string) {
  const now = s.clock.now();
  const [wallet, bench, t30, savingsChart, feed] = await Promise.all([
    getWalletView(s, tenantId),
    benchmarkOf(s, tenantId),
    burnTotals(s, tenantId, new Date(now.getTime() - 30 * DAY), new Date(now.getTime() + 1)),
    savingsSeries(s, tenantId, 30),
    activity(s, tenantId, { limit: ACTIVITY_FEED_SIZE, customer: true }),
  ]);
  const saved = t30.baseline - t30.actual;
  return {
    tiles: {
      walletBalance: { tokens: wallet.balanceMicros.toString(), usdEquivalent: formatUsd2(wallet.balanceMicros) },
      tokensSaved30d: bench ? saved.toString() : null,
      percentSaved30dBps: bench ? (percentBps(saved, t30.baseline)?.toString() ?? null) : null,
      serviceBurn30d: t30.burn.toString(),
      runway: wallet.runwayDays,
    },
    benchmark: bench,
    equivalentLabel: equivalentLabel(bench),
    savingsChart,
    activity: feed,
  };
}

export async function usageRollups(s: Services, tenantId: string, days = 30) {
  const now = s.clock.now();
  // The last `days` calendar days (UTC), today included: whole days read from the rollups.
  const since = new Date(Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY);
  const until = new Date(now.getTime() + 1);
  const [{ family: fam, project: proj }, projects] = await Promise.all([
    callSumsBy(s.db, tenantId, since, until, ['family', 'project'] as const),
    s.db.selectFrom('projects').select(['id', 'name']).where('tenant_id', '=', tenantId).execute(),
  ]);
  const byBurn = <T extends { burn: bigint }>(a: T, b: T) => (b.burn > a.burn ? 1 : b.burn < a.burn ? -1 : 0);
  const byFamily = { rows: fam.map((r) => ({ key: r.key || 'unknown', calls: r.attempts, tokens: r.tokens, burn: r.debited })).sort(byBurn) };
  const names = new Map(projects.map((p) => [p.id, p.name]));
  const byProject = {
    rows: proj
      .filter((r) => names.has(r.key))
      .map((r) => ({ key: r.key, name: names.get(r.key)!, calls: r.attempts, tokens: r.tokens, burn: r.debited }))
      .sort(byBurn),
  };
  // The last 48 hours by UTC hour, from the ledger's hourly buckets: succeeded attempts, their
  // tokens and their debits.
  const hours = await ledgerSums(s.db, tenantId, new Date(now.getTime() - 2 * DAY), until, 'hour', { calls: true });
  const byHour = { rows: hours.filter((r) => r.attempts > 0n).map((r) => ({ key: r.key, calls: r.attempts, tokens: r.tokens, burn: r.burn })) };
  const row = (r: { calls: bigint; tokens: bigint; burn: bigint }) => ({ calls: Number(r.calls), tokens: r.tokens.toString(), serviceBurnMicros: r.burn.toString() });
  return {
    windowDays: days,
    byTaskFamily: byFamily.rows.map((r) => ({ taskFamily: r.key, ...row(r) })),
    byProject: byProject.rows.map((r) => ({ projectId: r.key, projectName: r.name, ...row(r) })),
    byHour: byHour.rows.map((r) => ({ hour: r.key, ...row(r) })),
  };
}

export interface ActivityQuery {
  limit: number;
  /** Free text over prompt fragments, project name and (analytics only) model id. */
  search?: string;
  projectId?: string;
  /** 'proxy', 'mcp', … (the call's surface) or 'wallet' for top-ups. */
  channel?: string;
  /** Customer copy (the /overview feed): no delivery path. */
  customer?: boolean;
}

/** The live activity feed (AI usage, top-ups, escalations), newest first. */
export async function activity(s: Services, tenantId: string, q: ActivityQuery) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const calls =
    q.channel === 'wallet'
      ? []
      : (
          await sql<{ id: string; created_at: Date; project_id: string; project_name: string; channel: string; escalated: boolean; model_class: string | null; debited_micros: bigint; baseline: bigint | null; actual: bigint | null; excerpt: string; provider_key: string | null; model_id: string | null; region: string | null }>`
            select c.id, c.created_at, c.project_id, p.name as project_name, c.channel, c.escalated, c.model_class, c.debited_micros,
                   c.baseline_cost_usd_micros as baseline, c.actual_cost_usd_micros as actual, c.prompt_excerpt as excerpt,
                   c.provider_key, c.model_id, c.region
              from call_logs c join projects p on p.id = c.project_id
             where c.tenant_id = ${tenantId} and c.status = 'succeeded'
               ${q.projectId ? sql`and c.project_id = ${q.projectId}` : sql``}
               ${q.channel ? sql`and split_part(c.channel, ':', 1) = ${q.channel}` : sql``}
               ${like ? sql`and (c.prompt_excerpt ilike ${like} or p.name ilike ${like} ${q.customer ? sql`` : sql`or c.model_id ilike ${like}`})` : sql``}
             order by c.created_at desc limit ${q.limit}`.execute(s.db)
        ).rows;
  const topups =
    q.projectId || like || (q.channel && q.channel !== 'wallet')
      ? []
      : (
          await sql<{ id: string; created_at: Date; amount_micros: bigint; customer_label: string }>`
            select id, created_at, amount_micros, customer_label from ledger_entries
             where tenant_id = ${tenantId} and event_type in ('WALLET_TOPUP', 'REFUND', 'ADJUSTMENT')
             order by created_at desc limit ${q.limit}`.execute(s.db)
        ).rows;
  // Balance and runway alerts (D10 threshold events) live in the event outbox for its 24-hour
  // retention: the feed shows the recent ones among the latest 50 events.
  const alerts =
    q.projectId || like || (q.channel && q.channel !== 'wallet')
      ? []
      : (
          await sql<{ id: string; created_at: Date; type: 'wallet.threshold' | 'runway.threshold'; payload: Record<string, unknown> }>`
            select id::text as id, created_at, frame->>'type' as type, frame->'payload' as payload from event_outbox
             where tenant_id = ${tenantId} and frame->>'type' in ('wallet.threshold', 'runway.threshold')
             order by id desc limit ${q.limit}`.execute(s.db)
        ).rows;
  const items = [
    ...alerts.map((a) => ({
      kind: 'alert' as const,
      id: a.id,
      at: a.created_at.toISOString(),
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
      kind: c.escalated ? ('escalation' as const) : ('ai_usage' as const),
      id: c.id,
      at: c.created_at.toISOString(),
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
      kind: 'wallet' as const,
      id: t.id,
      at: t.created_at.toISOString(),
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
  items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return items.slice(0, q.limit);
}

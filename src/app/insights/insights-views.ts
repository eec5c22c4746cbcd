// The /overview and /analytics numbers (spec §1, §4): the overview tiles, the savings series
// (service burn vs <Provider>-equivalent burn), usage rollups and the activity feed. All from
// the ledger and call log; amounts stay bigint until the edge.
//
// Locked vocabulary (spec §1): savings use only Tokens saved, % saved, Benchmark provider, Service
// burn and <Provider>-equivalent burn (1 wallet token = 1 USD micro, D1). With no benchmark
// provider, savings are null and `benchmark` is null so the screen shows the prompt to choose one,
// never a fabricated 0 %. Customer views never name a model; the activity feed carries the
// approved delivery path only for the analytics Audit tab and its search (D8).
import type { Services } from '../shared/index.ts';
import { BRANDS, isProviderKey } from '../../core/providers.ts';
import { getWalletView } from '../money/index.ts';
import { formatUsd2 } from '../../core/money.ts';
import { ledgerSums } from '../money/index.ts';
import { callSumsBy } from '../money/index.ts';
import { activity } from './activity.ts';
import { projectNames, tenantBenchmarkKey } from './insights.repo.ts';

const DAY = 86_400_000;
export const SAVINGS_WINDOWS = [7, 30, 90] as const;
export type SavingsWindow = (typeof SAVINGS_WINDOWS)[number];
export const ACTIVITY_FEED_SIZE = 50;

export async function benchmarkOf(s: Services, tenantId: string) {
  const t = await tenantBenchmarkKey(s.db, tenantId);
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
    activity: feed.items,
  };
}

export async function usageRollups(s: Services, tenantId: string, days = 30) {
  const now = s.clock.now();
  // The last `days` calendar days (UTC), today included: whole days read from the rollups.
  const since = new Date(Math.floor(now.getTime() / DAY) * DAY - (days - 1) * DAY);
  const until = new Date(now.getTime() + 1);
  const [{ family: fam, project: proj }, projects] = await Promise.all([
    callSumsBy(s.db, tenantId, since, until, ['family', 'project'] as const),
    projectNames(s.db, tenantId),
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
  // The last 48 UTC hours, the current one included, from the ledger's hourly buckets: succeeded
  // attempts, their tokens and their debits. Every hour has its row, zeros when it had no call,
  // so a chart of them is a time axis (docs/decisions.md, "Usage by hour").
  const HOUR = 3_600_000;
  const firstHour = Math.floor(now.getTime() / HOUR) * HOUR - 47 * HOUR;
  const hours = new Map((await ledgerSums(s.db, tenantId, new Date(firstHour), until, 'hour', { calls: true })).map((r) => [r.key, r]));
  const byHour = {
    rows: Array.from({ length: 48 }, (_, i) => {
      const key = new Date(firstHour + i * HOUR).toISOString().replace('.000Z', 'Z');
      const r = hours.get(key);
      return { key, calls: r?.attempts ?? 0n, tokens: r?.tokens ?? 0n, burn: r?.burn ?? 0n };
    }),
  };
  const row = (r: { calls: bigint; tokens: bigint; burn: bigint }) => ({ calls: Number(r.calls), tokens: r.tokens.toString(), serviceBurnMicros: r.burn.toString() });
  return {
    windowDays: days,
    byTaskFamily: byFamily.rows.map((r) => ({ taskFamily: r.key, ...row(r) })),
    byProject: byProject.rows.map((r) => ({ projectId: r.key, projectName: r.name, ...row(r) })),
    byHour: byHour.rows.map((r) => ({ hour: r.key, ...row(r) })),
  };
}

// What a connector reads with its own service key (D14: the MCP server's `wallet`, `savings` and
// `recent_activity` tools, and the heartbeat that keeps its integrations tile connected).
//
// A service key belongs to one project of one tenant. The wallet is the tenant's (spec §1: one
// wallet per tenant, shared by its projects) and so are savings (the /overview numbers); the
// activity feed is the key's own project only, in customer copy (no delivery path): a key never
// reads another project's prompts.
import type { Services } from '../shared/index.ts';
import { getWalletView } from '../money/index.ts';
import { benchmarkOf, burnTotals, savingsSeries, type SavingsWindow } from '../insights/index.ts';
import { activity } from '../insights/index.ts';
import type { KeyPrincipal } from '../identity/index.ts';
import type { Channel } from '../events/index.ts';
import { callTotalsSince, projectAndTenantNames } from './connectors.repo.ts';

/** Who the key is: enough for a connector to greet its user and link to the right pages. */
export async function keyIdentity(s: Services, p: KeyPrincipal) {
  const r = await projectAndTenantNames(s.db, p.tenantId, p.projectId);
  return { tenantName: r.tenant_name, projectId: p.projectId, projectName: r.project_name, environment: p.environment, billingUrl: `${s.publicUrl}/billing` };
}

export async function connectorWallet(s: Services, tenantId: string) {
  const w = await getWalletView(s, tenantId);
  return {
    // The wallet's names of D8a, as on GET /api/tenant/wallet.
    balance: w.balanceMicros.toString(),
    reserved: w.reservedMicros.toString(),
    available: w.availableMicros.toString(),
    usdEquivalent: w.usdEquivalent,
    runway: w.runwayDays,
    billingUrl: `${s.publicUrl}/billing`,
  };
}

/** Savings over the window in the locked vocabulary (spec §1); null figures without a benchmark provider. */
export async function connectorSavings(s: Services, tenantId: string, days: SavingsWindow) {
  const chart = await savingsSeries(s, tenantId, days);
  const since = new Date(chart.series[0].day + 'T00:00:00Z');
  const t = await burnTotals(s, tenantId, since, new Date(s.clock.now().getTime() + 1));
  const saved = t.baseline - t.actual;
  const bench = chart.benchmark;
  return {
    windowDays: days,
    benchmarkProvider: bench ? bench.brand : null,
    serviceBurn: t.burn.toString(),
    equivalentBurnLabel: chart.equivalentLabel,
    equivalentBurn: bench ? t.baseline.toString() : null,
    tokensSaved: bench ? saved.toString() : null,
    percentSavedBps: bench && t.baseline > 0n ? ((saved * 10_000n) / t.baseline).toString() : null,
    series: chart.series.map((d) => ({ day: d.day, serviceBurn: d.serviceBurnMicros, equivalentBurn: d.equivalentBurnMicros, unbenchmarkedBurn: d.unbenchmarkedBurnMicros })),
  };
}

export async function connectorActivity(s: Services, p: KeyPrincipal, page: { limit: number; cursor?: string }) {
  const feed = await activity(s, p.tenantId, { limit: page.limit, cursor: page.cursor, projectId: p.projectId, customer: true });
  const items = feed.items.map((a) => ({
    kind: a.kind,
    id: a.id,
    at: a.at,
    channel: a.channel,
    label: a.label,
    modelClass: a.modelClass,
    serviceBurn: a.serviceBurnMicros,
    tokensSaved: a.tokensSaved,
    promptExcerpt: a.promptExcerpt,
  }));
  return { items, nextCursor: feed.nextCursor };
}

/**
 * Today (the UTC day, as the savings chart's days) on the key's project, optionally through one
 * connector: what the browser extension's popup shows (D14). A call is its first attempt (an
 * escalation's retries are the same call); tokens saved sum every attempt priced against a
 * benchmark, like the /overview tile, and are null while the tenant has no benchmark provider.
 * Connection tests are not traffic and are left out.
 */
export async function connectorToday(s: Services, p: KeyPrincipal, channel: Channel | null) {
  const now = s.clock.now();
  const since = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000);
  const [bench, row] = await Promise.all([
    benchmarkOf(s, p.tenantId),
    callTotalsSince(s.db, { tenantId: p.tenantId, projectId: p.projectId, since, now, channel }),
  ]);
  return {
    day: since.toISOString().slice(0, 10),
    channel,
    calls: Number(row.calls),
    serviceBurn: row.burn,
    benchmarkProvider: bench ? bench.brand : null,
    tokensSaved: bench ? row.saved : null,
  };
}

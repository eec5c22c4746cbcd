// The advisory report (D14 tier 6): per row and in total, the historical cost at the model really
// used, the class and model Switchboard would have chosen, the would-have cost, and against the
// benchmark provider the <Provider>-equivalent burn, Tokens saved and % saved, broken down by
// task family and complexity. Savings use the locked vocabulary only (spec §1): with no benchmark
// provider they are null and the report says how to choose one, never a fabricated 0 %.
// Amounts are wallet tokens (1 token = 1 USD micro, D1) as integer strings.
import type { Executor } from '../../store/db.ts';
import { BRANDS, isProviderKey } from '../../core/providers.ts';
import { SAVINGS_METHODOLOGY_VERSION } from '../../core/pricing/cost.ts';
import { equivalentBurnLabel } from '../../core/vocabulary.ts';
import { getImport, listImports, rollup, rowsPage, type ImportRecord, type ReportRow, type Rollup } from './advisory.repo.ts';

/** Malformed lines listed in the report itself; all of them are in the CSV export and `?only=malformed`. */
export const MALFORMED_LISTED = 1000;

export interface SavingsFigures {
  calls: number;
  inputTokens: string;
  outputTokens: string;
  historicalCost: string;
  wouldHaveCost: string;
  equivalentBurn: string | null;
  tokensSaved: string | null;
  percentSavedBps: string | null;
}

/** % saved in basis points, rounded toward zero; null without a benchmark or with nothing to compare. */
export function percentBps(saved: bigint, baseline: bigint): string | null {
  return baseline === 0n ? null : ((saved * 10_000n) / baseline).toString();
}

function figures(r: Rollup | undefined, benchmarked: boolean): SavingsFigures {
  const would = r?.would ?? 0n;
  const baseline = benchmarked ? (r?.baseline ?? 0n) : null;
  const saved = baseline === null ? null : baseline - would;
  return {
    calls: r?.rows ?? 0,
    inputTokens: (r?.input_tokens ?? 0n).toString(),
    outputTokens: (r?.output_tokens ?? 0n).toString(),
    historicalCost: (r?.actual ?? 0n).toString(),
    wouldHaveCost: would.toString(),
    equivalentBurn: baseline === null ? null : baseline.toString(),
    tokensSaved: saved === null ? null : saved.toString(),
    percentSavedBps: saved === null || baseline === null ? null : percentBps(saved, baseline),
  };
}

export function benchmarkOf(imp: Pick<ImportRecord, 'benchmark_provider'>) {
  const key = imp.benchmark_provider;
  return isProviderKey(key) ? { providerKey: key, brand: BRANDS[key].name } : null;
}

export const BENCHMARK_PROMPT = 'Choose a benchmark provider on the Billing page to see Tokens saved and % saved for this import.';

export function summaryOf(imp: ImportRecord) {
  const bench = benchmarkOf(imp);
  const handled = imp.processed_rows + imp.malformed_rows;
  return {
    id: imp.id,
    projectId: imp.project_id,
    filename: imp.filename,
    format: imp.format,
    status: imp.status,
    error: imp.error,
    createdAt: imp.created_at.toISOString(),
    startedAt: imp.started_at?.toISOString() ?? null,
    finishedAt: imp.finished_at?.toISOString() ?? null,
    progress: {
      totalRows: imp.total_rows,
      processedRows: imp.processed_rows,
      malformedRows: imp.malformed_rows,
      percent: imp.total_rows === 0 ? 0 : Math.floor((handled * 100) / imp.total_rows),
    },
    benchmark: bench,
    equivalentLabel: equivalentBurnLabel(bench?.brand ?? null),
  };
}

export function rowView(r: ReportRow, benchmarked: boolean) {
  const would = r.would_cost_micros === null ? null : BigInt(r.would_cost_micros);
  const baseline = benchmarked && r.baseline_cost_micros !== null ? BigInt(r.baseline_cost_micros) : null;
  const saved = would !== null && baseline !== null ? baseline - would : null;
  return {
    line: r.line_no,
    status: r.status,
    error: r.error,
    occurredAt: r.occurred_at?.toISOString() ?? null,
    promptExcerpt: r.excerpt,
    provider: r.provider,
    model: r.model,
    taskFamily: r.task_family,
    complexity: r.complexity,
    modelClass: r.model_class,
    wouldHaveModel: r.would_model,
    historicalCost: r.actual_cost_micros,
    wouldHaveCost: r.would_cost_micros,
    equivalentBurn: baseline === null ? null : baseline.toString(),
    tokensSaved: saved === null ? null : saved.toString(),
    percentSavedBps: saved === null || baseline === null ? null : percentBps(saved, baseline),
  };
}
export type RowView = ReturnType<typeof rowView>;

export async function listImportSummaries(db: Executor, tenantId: string, limit: number) {
  return (await listImports(db, tenantId, limit)).map(summaryOf);
}

export async function findImport(db: Executor, tenantId: string, id: string): Promise<ImportRecord | null> {
  return getImport(db, tenantId, id);
}

/** The whole report of an import the caller may see, with one page of rows after line `after`. */
export async function importReport(db: Executor, imp: ImportRecord, page: { after: number; limit: number; malformedOnly: boolean }) {
  const benchmarked = benchmarkOf(imp) !== null;
  const [total, byFamily, byComplexity, rows, malformed] = await Promise.all([
    rollup(db, imp.id, null),
    rollup(db, imp.id, 'task_family'),
    rollup(db, imp.id, 'complexity'),
    rowsPage(db, imp.id, page.after, page.limit + 1, page.malformedOnly),
    rowsPage(db, imp.id, 0, MALFORMED_LISTED, true),
  ]);
  const more = rows.length > page.limit;
  const items = (more ? rows.slice(0, page.limit) : rows).map((r) => rowView(r, benchmarked));
  return {
    ...summaryOf(imp),
    benchmarkPrompt: benchmarked ? null : BENCHMARK_PROMPT,
    totals: figures(total[0], benchmarked),
    byTaskFamily: byFamily.map((r) => ({ taskFamily: r.key ?? 'unknown', ...figures(r, benchmarked) })),
    byComplexity: byComplexity.map((r) => ({ complexity: r.key ?? 'unknown', ...figures(r, benchmarked) })),
    malformed: { count: imp.malformed_rows, items: malformed.map((r) => ({ line: r.line_no, error: r.error ?? 'unreadable' })) },
    rows: { items, nextCursor: more ? String(items[items.length - 1].line) : null },
    methodology: {
      savingsMethodologyVersion: SAVINGS_METHODOLOGY_VERSION,
      pricingVersion: imp.pricing_version,
      routingTableVersion: imp.routing_table_version,
      classifierVersion: imp.classifier_version,
    },
  };
}
export type ImportReport = Awaited<ReturnType<typeof importReport>>;

/** Every row of an import in line order, a page at a time (for the CSV export). */
export async function* allRows(db: Executor, imp: ImportRecord): AsyncGenerator<RowView[]> {
  const benchmarked = benchmarkOf(imp) !== null;
  let after = 0;
  for (;;) {
    const page = await rowsPage(db, imp.id, after, 2000);
    if (page.length === 0) return;
    yield page.map((r) => rowView(r, benchmarked));
    after = page[page.length - 1].line_no;
  }
}

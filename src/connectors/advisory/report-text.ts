// The advisory report as terminal text (D14 tier 6): pure, so it can be read in a test. The locked
// vocabulary of spec §1 only: Tokens saved, % saved, Benchmark provider, <Provider>-equivalent
// burn; model classes, never model ids; with no benchmark provider the savings columns are left
// out and a line says how to choose one, never a 0 %.

/** The part of GET /api/advisory/imports/:id the terminal shows. */
export interface ReportData {
  id: string;
  filename: string | null;
  status: string;
  error: string | null;
  progress: { totalRows: number; processedRows: number; malformedRows: number; percent: number };
  benchmark: { providerKey: string; brand: string } | null;
  equivalentLabel: string;
  totals: Figures;
  byTaskFamily: Array<Figures & { taskFamily: string }>;
  byComplexity: Array<Figures & { complexity: string }>;
  malformed: { count: number; items: Array<{ line: number; error: string }> };
}
interface Figures {
  calls: number;
  historicalCost: string;
  wouldHaveCost: string;
  equivalentBurn: string | null;
  tokensSaved: string | null;
  percentSavedBps: string | null;
}

/** Integer string with thousands separators, exact for any size (no Number on amounts). */
export function grouped(v: string): string {
  const neg = v.startsWith('-');
  const digits = neg ? v.slice(1) : v;
  return `${neg ? '-' : ''}${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}

/** Basis points as a percentage with one decimal, e.g. "5873" → "58.7 %". */
export function percent(bps: string | null): string {
  if (bps === null) return '—';
  const n = BigInt(bps);
  const neg = n < 0n;
  const a = neg ? -n : n;
  return `${neg ? '-' : ''}${a / 100n}.${(a % 100n) / 10n} %`;
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

export function renderReport(r: ReportData, baseUrl: string, malformedShown = 20): string {
  const bench = r.benchmark !== null;
  const head = ['', 'Calls', 'Historical cost', 'Would-have cost', ...(bench ? [r.equivalentLabel, 'Tokens saved', '% saved'] : [])];
  const cells = (label: string, f: Figures) => [
    label,
    String(f.calls),
    grouped(f.historicalCost),
    grouped(f.wouldHaveCost),
    ...(bench ? [grouped(f.equivalentBurn ?? '0'), grouped(f.tokensSaved ?? '0'), percent(f.percentSavedBps)] : []),
  ];
  const out: string[] = [];
  out.push(`Switchboard advisory report${r.filename ? ` — ${r.filename}` : ''}`);
  out.push(`Import ${r.id}: ${r.status}; ${r.progress.totalRows} rows, ${r.progress.processedRows} classified, ${r.progress.malformedRows} malformed`);
  if (r.error) out.push(`Error: ${r.error}`);
  out.push(bench ? `Benchmark provider: ${r.benchmark!.brand}` : `Benchmark provider: not chosen. Choose one at ${baseUrl}/billing to see Tokens saved and % saved.`);
  out.push('');
  out.push(...table(head, [cells('Total', r.totals)]));
  out.push('', 'By task family');
  out.push(...table(head, r.byTaskFamily.map((f) => cells(f.taskFamily, f))));
  out.push('', 'By complexity');
  out.push(...table(head, r.byComplexity.map((f) => cells(f.complexity, f))));
  if (r.malformed.count > 0) {
    out.push('', `Malformed lines (${r.malformed.count}, not counted above)`);
    for (const m of r.malformed.items.slice(0, malformedShown)) out.push(`  line ${m.line}: ${m.error}`);
    if (r.malformed.count > malformedShown) out.push(`  … and ${r.malformed.count - malformedShown} more in the CSV export`);
  }
  out.push('');
  out.push('Amounts are wallet tokens (1 token = 1 USD micro). Every row, with the class Switchboard would have chosen:');
  out.push(`  ${baseUrl}/advisory?import=${r.id}  or the CSV at ${baseUrl}/api/advisory/imports/${r.id}/export`);
  return `${out.join('\n')}\n`;
}

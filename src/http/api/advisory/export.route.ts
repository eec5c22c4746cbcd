// GET /api/advisory/imports/:id/export: every row of the report as CSV (D14 tier 6), streamed a
// page at a time. Malformed lines are in it too, with their reason. Amounts are wallet tokens
// (1 token = 1 USD micro); savings columns are empty without a benchmark provider, never 0.
import { Readable } from 'node:stream';
import { allRows, findImport, type RowView } from '../../../app/connectors/index.ts';
import { idParams, type RouteModule } from '../common.ts';
import { requireUserOrKey, tenantOf, visible } from './access.ts';

/** RFC 4180 quoting; a leading = + - @ is neutralised so spreadsheets never run it as a formula. */
function csvField(v: string | number | null): string {
  if (v === null) return '';
  const t = String(v);
  const safe = /^[=+\-@]/.test(t) && !/^-?\d+$/.test(t) ? `'${t}` : t;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const COLUMNS: Array<[string, (r: RowView) => string | number | null]> = [
  ['line', (r) => r.line],
  ['status', (r) => r.status],
  ['error', (r) => r.error],
  ['occurred_at', (r) => r.occurredAt],
  ['prompt_excerpt', (r) => r.promptExcerpt],
  ['provider', (r) => r.provider],
  ['model', (r) => r.model],
  ['task_family', (r) => r.taskFamily],
  ['complexity', (r) => r.complexity],
  ['model_class', (r) => r.modelClass],
  ['would_have_model', (r) => r.wouldHaveModel],
  ['historical_cost', (r) => r.historicalCost],
  ['would_have_cost', (r) => r.wouldHaveCost],
  ['equivalent_burn', (r) => r.equivalentBurn],
  ['tokens_saved', (r) => r.tokensSaved],
  ['percent_saved_bps', (r) => r.percentSavedBps],
];

const route: RouteModule = (app, s) =>
  app.get('/api/advisory/imports/:id/export', { schema: { params: idParams }, onRequest: requireUserOrKey(s, 'viewer') }, async (req, reply) => {
    const imp = visible(req, await findImport(s.db, tenantOf(req), req.params.id));
    async function* lines() {
      yield `${COLUMNS.map(([h]) => h).join(',')}\r\n`;
      for await (const page of allRows(s.db, imp)) yield page.map((r) => `${COLUMNS.map(([, f]) => csvField(f(r))).join(',')}\r\n`).join('');
    }
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="advisory-${imp.id}.csv"`)
      .send(Readable.from(lines()));
  });
export default route;

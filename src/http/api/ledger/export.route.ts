// GET /api/tenant/ledger/export: the ledger as CSV with the same filters as the listing and only
// customer columns (D8: no model ids, no internal codes). Every export is written to the export
// log the Audit tab shows. Capped at MAX_EXPORT_ROWS; narrow the filters, or continue from a
// listing cursor, for more.
// ?format=json is the verifiable export (D17): the whole chain from its first row, each row with
// its chain digest, and the signed checkpoints, the last one taken now at the export's last row.
// `switchboard verify-export <file>` checks it offline. It takes no filters (a filtered chain has
// gaps nothing could verify) and has no row cap (it streams).
import { listLedger } from '../../../app/money/index.ts';
import { authOf, requireAuth } from '../../plugins/auth.ts';
import type { RouteModule } from '../common.ts';
import { filtersOf, ledgerQuery } from './schemas.ts';
import { Readable } from 'node:stream';
import { z } from 'zod';
import { verifiableExport } from '../../../app/money/index.ts';
import { appError } from '../../../core/errors.ts';

const exportQuery = ledgerQuery.extend({ format: z.enum(['csv', 'json'], { message: "must be 'csv' or 'json'" }).default('csv') });

export const MAX_EXPORT_ROWS = 50_000;
const HEADER = ['id', 'createdAt', 'label', 'projectId', 'amountMicros', 'balanceAfterMicros', 'runningBalanceMicros', 'benchmarkProvider', 'sealHash'];

/** RFC 4180 field quoting; a leading = + - @ is neutralised so spreadsheets never run it as a formula. */
function csvField(v: string | null): string {
  if (v === null) return '';
  const safe = /^[=+\-@]/.test(v) && !/^-?\d+$/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const route: RouteModule = (app, s) =>
  app.get('/api/tenant/ledger/export', { schema: { querystring: exportQuery }, onRequest: requireAuth(s) }, async (req, reply) => {
    const ctx = authOf(req);
    if (req.query.format === 'json') {
      const { format: _format, limit: _limit, ...rest } = req.query;
      const filter = Object.keys(rest).find((k) => rest[k as keyof typeof rest] !== undefined);
      if (filter) throw appError('validation', `${filter}: a verifiable export (format=json) is the whole chain and takes no filters or cursor; drop ${filter}, or use format=csv`, { field: filter });
      const exp = await verifiableExport(s, ctx.tenantId, `${s.publicUrl}/.well-known/switchboard-ledger-key`);
      await s.db
        .insertInto('export_log')
        .values({ tenant_id: ctx.tenantId, user_id: ctx.userId, kind: 'ledger.json', filters: JSON.stringify({ format: 'json' }), row_count: exp.rows, created_at: s.clock.now() })
        .execute();
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="ledger-${s.clock.now().toISOString().slice(0, 10)}.json"`)
        .send(Readable.from(exp.body));
    }
    const filters = filtersOf(req.query);
    const lines = [HEADER.join(',')];
    // A cursor from the listing starts the export at that page (and is validated like there).
    let cursor: string | undefined = req.query.cursor;
    let rows = 0;
    do {
      const page = await listLedger(s.db, ctx.tenantId, filters, { limit: 200, cursor });
      for (const r of page.items) {
        lines.push(
          [r.id, r.createdAt, r.customerLabel, r.projectId, r.amountMicros.toString(), r.balanceAfterMicros.toString(), r.runningBalanceMicros.toString(), r.benchmarkProvider, r.sealHash]
            .map(csvField)
            .join(','),
        );
      }
      rows += page.items.length;
      cursor = page.nextCursor ?? undefined;
    } while (cursor && rows < MAX_EXPORT_ROWS);
    await s.db
      .insertInto('export_log')
      .values({ tenant_id: ctx.tenantId, user_id: ctx.userId, kind: 'ledger.csv', filters: JSON.stringify(req.query), row_count: rows, created_at: s.clock.now() })
      .execute();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="ledger-${s.clock.now().toISOString().slice(0, 10)}.csv"`)
      .send(`${lines.join('\r\n')}\r\n`);
  });
export default route;

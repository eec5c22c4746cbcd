// The statements of advisory imports (D14 tier 6). Rows go in and come back in column arrays
// through unnest(): one round trip per thousand rows, whatever their number, which is what lets a
// 100,000-row import finish in seconds. Every read is scoped by tenant.
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

export type ImportStatus = 'receiving' | 'queued' | 'processing' | 'done' | 'failed';

export interface ImportRecord {
  id: string;
  tenant_id: string;
  project_id: string;
  filename: string | null;
  format: 'ndjson' | 'csv';
  status: ImportStatus;
  total_rows: number;
  processed_rows: number;
  malformed_rows: number;
  benchmark_provider: string | null;
  quality_floor: number;
  region: string | null;
  pricing_version: string;
  routing_table_version: string | null;
  classifier_version: string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface NewImport {
  tenantId: string;
  projectId: string;
  userId: string | null;
  keyId: string | null;
  filename: string | null;
  format: 'ndjson' | 'csv';
  benchmarkProvider: string | null;
  qualityFloor: number;
  region: string | null;
  pricingVersion: string;
  at: Date;
}

export async function insertImport(db: Executor, n: NewImport): Promise<string> {
  const r = await sql<{ id: string }>`
    insert into advisory_imports (tenant_id, project_id, user_id, key_id, filename, format, status, benchmark_provider, quality_floor, region, pricing_version, created_at)
    values (${n.tenantId}, ${n.projectId}, ${n.userId}, ${n.keyId}, ${n.filename}, ${n.format}, 'receiving', ${n.benchmarkProvider}, ${n.qualityFloor}, ${n.region}, ${n.pricingVersion}, ${n.at})
    returning id`.execute(db);
  return r.rows[0].id;
}

/** One uploaded line: a usable row (pending) or a malformed one with its reason. */
export interface StagedRow {
  lineNo: number;
  error: string | null;
  occurredAt: Date | null;
  request: string | null;
  excerpt: string | null;
  provider: string | null;
  model: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export async function insertRows(db: Executor, importId: string, rows: StagedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into advisory_import_rows (import_id, line_no, status, error, occurred_at, request, excerpt, provider, model, input_tokens, output_tokens)
    select ${importId}::uuid, u.line_no, case when u.error is null then 'ok' else 'malformed' end, u.error, u.occurred_at, u.request, u.excerpt, u.provider, u.model, u.input_tokens, u.output_tokens
      from unnest(${rows.map((r) => r.lineNo)}::int[], ${rows.map((r) => r.error)}::text[], ${rows.map((r) => r.occurredAt?.toISOString() ?? null)}::timestamptz[],
                  ${rows.map((r) => r.request)}::text[], ${rows.map((r) => r.excerpt)}::text[], ${rows.map((r) => r.provider)}::text[], ${rows.map((r) => r.model)}::text[],
                  ${rows.map((r) => r.inputTokens)}::int[], ${rows.map((r) => r.outputTokens)}::int[])
           as u(line_no, error, occurred_at, request, excerpt, provider, model, input_tokens, output_tokens)`.execute(db);
}

export async function markQueued(db: Executor, importId: string, totals: { total: number; malformed: number }): Promise<void> {
  await sql`update advisory_imports set status = 'queued', total_rows = ${totals.total}, malformed_rows = ${totals.malformed} where id = ${importId}`.execute(db);
}

export async function deleteImport(db: Executor, importId: string): Promise<void> {
  await sql`delete from advisory_imports where id = ${importId}`.execute(db);
}

/** queued → processing (also picks up an import a crashed worker left in processing). */
export async function claimImport(db: Executor, importId: string, at: Date): Promise<ImportRecord | null> {
  const r = await sql<ImportRecord>`
    update advisory_imports set status = 'processing', started_at = coalesce(started_at, ${at})
     where id = ${importId} and status in ('queued', 'processing')
    returning *`.execute(db);
  return r.rows[0] ?? null;
}

export interface PendingRow {
  line_no: number;
  request: string;
  model: string;
  input_tokens: number;
  output_tokens: number;
}

/** The last line already decided (a rerun after a crash continues after it). */
export async function lastDecidedLine(db: Executor, importId: string): Promise<number> {
  const r = await sql<{ last: number | null }>`select max(line_no) as last from advisory_import_results where import_id = ${importId}`.execute(db);
  return r.rows[0]?.last ?? 0;
}

export async function pendingRows(db: Executor, importId: string, afterLine: number, limit: number): Promise<PendingRow[]> {
  const r = await sql<PendingRow>`
    select line_no, request, model, input_tokens, output_tokens from advisory_import_rows
     where import_id = ${importId} and line_no > ${afterLine} and status = 'ok'
     order by line_no limit ${limit}`.execute(db);
  return r.rows;
}

export interface RowDecision {
  lineNo: number;
  taskFamily: string;
  complexity: string;
  modelClass: string;
  wouldModel: string;
  inputTokens: number;
  outputTokens: number;
  actualCost: bigint;
  wouldCost: bigint;
  baselineCost: bigint | null;
}

/** Append one batch of decisions and count it on the import, in one transaction of the caller. */
export async function writeDecisions(db: Executor, importId: string, d: RowDecision[]): Promise<void> {
  if (d.length === 0) return;
  await sql`
    insert into advisory_import_results (import_id, line_no, task_family, complexity, model_class, would_model, input_tokens, output_tokens, actual_cost_micros, would_cost_micros, baseline_cost_micros)
    select ${importId}::uuid, u.*
      from unnest(${d.map((x) => x.lineNo)}::int[], ${d.map((x) => x.taskFamily)}::text[], ${d.map((x) => x.complexity)}::text[], ${d.map((x) => x.modelClass)}::text[],
                  ${d.map((x) => x.wouldModel)}::text[], ${d.map((x) => x.inputTokens)}::int[], ${d.map((x) => x.outputTokens)}::int[],
                  ${d.map((x) => x.actualCost.toString())}::bigint[], ${d.map((x) => x.wouldCost.toString())}::bigint[], ${d.map((x) => x.baselineCost?.toString() ?? null)}::bigint[]) as u
    on conflict do nothing`.execute(db);
  await sql`update advisory_imports set processed_rows = processed_rows + ${d.length} where id = ${importId}`.execute(db);
}

export async function finishImport(db: Executor, importId: string, f: { at: Date; routingTableVersion: string; classifierVersion: string | null }): Promise<ImportRecord> {
  const r = await sql<ImportRecord>`
    update advisory_imports set status = 'done', finished_at = ${f.at}, routing_table_version = ${f.routingTableVersion}, classifier_version = ${f.classifierVersion}
     where id = ${importId} returning *`.execute(db);
  return r.rows[0];
}

export async function failImport(db: Executor, importId: string, at: Date, error: string): Promise<void> {
  await sql`update advisory_imports set status = 'failed', finished_at = ${at}, error = ${error} where id = ${importId}`.execute(db);
}

export async function getImport(db: Executor, tenantId: string, importId: string): Promise<ImportRecord | null> {
  const r = await sql<ImportRecord>`select * from advisory_imports where id = ${importId} and tenant_id = ${tenantId}`.execute(db);
  return r.rows[0] ?? null;
}

export async function listImports(db: Executor, tenantId: string, limit: number): Promise<ImportRecord[]> {
  const r = await sql<ImportRecord>`select * from advisory_imports where tenant_id = ${tenantId} order by created_at desc, id desc limit ${limit}`.execute(db);
  return r.rows;
}

export interface Rollup {
  key: string | null;
  rows: number;
  input_tokens: bigint;
  output_tokens: bigint;
  actual: bigint;
  would: bigint;
  baseline: bigint | null;
}

/** Totals of the classified rows, grouped by `by` (or one total row with by = null). */
export async function rollup(db: Executor, importId: string, by: 'task_family' | 'complexity' | null): Promise<Rollup[]> {
  const key = by === null ? sql`null::text` : sql.ref(by);
  const r = await sql<Rollup>`
    select ${key} as key, count(*)::int as rows,
           coalesce(sum(input_tokens), 0)::bigint as input_tokens, coalesce(sum(output_tokens), 0)::bigint as output_tokens,
           coalesce(sum(actual_cost_micros), 0)::bigint as actual, coalesce(sum(would_cost_micros), 0)::bigint as would,
           sum(baseline_cost_micros)::bigint as baseline
      from advisory_import_results where import_id = ${importId}
     ${by === null ? sql`` : sql`group by 1 order by 1`}`.execute(db);
  return r.rows.map((x) => ({ ...x, input_tokens: BigInt(x.input_tokens), output_tokens: BigInt(x.output_tokens), actual: BigInt(x.actual), would: BigInt(x.would), baseline: x.baseline === null ? null : BigInt(x.baseline) }));
}

export interface ReportRow {
  line_no: number;
  status: 'pending' | 'done' | 'malformed';
  error: string | null;
  occurred_at: Date | null;
  excerpt: string | null;
  provider: string | null;
  model: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  task_family: string | null;
  complexity: string | null;
  model_class: string | null;
  would_model: string | null;
  actual_cost_micros: string | null;
  would_cost_micros: string | null;
  baseline_cost_micros: string | null;
}

/** A page of rows in line order after `afterLine`; `malformedOnly` lists just the rejected lines. */
export async function rowsPage(db: Executor, importId: string, afterLine: number, limit: number, malformedOnly = false): Promise<ReportRow[]> {
  const r = await sql<ReportRow>`
    select r.line_no, case when r.status = 'malformed' then 'malformed' when x.line_no is null then 'pending' else 'done' end as status,
           r.error, r.occurred_at, r.excerpt, r.provider, r.model, r.input_tokens, r.output_tokens, x.task_family, x.complexity, x.model_class, x.would_model,
           x.actual_cost_micros::text, x.would_cost_micros::text, x.baseline_cost_micros::text
      from advisory_import_rows r
      left join advisory_import_results x on x.import_id = r.import_id and x.line_no = r.line_no
     where r.import_id = ${importId} and r.line_no > ${afterLine} ${malformedOnly ? sql`and r.status = 'malformed'` : sql``}
     order by r.line_no limit ${limit}`.execute(db);
  return r.rows;
}

// Receiving an advisory import (D14 tier 6): the upload is read as a stream, line by line (NDJSON)
// or record by record (CSV, csv-parse), and written to the database a thousand rows at a time, so
// memory stays flat whatever the file's size. A line that cannot be used is kept with its line
// number and reason: it is counted and listed in the report, never fatal to the import. When the
// last byte is in, the import is queued for the worker (Services.jobs), in the same transaction
// that marks it queued. No upstream call, no wallet movement, no ledger entry.
import { parse as csvParse } from 'csv-parse';
import { Readable } from 'node:stream';
import type { Services } from '../shared/index.ts';
import { appError } from '../../core/errors.ts';
import { PRICE_BOOK } from '../../core/pricing/price-book.ts';
import { loadCallContext } from '../money/index.ts';
import { csvHeader, parseCsvRecord, parseNdjsonLine, type RowResult } from './advisory-rows.ts';
import { deleteImport, insertImport, insertRows, markQueued, type StagedRow } from './advisory.repo.ts';

/** D14: up to 100,000 rows per import. */
export const MAX_IMPORT_ROWS = 100_000;
/** The whole upload; a 100,000-row file of long prompts fits well inside. */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;
/** One line or CSV record; longer ones are listed as malformed and skipped without being kept. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const BATCH = 1000;

export type ImportFormat = 'ndjson' | 'csv';

export interface Uploader {
  tenantId: string;
  projectId: string;
  userId: string | null;
  keyId: string | null;
}

/** The format of an upload: asked for, else from its Content-Type, else sniffed from its first byte. */
export function formatOf(asked: string | undefined, contentType: string | undefined, firstByte: number | undefined): ImportFormat {
  if (asked === 'csv' || asked === 'ndjson') return asked;
  const ct = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (ct === 'text/csv' || ct === 'application/csv') return 'csv';
  if (['application/x-ndjson', 'application/ndjson', 'application/jsonl', 'application/x-jsonlines', 'application/json'].includes(ct)) return 'ndjson';
  return firstByte === 0x7b /* { */ ? 'ndjson' : 'csv';
}

/** Lines of a byte stream with their 1-based numbers; an over-long line comes back as `null`. */
async function* ndjsonLines(source: AsyncIterable<Buffer>): AsyncGenerator<{ lineNo: number; text: string | null }> {
  let lineNo = 0;
  let parts: Buffer[] = [];
  let held = 0;
  let oversize = false;
  const flush = (): { lineNo: number; text: string | null } => {
    lineNo += 1;
    const text = oversize ? null : Buffer.concat(parts, held).toString('utf8');
    parts = [];
    held = 0;
    oversize = false;
    return { lineNo, text };
  };
  for await (const chunk of source) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl < 0 ? chunk.length : nl;
      if (!oversize) {
        if (held + (end - start) > MAX_LINE_BYTES) {
          oversize = true;
          parts = [];
          held = 0;
        } else if (end > start) {
          parts.push(chunk.subarray(start, end));
          held += end - start;
        }
      }
      if (nl < 0) break;
      yield flush();
      start = nl + 1;
    }
  }
  if (held > 0 || oversize) yield flush();
}

async function* ndjsonRows(source: AsyncIterable<Buffer>): AsyncGenerator<{ lineNo: number; result: RowResult }> {
  for await (const { lineNo, text } of ndjsonLines(source)) {
    if (text === null) {
      yield { lineNo, result: { ok: false, error: `line longer than ${MAX_LINE_BYTES / 1024 / 1024} MB` } };
      continue;
    }
    const line = (lineNo === 1 ? text.replace(/^\uFEFF/, '') : text).trim();
    if (line === '') continue;
    yield { lineNo, result: parseNdjsonLine(line) };
  }
}

async function* csvRows(source: AsyncIterable<Buffer>): AsyncGenerator<{ lineNo: number; result: RowResult }> {
  const skipped: Array<{ lineNo: number; result: RowResult }> = [];
  const parser = csvParse({
    bom: true,
    info: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    max_record_size: MAX_LINE_BYTES,
    skip_records_with_error: true,
    on_skip: (err) => {
      const lines = typeof err?.lines === 'number' ? err.lines : 0;
      skipped.push({ lineNo: lines, result: { ok: false, error: `not a valid CSV record: ${err?.message ?? 'unreadable'}` } });
      return undefined;
    },
  });
  const input = Readable.from(source);
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  let index: ReturnType<typeof csvHeader> | null = null;
  for await (const rec of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    while (skipped.length) yield skipped.shift()!;
    if (index === null) {
      index = csvHeader(rec.record);
      if (!index.ok) throw appError('validation', `${index.error}.`);
      continue;
    }
    if (!index.ok) continue;
    yield { lineNo: rec.info.lines, result: parseCsvRecord(rec.record, index.index) };
  }
  while (skipped.length) yield skipped.shift()!;
  if (index === null) throw appError('validation', `The CSV file is empty: its first line must name the columns timestamp,provider,model,prompt,completion,input_tokens,output_tokens.`);
}

function staged(lineNo: number, r: RowResult): StagedRow {
  if (!r.ok) return { lineNo, error: r.error, occurredAt: null, request: null, excerpt: null, provider: null, model: null, inputTokens: null, outputTokens: null };
  const row = r.row;
  return {
    lineNo,
    error: null,
    occurredAt: row.occurredAt,
    request: JSON.stringify(row.request),
    excerpt: row.excerpt,
    provider: row.provider,
    model: row.model,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
  };
}

/** Counts bytes as they pass and stops the upload past MAX_IMPORT_BYTES. */
async function* capped(source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const c of source) {
    const b = typeof c === 'string' ? Buffer.from(c) : c;
    bytes += b.length;
    if (bytes > MAX_IMPORT_BYTES) throw appError('body_too_large', `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB: split it and upload each part as its own import`);
    yield b;
  }
}

export interface ReceivedImport {
  id: string;
  totalRows: number;
  malformedRows: number;
}

/**
 * Stream an upload into a new import and queue it for the worker. Throws (and leaves nothing
 * behind) when the file is unreadable as a whole: no rows, a CSV without its header, more than
 * MAX_IMPORT_ROWS rows or more than MAX_IMPORT_BYTES.
 */
export async function receiveImport(
  s: Services,
  who: Uploader,
  upload: { source: AsyncIterable<Buffer | string>; format: ImportFormat; filename: string | null },
): Promise<ReceivedImport> {
  // The project's settings now are the report's: a later change does not rewrite it (spec §1 rule 5).
  const ctx = await loadCallContext(s, { tenantId: who.tenantId, projectId: who.projectId }, { fresh: true });
  const id = await insertImport(s.db, {
    ...who,
    filename: upload.filename,
    format: upload.format,
    benchmarkProvider: ctx.benchmarkProvider,
    qualityFloor: ctx.qualityFloor,
    region: ctx.region,
    pricingVersion: PRICE_BOOK.version,
    at: s.clock.now(),
  });
  try {
    const bytes = capped(upload.source);
    const rows = upload.format === 'csv' ? csvRows(bytes) : ndjsonRows(bytes);
    let total = 0;
    let malformed = 0;
    let batch: StagedRow[] = [];
    let writing: Promise<void> = Promise.resolve();
    for await (const { lineNo, result } of rows) {
      total += 1;
      if (total > MAX_IMPORT_ROWS) throw appError('body_too_large', `The file has more than ${MAX_IMPORT_ROWS.toLocaleString('en-US')} rows: split it and upload each part as its own import`);
      if (!result.ok) malformed += 1;
      batch.push(staged(lineNo, result));
      if (batch.length >= BATCH) {
        // One insert in flight while the next batch is parsed; a failed one fails the upload.
        await writing;
        writing = insertRows(s.db, id, batch);
        writing.catch(() => undefined); // awaited above; this only keeps a failure from going unhandled meanwhile
        batch = [];
      }
    }
    await writing;
    await insertRows(s.db, id, batch);
    if (total === 0) throw appError('validation', 'The file holds no rows: upload NDJSON lines or a CSV with a header and at least one row');
    await s.db.transaction().execute(async (tx) => {
      await markQueued(tx, id, { total, malformed });
      await s.jobs.processAdvisoryImport(tx, { importId: id });
    });
    return { id, totalRows: total, malformedRows: malformed };
  } catch (e) {
    await deleteImport(s.db, id).catch(() => undefined);
    throw e;
  }
}

// The advisory import's worker side (D14 tier 6): every usable row is classified by Layer 1 (the
// same pure decision a live call gets, with the project's quality floor frozen at upload), the
// model Switchboard would have used is picked by Layer 2 from the price book (no live health, no
// upstream call), and the row is priced three ways on its own token counts: at the model that
// really answered, at the would-have model, and at the benchmark provider's reference model of
// the would-have class (D7). Progress is saved per batch and published as `advisory.progress`.
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import { decideLayer1 } from '../../core/routing/layer1.ts';
import { CLASSIFIER_VERSION } from '../../core/routing/classify.ts';
import { ROUTING_TABLE_VERSION } from '../../core/routing/routing-table.ts';
import { chooseEndpoints, endpointsFromPriceBook, requiredCapabilities } from '../../core/routing/layer2.ts';
import { costMicros } from '../../core/pricing/cost.ts';
import { findModel, referenceModel } from '../../core/pricing/price-book.ts';
import type { ModelClass } from '../../core/model-class.ts';
import { emitEvent } from '../events/index.ts';
import { claimImport, failImport, finishImport, lastDecidedLine, pendingRows, writeDecisions, type ImportRecord, type PendingRow, type RowDecision } from './advisory.repo.ts';

const BATCH = 1000;
/** Progress frames at most this often (plus the final one): a 100,000-row import sends a handful. */
const PROGRESS_EVERY_MS = 1000;

const CANDIDATES = endpointsFromPriceBook();

/** Layer 2 without live health: the cheapest eligible endpoint of the class (or the next class up). */
function wouldHaveModel(req: CanonicalRequest, modelClass: ModelClass, taskFamily: Parameters<typeof chooseEndpoints>[0]['taskFamily'], region: string | null) {
  const choice = chooseEndpoints({ modelClass, taskFamily, candidates: CANDIDATES, health: {}, residency: region, requiredCapabilities: requiredCapabilities(req), now: 0 });
  const first = choice.endpoints[0];
  return first ? { model: first.model, modelClass: choice.modelClass ?? modelClass } : null;
}

/** The decision for one row; pure but for the price book it reads. */
export function decideRow(row: PendingRow, imp: Pick<ImportRecord, 'quality_floor' | 'region' | 'benchmark_provider'>): RowDecision {
  const req = JSON.parse(row.request) as CanonicalRequest;
  const d = decideLayer1(req, { qualityFloor: imp.quality_floor });
  const usage = { inputTokens: row.input_tokens, outputTokens: row.output_tokens };
  const actual = findModel(row.model);
  if (!actual) throw new Error(`model ${row.model} left the price book between upload and processing`);
  // A residency with no endpoint for the request falls back to anywhere: the report still answers.
  const would = wouldHaveModel(req, d.modelClass, d.taskFamily, imp.region) ?? wouldHaveModel(req, d.modelClass, d.taskFamily, null);
  const wouldModel = would ? findModel(would.model)! : actual;
  const modelClass = would ? would.modelClass : d.modelClass;
  const reference = imp.benchmark_provider ? referenceModel(imp.benchmark_provider, modelClass) : undefined;
  return {
    lineNo: row.line_no,
    taskFamily: d.taskFamily,
    complexity: d.complexity,
    modelClass,
    wouldModel: wouldModel.id,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    actualCost: costMicros(actual, usage),
    wouldCost: costMicros(wouldModel, usage),
    baselineCost: reference ? costMicros(reference, usage) : null,
  };
}

async function progress(s: Services, imp: ImportRecord, status: 'processing' | 'done' | 'failed', processedRows: number): Promise<void> {
  await emitEvent(s, {
    type: 'advisory.progress',
    tenantId: imp.tenant_id,
    projectId: imp.project_id,
    payload: { importId: imp.id, status, totalRows: imp.total_rows, processedRows, malformedRows: imp.malformed_rows },
  }).catch((e) => s.log.warn(e, 'advisory progress event failed'));
}

/** Process a queued import to the end (idempotent: a rerun continues with the rows still pending). */
export async function processAdvisoryImport(s: Services, importId: string): Promise<void> {
  const imp = await claimImport(s.db, importId, s.clock.now());
  if (!imp) return; // deleted, or already done or failed
  try {
    let processed = imp.processed_rows;
    let lastFrame = 0;
    // A pipeline of three: PostgreSQL reads the next batch and writes the previous one while this
    // process classifies the current one (Layer 1 is CPU, the rest is the database's).
    let next = pendingRows(s.db, imp.id, await lastDecidedLine(s.db, imp.id), BATCH);
    let writing: Promise<void> = Promise.resolve();
    for (;;) {
      const rows = await next;
      if (rows.length === 0) break;
      next = pendingRows(s.db, imp.id, rows[rows.length - 1].line_no, BATCH);
      next.catch(() => undefined); // awaited next turn; only keeps a failure from going unhandled meanwhile
      const decisions = rows.map((r) => decideRow(r, imp));
      await writing;
      writing = s.db.transaction().execute((tx) => writeDecisions(tx, imp.id, decisions));
      writing.catch(() => undefined);
      processed += rows.length;
      if (Date.now() - lastFrame >= PROGRESS_EVERY_MS) {
        lastFrame = Date.now();
        await progress(s, imp, 'processing', processed);
      }
    }
    await writing;
    await finishImport(s.db, imp.id, { at: s.clock.now(), routingTableVersion: ROUTING_TABLE_VERSION, classifierVersion: CLASSIFIER_VERSION });
    await progress(s, imp, 'done', processed);
  } catch (e) {
    s.log.error(e, 'advisory import failed');
    await failImport(s.db, imp.id, s.clock.now(), 'Processing failed on our side: upload the file again, and contact support if it fails twice');
    await progress(s, imp, 'failed', imp.processed_rows);
  }
}

// Ledger checkpoints and the verifiable export (D17). A checkpoint signs a tenant's chain head
// (tenantId, sequence, sealHash, balanceMicros, time) and the public chain digest at that row with
// the server's Ed25519 key (core/ledger/checkpoint.ts). The worker takes one every hour for each
// tenant whose ledger moved; the owner can take one now; a verifiable export takes one at its
// last row, so everything it contains is covered. The digest is extended from the previous
// checkpoint, so a checkpoint reads only the rows appended since the last one.
import type { Db } from '../../store/db.ts';
import type { Selectable } from 'kysely';
import type { LedgerCheckpointsTable } from '../../store/schema.ts';
import type { Services } from '../shared/index.ts';
import { decodeCursor, toPage, type Page, type PageQuery } from '../shared/index.ts';
import { canonicalJson } from '../../core/ledger/canonical-json.ts';
import {
  DIGEST_GENESIS,
  EXPORT_FORMAT,
  nextChainDigest,
  signCheckpoint,
  type ExportEntry,
  type SignedCheckpoint,
} from '../../core/ledger/checkpoint.ts';
import {
  checkpointAt,
  checkpointAtOrBelow,
  checkpointsPage,
  checkpointsUpTo,
  exportRowsInSpan,
  highestSeq,
  insertCheckpoint,
  tenantsWithUncheckpointedEntries,
  type EntryRow,
} from './checkpoints.repo.ts';

const BATCH = 1000;

/** A stored row as the export shows it, with its chain digest computed from the one before. */
function exportEntryOf(r: EntryRow, prevDigest: string): ExportEntry {
  const e = {
    seq: r.seq.toString(),
    id: r.id,
    createdAt: r.created_at.toISOString(),
    customerLabel: r.customer_label,
    projectId: r.project_id,
    amountMicros: r.amount_micros.toString(),
    balanceAfterMicros: r.balance_after_micros.toString(),
    benchmarkProvider: r.benchmark_provider,
    prevHash: r.prev_hash,
    sealHash: r.seal_hash,
  };
  return { ...e, chainDigest: nextChainDigest(prevDigest, e) };
}

/** The tenant's rows in (after, upTo], in sequence order, BATCH at a time. */
async function* entriesBetween(db: Db, tenantId: string, after: bigint, upTo: bigint): AsyncGenerator<EntryRow[]> {
  let from = after;
  while (from < upTo) {
    const rows = await exportRowsInSpan(db, tenantId, from, upTo, BATCH);
    if (rows.length === 0) return;
    yield rows;
    from = rows[rows.length - 1].seq;
  }
}

export function checkpointOf(r: Selectable<LedgerCheckpointsTable>): SignedCheckpoint {
  return {
    tenantId: r.tenant_id,
    sequence: r.sequence.toString(),
    sealHash: r.seal_hash,
    balanceMicros: r.balance_micros.toString(),
    chainDigest: r.chain_digest,
    time: r.created_at.toISOString(),
    keyId: r.key_id,
    signature: r.signature,
  };
}

/**
 * Sign the tenant's current chain head, or return the checkpoint that already covers it. Null for
 * a tenant with no ledger entries (there is nothing to sign). Safe to run concurrently: the
 * (tenant, sequence) pair is unique and whoever loses the race returns the winner's row.
 */
export async function takeCheckpoint(s: Services, tenantId: string): Promise<SignedCheckpoint | null> {
  // Entries are immutable and a tenant's sequence numbers commit in order (the wallet row lock),
  // so the highest committed row is a consistent head and everything below it is present.
  const head = await highestSeq(s.db, tenantId);
  if (!head) return null;
  const last = await checkpointAtOrBelow(s.db, tenantId, head.seq);
  if (last && last.sequence === head.seq) return checkpointOf(last);
  let digest = last?.chain_digest ?? DIGEST_GENESIS;
  let top: ExportEntry | null = null;
  for await (const rows of entriesBetween(s.db, tenantId, last?.sequence ?? 0n, head.seq)) {
    for (const r of rows) {
      top = exportEntryOf(r, digest);
      digest = top.chainDigest;
    }
  }
  if (!top || top.seq !== head.seq.toString()) throw new Error(`ledger of tenant ${tenantId} has a gap below sequence ${head.seq}`);
  const at = s.clock.now();
  const cp = signCheckpoint(s.secrets.ledgerSigning, {
    tenantId,
    sequence: top.seq,
    sealHash: top.sealHash,
    balanceMicros: top.balanceAfterMicros,
    chainDigest: digest,
    time: at.toISOString(),
  });
  await insertCheckpoint(s.db, {
    tenantId,
    sequence: head.seq,
    sealHash: cp.sealHash,
    balanceMicros: BigInt(cp.balanceMicros),
    chainDigest: cp.chainDigest,
    keyId: cp.keyId,
    signature: cp.signature,
    at,
  });
  const stored = await checkpointAt(s.db, tenantId, head.seq);
  return checkpointOf(stored);
}

/** The hourly run: a checkpoint for every tenant whose ledger moved since its last one. */
export async function checkpointMovedLedgers(s: Services): Promise<{ tenants: number }> {
  const moved = await tenantsWithUncheckpointedEntries(s.db);
  let tenants = 0;
  for (const { tenant_id } of moved) {
    try {
      if (await takeCheckpoint(s, tenant_id)) tenants++;
    } catch (e) {
      // One tenant's failure must not stop the others; the next hour retries it.
      s.log.error({ err: e, tenantId: tenant_id }, 'ledger checkpoint failed');
    }
  }
  return { tenants };
}

/** The tenant's checkpoints, newest first (D9 cursor pages). */
export async function listCheckpoints(db: Db, tenantId: string, page: PageQuery): Promise<Page<SignedCheckpoint>> {
  const after = decodeCursor(page.cursor, ['seq'] as const);
  const rows = await checkpointsPage(db, tenantId, after ? BigInt(after.seq) : null, page.limit + 1);
  return toPage(rows, page.limit, checkpointOf, (r) => ({ seq: r.sequence.toString() }));
}

/**
 * The verifiable export: a checkpoint is taken at the head first, then `body` gives, as JSON text
 * in pieces (memory stays flat however long the chain is), every row from the first to that head
 * and every checkpoint up to it. `publicKeyUrl` says where the key was published.
 */
export async function verifiableExport(s: Services, tenantId: string, publicKeyUrl: string): Promise<{ rows: number; body: AsyncGenerator<string> }> {
  const head = await takeCheckpoint(s, tenantId);
  const upTo = head ? BigInt(head.sequence) : 0n;
  const exportedAt = s.clock.now().toISOString();
  async function* body(): AsyncGenerator<string> {
    yield `{"format":${JSON.stringify(EXPORT_FORMAT)},"tenantId":${JSON.stringify(tenantId)},"exportedAt":${JSON.stringify(exportedAt)},"publicKeyUrl":${JSON.stringify(publicKeyUrl)},"entries":[`;
    let digest = DIGEST_GENESIS;
    let first = true;
    for await (const rows of entriesBetween(s.db, tenantId, 0n, upTo)) {
      const parts: string[] = [];
      for (const r of rows) {
        const e = exportEntryOf(r, digest);
        digest = e.chainDigest;
        parts.push(`${first ? '' : ','}\n${canonicalJson(e)}`);
        first = false;
      }
      yield parts.join('');
    }
    const cps = await checkpointsUpTo(s.db, tenantId, upTo);
    yield `\n],"checkpoints":[${cps.map((c) => `\n${canonicalJson(checkpointOf(c))}`).join(',')}\n]}\n`;
  }
  return { rows: Number(upTo), body: body() };
}

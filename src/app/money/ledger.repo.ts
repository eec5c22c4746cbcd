// The money domain's statements that append to a tenant's sealed chain (docs/layout.md: SQL in
// *.repo.ts; ledger.ts keeps the sealing and the floor rule). The wallet row is the chain head
// and the per-tenant lock: moveWalletHead takes it, writeSealedEntry writes under it.
import { sql } from 'kysely';
import type { Executor } from '../../store/db.ts';

/** A wallet row as a chain head: balance, holds, sequence, last seal and the auto-top-up rule. */
export interface WalletHead {
  balance_micros: bigint;
  reserved_micros: bigint;
  ledger_seq: bigint;
  last_seal_hash: string;
  auto_topup_threshold_micros: bigint | null;
  auto_topup_amount_micros: bigint | null;
  auto_topup_armed: boolean;
}

/**
 * Moves the balance and the holds and advances the sequence, only when the balance stays at or
 * above its floor and no more is released than is reserved; undefined (nothing changed) otherwise.
 * A credit that brings the balance back to (or above) the auto-top-up threshold re-arms the rule.
 */
export async function moveWalletHead(
  tx: Executor,
  v: { tenantId: string; amountMicros: bigint; releaseMicros: bigint; isCredit: boolean; floorIsReserved: boolean; at: Date },
): Promise<WalletHead | undefined> {
  const head = await sql<WalletHead>`
    update wallets
       set balance_micros = balance_micros + ${v.amountMicros}::bigint,
           reserved_micros = reserved_micros - ${v.releaseMicros}::bigint,
           ledger_seq = ledger_seq + 1,
           auto_topup_armed = auto_topup_armed or (${v.isCredit}::boolean and (auto_topup_threshold_micros is null
                              or balance_micros + ${v.amountMicros}::bigint >= auto_topup_threshold_micros)),
           updated_at = ${v.at}
     where tenant_id = ${v.tenantId}
       and balance_micros + ${v.amountMicros}::bigint >= case when ${v.floorIsReserved}::boolean then reserved_micros - ${v.releaseMicros}::bigint else 0 end
       and reserved_micros - ${v.releaseMicros}::bigint >= 0
    returning balance_micros, reserved_micros, ledger_seq, last_seal_hash,
              auto_topup_threshold_micros, auto_topup_amount_micros, auto_topup_armed`.execute(tx);
  return head.rows[0];
}

export interface SealedEntryValues {
  id: string;
  tenantId: string;
  projectId: string | null;
  seq: bigint;
  eventType: string;
  customerLabel: string;
  amountMicros: bigint;
  balanceAfterMicros: bigint;
  modelId: string | null;
  providerKey: string | null;
  benchmarkProvider: string | null;
  benchmarkMethodologyVersion: string | null;
  actualCostUsdMicros: bigint | null;
  baselineCostUsdMicros: bigint | null;
  benchmarkPricingVersion: string | null;
  callId: string | null;
  memo: string | null;
  sealHash: string;
  prevHash: string;
  createdAt: string;
}

/** Writes the sealed entry and moves the wallet's chain head to its seal, in one statement. */
export async function writeSealedEntry(tx: Executor, e: SealedEntryValues): Promise<void> {
  await sql`
    with head as (update wallets set last_seal_hash = ${e.sealHash} where tenant_id = ${e.tenantId})
    insert into ledger_entries (id, tenant_id, project_id, seq, event_type, customer_label, amount_micros,
      balance_after_micros, model_id, provider_key, benchmark_provider, benchmark_methodology_version,
      actual_cost_usd_micros, baseline_cost_usd_micros, benchmark_pricing_version, call_id, memo,
      seal_hash, prev_hash, created_at)
    values (${e.id}, ${e.tenantId}, ${e.projectId}, ${e.seq}, ${e.eventType}, ${e.customerLabel},
      ${e.amountMicros}, ${e.balanceAfterMicros}, ${e.modelId}, ${e.providerKey}, ${e.benchmarkProvider},
      ${e.benchmarkMethodologyVersion}, ${e.actualCostUsdMicros}, ${e.baselineCostUsdMicros},
      ${e.benchmarkPricingVersion}, ${e.callId}, ${e.memo}, ${e.sealHash}, ${e.prevHash}, ${e.createdAt})`.execute(tx);
}

// Writing wallet movements for tests through the real ledger append (D8), at chosen times.
import { randomUUID } from 'node:crypto';
import type { Services } from '../src/app/shared/services.ts';
import { appendLedgerEntry } from '../src/app/money/ledger.ts';

export function credit(s: Services, tenantId: string, micros: bigint, at = s.clock.now()) {
  return s.db.transaction().execute((tx) => appendLedgerEntry(tx, s.secrets.ledger, { tenantId, projectId: null, eventType: 'ADJUSTMENT', amountMicros: micros, at }));
}

/** An AI_USAGE debit of `micros`; with costs, baseline − actual is the call's tokens saved. */
export function usage(
  s: Services,
  tenantId: string,
  projectId: string,
  micros: bigint,
  o: { at?: Date; callId?: string; actual?: bigint; baseline?: bigint; escalated?: boolean; parentCallId?: string } = {},
) {
  const callId = o.callId ?? randomUUID();
  const at = o.at ?? s.clock.now();
  return s.db.transaction().execute(async (tx) => {
    const e = await appendLedgerEntry(tx, s.secrets.ledger, {
      tenantId,
      projectId,
      eventType: 'AI_USAGE',
      amountMicros: -micros,
      at,
      callId,
      actualCostUsdMicros: o.actual ?? micros,
      baselineCostUsdMicros: o.baseline ?? null,
      benchmarkProvider: o.baseline !== undefined ? 'openai' : null,
    });
    // Its call-log row, as settlement writes it: escalation is an attempt flag and a parent link (D5).
    await tx
      .insertInto('call_logs')
      .values({ id: callId, tenant_id: tenantId, project_id: projectId, status: 'succeeded', channel: 'proxy:chat', escalated: o.escalated ?? false, parent_call_id: o.parentCallId ?? null, attempt: o.parentCallId ? 2 : 1, ledger_entry_id: e.id, created_at: at })
      .execute();
    return e;
  });
}

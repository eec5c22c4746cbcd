import { z } from 'zod';
import { CUSTOMER_LABELS } from '../../../core/ledger/payload.ts';
import { LEDGER_EVENT_TYPES, type LedgerFilters, type LedgerRow } from '../../../app/money/index.ts';
import type { LedgerEventType } from '../../../app/money/index.ts';
import { microsString, pageQuerySchema } from '../common.ts';
import { MAX_BIGINT } from '../../../app/shared/index.ts';

const byLabel = new Map<string, LedgerEventType>(Object.entries(CUSTOMER_LABELS).map(([code, label]) => [label.toLowerCase(), code as LedgerEventType]));

/** `type`: one or more (comma-separated) event types, by internal code or customer label. */
const typeFilter = z
  .string()
  .max(200)
  .transform((v, ctx) => {
    const out: LedgerEventType[] = [];
    for (const part of v.split(',').map((x) => x.trim()).filter(Boolean)) {
      const code = (LEDGER_EVENT_TYPES as readonly string[]).includes(part.toUpperCase())
        ? (part.toUpperCase() as LedgerEventType)
        : byLabel.get(part.toLowerCase());
      if (!code) {
        ctx.addIssue({ code: 'custom', message: `unknown type '${part}': use ${Object.values(CUSTOMER_LABELS).join(', ')}` });
        return z.NEVER;
      }
      out.push(code);
    }
    return out;
  });

const amount = z
  .string()
  .regex(/^\d{1,19}$/, 'must be a non-negative integer string of micros')
  .transform((v) => BigInt(v))
  .refine((v) => v <= MAX_BIGINT, `must be at most ${MAX_BIGINT} micros`);
const instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp' }).transform((v) => new Date(v));

export const ledgerQuery = pageQuerySchema
  .extend({
    type: typeFilter.optional(),
    projectId: z.uuid({ message: 'must be a UUID' }).optional(),
    from: instant.optional(),
    to: instant.optional(),
    minAmount: amount.optional(),
    maxAmount: amount.optional(),
  });

export const filtersOf = (q: z.infer<typeof ledgerQuery>): LedgerFilters => ({
  types: q.type,
  projectId: q.projectId,
  from: q.from,
  to: q.to,
  minAmount: q.minAmount,
  maxAmount: q.maxAmount,
});

/** Customer view (D8): customerLabel, and none of the internal columns. */
export const customerEntry = z.object({
  id: z.string(),
  tenantId: z.string(),
  projectId: z.string().nullable(),
  customerLabel: z.string(),
  amountMicros: microsString,
  balanceAfterMicros: microsString,
  runningBalanceMicros: microsString,
  benchmarkProvider: z.string().nullable(),
  callId: z.string().nullable(),
  memo: z.string().nullable(),
  sealHash: z.string(),
  prevHash: z.string(),
  createdAt: z.string(),
});

export const toCustomerEntry = (r: LedgerRow): z.infer<typeof customerEntry> => ({
  id: r.id,
  tenantId: r.tenantId,
  projectId: r.projectId,
  customerLabel: r.customerLabel,
  amountMicros: r.amountMicros.toString(),
  balanceAfterMicros: r.balanceAfterMicros.toString(),
  runningBalanceMicros: r.runningBalanceMicros.toString(),
  benchmarkProvider: r.benchmarkProvider,
  callId: r.callId,
  memo: r.memo,
  sealHash: r.sealHash,
  prevHash: r.prevHash,
  createdAt: r.createdAt,
});

/** Admin view (D8): every column. */
export const adminEntry = customerEntry.extend({
  seq: microsString,
  eventType: z.enum(LEDGER_EVENT_TYPES),
  modelId: z.string().nullable(),
  providerKey: z.string().nullable(),
  benchmarkMethodologyVersion: z.string().nullable(),
  actualCostUsdMicros: microsString.nullable(),
  baselineCostUsdMicros: microsString.nullable(),
  benchmarkPricingVersion: z.string().nullable(),
});

export const toAdminEntry = (r: LedgerRow): z.infer<typeof adminEntry> => ({
  ...toCustomerEntry(r),
  seq: r.seq.toString(),
  eventType: r.eventType,
  modelId: r.modelId,
  providerKey: r.providerKey,
  benchmarkMethodologyVersion: r.benchmarkMethodologyVersion,
  actualCostUsdMicros: r.actualCostUsdMicros === null ? null : r.actualCostUsdMicros.toString(),
  baselineCostUsdMicros: r.baselineCostUsdMicros === null ? null : r.baselineCostUsdMicros.toString(),
  benchmarkPricingVersion: r.benchmarkPricingVersion,
});

export const verdict = z.object({ verified: z.boolean(), firstBroken: z.string().nullable(), checked: z.number(), reason: z.string().nullable() });

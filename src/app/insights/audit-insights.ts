// The analytics Audit tab (spec §1 /analytics, §4 GET /api/tenant/insights/audit): decision
// summaries of the tenant's routing (classes, families, escalations, approved delivery paths —
// the Audit tab may show the delivery path, D8), the Layer 3 rule change log that explains why
// routing moved, reservations the sweeper released, and the log of data exports.
import type { Services } from '../shared/index.ts';
import { callSumsBy, liveAttemptCounts, pathSums } from '../money/index.ts';
import { recentExports, recentRuleChanges, sweptReservationCount } from './insights.repo.ts';

export const AUDIT_WINDOW_DAYS = 30;
const CHANGE_LOG_ROWS = 50;
const EXPORT_LOG_ROWS = 50;

export async function auditInsights(s: Services, tenantId: string) {
  const now = s.clock.now();
  // The last 30 calendar days (UTC), today included: whole days read from the rollups.
  const since = new Date(Math.floor(now.getTime() / 86_400_000) * 86_400_000 - (AUDIT_WINDOW_DAYS - 1) * 86_400_000);
  const n = (v: bigint | number | string) => Number(v);

  const until = new Date(now.getTime() + 1);
  const [{ none: all, class: byClassOk, family: byFamilyOk }, pathRows, live] = await Promise.all([
    callSumsBy(s.db, tenantId, since, until, ['none', 'class', 'family'] as const),
    pathSums(s.db, tenantId, since, until),
    liveAttemptCounts(s.db, tenantId, since, until),
  ]);
  // Succeeded calls from the rollups, failed attempts live (they have no ledger entry).
  const merge = (ok: typeof byClassOk, dim: 'key_class' | 'key_family') => {
    const m = new Map<string, { attempts: bigint; escalated: bigint }>();
    for (const r of ok) m.set(r.key, { attempts: r.attempts, escalated: r.escalated });
    for (const f of live.failed) {
      const k = f[dim];
      const cur = m.get(k) ?? { attempts: 0n, escalated: 0n };
      m.set(k, { attempts: cur.attempts + f.attempts, escalated: cur.escalated + f.escalated });
    }
    return [...m.entries()].filter(([k]) => k !== '').sort((a, b) => (b[1].attempts > a[1].attempts ? 1 : b[1].attempts < a[1].attempts ? -1 : a[0].localeCompare(b[0])));
  };
  const failedAttempts = live.failed.reduce((a, f) => a + f.attempts, 0n);
  const failedEscalated = live.failed.reduce((a, f) => a + f.escalated, 0n);
  const ok = all[0]!;
  const t = {
    calls: ok.firsts,
    attempts: ok.attempts + failedAttempts,
    escalated: ok.escalated + failedEscalated,
    failed: failedAttempts,
    scored: ok.attempts + failedAttempts - live.unscored,
    below: live.below,
  };
  const byClass = { rows: merge(byClassOk, 'key_class').map(([k, v]) => ({ model_class: k, attempts: v.attempts, escalated: v.escalated })) };
  const byFamily = { rows: merge(byFamilyOk, 'key_family').map(([k, v]) => ({ task_family: k, attempts: v.attempts, escalated: v.escalated })) };
  const paths = { rows: pathRows.slice(0, 20).map((r) => ({ provider_key: r.provider, model_id: r.model, region: r.region, attempts: r.attempts })) };
  const swept = await sweptReservationCount(s.db, tenantId, since);
  const changes = await recentRuleChanges(s.db, CHANGE_LOG_ROWS);
  const exports = await recentExports(s.db, tenantId, EXPORT_LOG_ROWS);

  return {
    windowDays: AUDIT_WINDOW_DAYS,
    decisions: {
      calls: n(t.calls),
      attempts: n(t.attempts),
      escalatedAttempts: n(t.escalated),
      failedAttempts: n(t.failed),
      scoredAttempts: n(t.scored),
      belowFloorAttempts: n(t.below),
      sweptReservations: n(swept),
      byModelClass: byClass.rows.map((r) => ({ modelClass: r.model_class, attempts: n(r.attempts), escalated: n(r.escalated) })),
      byTaskFamily: byFamily.rows.map((r) => ({ taskFamily: r.task_family, attempts: n(r.attempts), escalated: n(r.escalated) })),
      deliveryPaths: paths.rows.map((r) => ({ provider: r.provider_key, model: r.model_id, region: r.region, attempts: n(r.attempts) })),
    },
    changeLog: changes.map((c) => {
      const rule = c.rule as { kind?: string; taskFamily?: string; modelClass?: string; endpoint?: string | null; expiresAtMs?: number };
      return {
        at: c.created_at.toISOString(),
        rulesetVersion: c.ruleset_version.toString(),
        change: c.change,
        ruleId: c.rule_id,
        kind: rule.kind ?? null,
        taskFamily: rule.taskFamily ?? null,
        modelClass: rule.modelClass ?? null,
        endpoint: rule.endpoint ?? null,
        expiresAt: typeof rule.expiresAtMs === 'number' ? new Date(rule.expiresAtMs).toISOString() : null,
        reason: c.reason,
      };
    }),
    exportLog: exports.map((e) => ({
      id: e.id,
      userId: e.user_id,
      kind: e.kind,
      filters: e.filters as Record<string, unknown>,
      rows: e.row_count,
      at: e.created_at.toISOString(),
    })),
  };
}

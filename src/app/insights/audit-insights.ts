// The analytics Audit tab (spec §1 /analytics, §4 GET /api/tenant/insights/audit): decision
// summaries of the tenant's routing (classes, families, escalations, approved delivery paths —
// the Audit tab may show the delivery path, D8), the Layer 3 rule change log that explains why
// routing moved, reservations the sweeper released, and the log of data exports.
import { sql } from 'kysely';
import type { Services } from '../shared/services.ts';

export const AUDIT_WINDOW_DAYS = 30;
const CHANGE_LOG_ROWS = 50;
const EXPORT_LOG_ROWS = 50;

export async function auditInsights(s: Services, tenantId: string) {
  const now = s.clock.now();
  const since = new Date(now.getTime() - AUDIT_WINDOW_DAYS * 86_400_000);
  const n = (v: bigint | number | string) => Number(v);

  const totals = await sql<{ calls: bigint; attempts: bigint; escalated: bigint; failed: bigint; scored: bigint; below: bigint }>`
    select count(*) filter (where parent_call_id is null and status = 'succeeded') as calls,
           count(*) as attempts,
           count(*) filter (where escalated) as escalated,
           count(*) filter (where status = 'failed') as failed,
           count(*) filter (where qa is not null) as scored,
           count(*) filter (where (qa->>'belowFloor')::boolean) as below
      from call_logs where tenant_id = ${tenantId} and created_at >= ${since}`.execute(s.db);
  const byClass = await sql<{ model_class: string; attempts: bigint; escalated: bigint }>`
    select model_class, count(*) as attempts, count(*) filter (where escalated) as escalated
      from call_logs where tenant_id = ${tenantId} and created_at >= ${since} and model_class is not null
     group by 1 order by 2 desc`.execute(s.db);
  const byFamily = await sql<{ task_family: string; attempts: bigint; escalated: bigint }>`
    select task_family, count(*) as attempts, count(*) filter (where escalated) as escalated
      from call_logs where tenant_id = ${tenantId} and created_at >= ${since} and task_family is not null
     group by 1 order by 2 desc`.execute(s.db);
  const paths = await sql<{ provider_key: string; model_id: string; region: string; attempts: bigint }>`
    select provider_key, model_id, region, count(*) as attempts
      from call_logs where tenant_id = ${tenantId} and created_at >= ${since} and status = 'succeeded' and provider_key is not null
     group by 1, 2, 3 order by 4 desc limit 20`.execute(s.db);
  const swept = await sql<{ swept: bigint }>`
    select count(*) as swept from reservations where tenant_id = ${tenantId} and swept_at >= ${since}`.execute(s.db);
  const changes = await s.db
    .selectFrom('layer3_rule_changes as c')
    .innerJoin('layer3_rulesets as r', 'r.version', 'c.ruleset_version')
    .select(['c.ruleset_version', 'c.change', 'c.rule_id', 'c.rule', 'c.reason', 'c.created_at'])
    .orderBy('c.id', 'desc')
    .limit(CHANGE_LOG_ROWS)
    .execute();
  const exports = await s.db
    .selectFrom('export_log')
    .select(['id', 'user_id', 'kind', 'filters', 'row_count', 'created_at'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at', 'desc')
    .limit(EXPORT_LOG_ROWS)
    .execute();

  const t = totals.rows[0];
  return {
    windowDays: AUDIT_WINDOW_DAYS,
    decisions: {
      calls: n(t.calls),
      attempts: n(t.attempts),
      escalatedAttempts: n(t.escalated),
      failedAttempts: n(t.failed),
      scoredAttempts: n(t.scored),
      belowFloorAttempts: n(t.below),
      sweptReservations: n(swept.rows[0].swept),
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

// Layer 3 feedback (D5, D12): derive suppression and escalation rules from the QA outcomes of the
// last window, store each new rule set as a version with an append-only change log, and serve the
// rules in force to Layers 1 and 2 from memory (refreshed in the background, never on the hot path).
import type { Services } from '../../shared/index.ts';
import { deriveRules, type ScoreStats } from '../../../core/quality/derive-rules.ts';
import { LAYER3_RULES_VERSION, isRuleActive, type Layer3Rule } from '../../../core/routing/rules.ts';
import { isModelClass } from '../../../core/model-class.ts';
import { isTaskFamily } from '../../../core/routing/vocabulary.ts';
import { insertRuleChanges, insertRuleset, latestRuleset, lockDerivation, scoreStatsSince } from './quality.repo.ts';

/** Outcomes over this window feed each derivation. */
export const STATS_WINDOW_MS = 24 * 60 * 60 * 1000;
/** How often a replica re-reads the rule set in force. */
export const RULES_REFRESH_MS = 5_000;

export class RulesCache {
  private rules: readonly Layer3Rule[] = [];
  private version = 0n;
  private timer: NodeJS.Timeout | null = null;

  constructor(private s: Pick<Services, 'db' | 'clock' | 'log'>) {}

  /** The rules in force now (expired ones are filtered by the routing layers themselves). */
  current = (): readonly Layer3Rule[] => this.rules;
  get currentVersion(): bigint {
    return this.version;
  }

  async refresh(): Promise<void> {
    const row = await latestRuleset(this.s.db);
    if (!row || row.version === this.version) return;
    this.version = row.version;
    this.rules = (row.rules as Layer3Rule[]).filter((r) => r.version === LAYER3_RULES_VERSION);
  }

  start(): void {
    this.timer = setInterval(() => this.refresh().catch((e) => this.s.log.warn(e, 'layer 3 rules refresh failed')), RULES_REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}

/** QA outcomes per (family, class, endpoint) over the window, from the scored call-log rows. */
export async function loadScoreStats(s: Services, now: Date): Promise<{ stats: ScoreStats[]; calls: number }> {
  const since = new Date(now.getTime() - STATS_WINDOW_MS);
  const rows = await scoreStatsSince(s.db, since);
  const stats: ScoreStats[] = [];
  let calls = 0;
  for (const r of rows) {
    if (!isTaskFamily(r.task_family) || !isModelClass(r.model_class)) continue;
    // Counts, not money: a window's attempts fit a number comfortably.
    const attempts = Number(r.attempts);
    calls += attempts;
    stats.push({ taskFamily: r.task_family, modelClass: r.model_class, endpoint: r.endpoint, attempts, belowFloor: Number(r.below), escalations: Number(r.escalations) });
  }
  return { stats, calls };
}

/**
 * One derivation run: read the outcomes, derive, and when anything changed write the new rule set
 * as the next version with one change-log row per added, removed or renewed rule. Serialised by an
 * advisory lock so two workers never mint the same version.
 */
export async function deriveAndStore(s: Services): Promise<{ version: bigint; added: number; removed: number; renewed: number } | null> {
  const now = s.clock.now();
  const { stats, calls } = await loadScoreStats(s, now);
  return s.db.transaction().execute(async (tx) => {
    await lockDerivation(tx);
    const prev = await latestRuleset(tx);
    const previous = (prev?.rules as Layer3Rule[] | undefined) ?? [];
    const d = deriveRules(stats, now.getTime(), previous);
    if (d.added.length === 0 && d.removed.length === 0 && d.renewed.length === 0) return null;
    const version = (prev?.version ?? 0n) + 1n;
    await insertRuleset(tx, { version, rulesJson: JSON.stringify(d.rules), rulesVersion: d.version, statsWindowMs: BigInt(STATS_WINDOW_MS), callsConsidered: BigInt(calls), at: now });
    const changes = [
      ...d.added.map((r) => ({ change: 'added' as const, r })),
      ...d.removed.map((r) => ({ change: 'removed' as const, r })),
      ...d.renewed.map((r) => ({ change: 'renewed' as const, r })),
    ];
    await insertRuleChanges(tx, version, changes.map(({ change, r }) => ({ change, ruleId: r.id, ruleJson: JSON.stringify(r), reason: r.reason })), now);
    return { version, added: d.added.length, removed: d.removed.length, renewed: d.renewed.length };
  });
}

export const activeRules = (rules: readonly Layer3Rule[], now: number) => rules.filter((r) => isRuleActive(r, now));

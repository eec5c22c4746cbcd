// Layer 3 rule derivation (spec §1 routing engine, D5): from aggregated QA outcomes over a window,
// mint the suppression and escalation rules that Layers 1 and 2 consume. Pure: the caller reads
// the statistics, passes the clock and the rules currently in force, and writes back the result
// together with the diff as a versioned audit row.
//
// Policy, all thresholds named below:
//  - endpoint suppression: one endpoint keeps failing the floor for a family (enough samples,
//    failure share at or above the threshold) → skip that endpoint for that family for a while;
//  - class suppression: the class keeps failing for a family across its other endpoints too →
//    skip the whole class (Layer 1 climbs a rung). Never the top class: there is nothing above it;
//  - escalation: a family escalates often → it starts one rung higher for a while;
//  - a rule whose condition still holds is renewed (same id, later expiry); a rule whose
//    condition no longer holds is left to expire, so rules do not flap on one quiet window;
//  - expired rules, and rules of another rule-set version, are dropped and reported as removed.
import { MODEL_CLASSES, type ModelClass } from '../model-class.ts';
import {
  LAYER3_RULES_VERSION,
  escalationRuleId,
  isRuleActive,
  suppressionRuleId,
  type EscalationRule,
  type Layer3Rule,
} from '../routing/rules.ts';
import type { TaskFamily } from '../routing/vocabulary.ts';

/** Outcomes of one (task family, model class, endpoint) over the window. */
export interface ScoreStats {
  taskFamily: TaskFamily;
  modelClass: ModelClass;
  /** endpointKey() of the endpoint that served the attempts. */
  endpoint: string;
  /** Scored attempts. */
  attempts: number;
  /** Attempts whose overall score was below the project's floor or whose risk exceeded 0.5. */
  belowFloor: number;
  /** Attempts that were escalated away from (a higher rung was tried after them). */
  escalations: number;
}

export const ENDPOINT_SUPPRESS_MIN_SAMPLES = 20;
export const CLASS_SUPPRESS_MIN_SAMPLES = 30;
/** Share of attempts below the floor at or above which an endpoint or class is suppressed. */
export const SUPPRESS_FAILURE_RATE = 0.3;
/** Calls (not attempts) a family needs in the window before its escalation rate counts. */
export const ESCALATE_MIN_SAMPLES = 50;
/** Share of calls escalated at or above which a family starts one rung higher. */
export const ESCALATE_RATE = 0.25;
export const SUPPRESSION_TTL_MS = 24 * 60 * 60 * 1000;
export const ESCALATION_TTL_MS = 24 * 60 * 60 * 1000;

export interface RuleDerivation {
  version: typeof LAYER3_RULES_VERSION;
  /** Every rule in force after this run, sorted by id. */
  rules: Layer3Rule[];
  /** Rules that did not exist (or had expired) before. */
  added: Layer3Rule[];
  /** Rules from `previousRules` that are no longer in force. */
  removed: Layer3Rule[];
  /** Rules whose condition held again: same id, expiry pushed out. */
  renewed: Layer3Rule[];
}

interface Tally {
  attempts: number;
  belowFloor: number;
  escalations: number;
}

const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)}%`;

export function deriveRules(stats: readonly ScoreStats[], now: number, previousRules: readonly Layer3Rule[]): RuleDerivation {
  const minted = new Map<string, Layer3Rule>();
  const mint = (rule: Layer3Rule) => minted.set(rule.id, rule);

  // Rows for the same subject are summed first, so callers may pass per-tenant or per-day rows.
  const byEndpoint = new Map<string, ScoreStats>();
  const byFamily = new Map<TaskFamily, Tally>();
  for (const s of stats) {
    const key = `${s.taskFamily}|${s.modelClass}|${s.endpoint}`;
    const e = byEndpoint.get(key) ?? { ...s, attempts: 0, belowFloor: 0, escalations: 0 };
    e.attempts += s.attempts;
    e.belowFloor += s.belowFloor;
    e.escalations += s.escalations;
    byEndpoint.set(key, e);
    const f = byFamily.get(s.taskFamily) ?? { attempts: 0, belowFloor: 0, escalations: 0 };
    f.attempts += s.attempts;
    f.belowFloor += s.belowFloor;
    f.escalations += s.escalations;
    byFamily.set(s.taskFamily, f);
  }

  // Endpoint suppressions; the class tally keeps only the endpoints not suppressed on their own,
  // so one bad endpoint does not take its whole class down with it.
  const byClass = new Map<string, { family: TaskFamily; modelClass: ModelClass; rest: Tally }>();
  for (const e of byEndpoint.values()) {
    const classKey = `${e.taskFamily}|${e.modelClass}`;
    const cls = byClass.get(classKey) ?? { family: e.taskFamily, modelClass: e.modelClass, rest: { attempts: 0, belowFloor: 0, escalations: 0 } };
    byClass.set(classKey, cls);
    if (e.attempts >= ENDPOINT_SUPPRESS_MIN_SAMPLES && e.belowFloor / e.attempts >= SUPPRESS_FAILURE_RATE) {
      mint({
        id: suppressionRuleId(e.taskFamily, e.modelClass, e.endpoint),
        version: LAYER3_RULES_VERSION,
        kind: 'suppress',
        taskFamily: e.taskFamily,
        modelClass: e.modelClass,
        endpoint: e.endpoint,
        createdAtMs: now,
        expiresAtMs: now + SUPPRESSION_TTL_MS,
        reason: `${e.belowFloor}/${e.attempts} (${pct(e.belowFloor, e.attempts)}) below floor on ${e.endpoint} for ${e.taskFamily}`,
      });
    } else {
      cls.rest.attempts += e.attempts;
      cls.rest.belowFloor += e.belowFloor;
    }
  }

  // Class suppressions, never for the top class.
  const top = MODEL_CLASSES[MODEL_CLASSES.length - 1];
  for (const { family, modelClass, rest } of byClass.values()) {
    if (modelClass === top) continue;
    if (rest.attempts >= CLASS_SUPPRESS_MIN_SAMPLES && rest.belowFloor / rest.attempts >= SUPPRESS_FAILURE_RATE) {
      mint({
        id: suppressionRuleId(family, modelClass, null),
        version: LAYER3_RULES_VERSION,
        kind: 'suppress',
        taskFamily: family,
        modelClass,
        endpoint: null,
        createdAtMs: now,
        expiresAtMs: now + SUPPRESSION_TTL_MS,
        reason: `${rest.belowFloor}/${rest.attempts} (${pct(rest.belowFloor, rest.attempts)}) below floor in class ${modelClass} for ${family}`,
      });
    }
  }

  // Escalations, per call: every escalation adds one attempt, so calls = attempts − escalations.
  // (Dividing by attempts would cap a family where every call escalates once at 50 %.)
  for (const [family, t] of byFamily) {
    const calls = t.attempts - t.escalations;
    if (calls >= ESCALATE_MIN_SAMPLES && t.escalations / calls >= ESCALATE_RATE) {
      const rule: EscalationRule = {
        id: escalationRuleId(family),
        version: LAYER3_RULES_VERSION,
        kind: 'escalate',
        rungs: 1,
        taskFamily: family,
        createdAtMs: now,
        expiresAtMs: now + ESCALATION_TTL_MS,
        reason: `${t.escalations}/${calls} (${pct(t.escalations, calls)}) calls escalated for ${family}`,
      };
      mint(rule);
    }
  }

  // Merge with the rules in force.
  const result = new Map<string, Layer3Rule>();
  const added: Layer3Rule[] = [];
  const removed: Layer3Rule[] = [];
  const renewed: Layer3Rule[] = [];
  const previousActive = new Map<string, Layer3Rule>();
  for (const r of previousRules) {
    if (r.version === LAYER3_RULES_VERSION && isRuleActive(r, now)) previousActive.set(r.id, r);
    else removed.push(r);
  }
  for (const [id, rule] of minted) {
    const prior = previousActive.get(id);
    if (prior) {
      const kept = { ...rule, createdAtMs: prior.createdAtMs } as Layer3Rule;
      result.set(id, kept);
      renewed.push(kept);
    } else {
      result.set(id, rule);
      added.push(rule);
    }
  }
  for (const [id, prior] of previousActive) if (!result.has(id)) result.set(id, prior);

  const byId = (a: Layer3Rule, b: Layer3Rule) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  return {
    version: LAYER3_RULES_VERSION,
    rules: [...result.values()].sort(byId),
    added: added.sort(byId),
    removed: removed.sort(byId),
    renewed: renewed.sort(byId),
  };
}

// Layer 3 feedback rules (spec §1 routing engine, D5, D12): what asynchronous QA scores feed back
// into Layers 1 and 2. Rules are data with an id derived from their subject, so a rule set can be
// diffed and written to a versioned audit trail, and a rule for the same subject is renewed
// rather than duplicated. Times are epoch milliseconds, supplied by the caller (the core has no clock).
import type { ModelClass } from '../model-class.ts';
import type { ProviderKey } from '../providers.ts';
import type { TaskFamily } from './vocabulary.ts';

export const LAYER3_RULES_VERSION = 'l3r-v1';

/** One compute endpoint: a provider's model served from one region. */
export interface EndpointRef {
  provider: ProviderKey;
  model: string;
  region: string;
}

/** Stable string key of an endpoint, used in rules, health maps and logs. */
export const endpointKey = (e: EndpointRef): string => `${e.provider}/${e.model}@${e.region}`;

interface RuleCommon {
  id: string;
  version: typeof LAYER3_RULES_VERSION;
  taskFamily: TaskFamily;
  createdAtMs: number;
  /** The rule stops applying at this instant (exclusive). */
  expiresAtMs: number;
  /** Human-readable evidence for the audit trail. */
  reason: string;
}

/** "Family F starts one rung higher" (Layer 1). */
export interface EscalationRule extends RuleCommon {
  kind: 'escalate';
  rungs: 1;
}

/**
 * "Class C (endpoint null) or endpoint E of class C is skipped for family F until expiresAt".
 * A class-wide rule moves Layer 1 up a rung; an endpoint rule only drops that endpoint in Layer 2.
 */
export interface SuppressionRule extends RuleCommon {
  kind: 'suppress';
  modelClass: ModelClass;
  endpoint: string | null;
}

export type Layer3Rule = EscalationRule | SuppressionRule;

export const escalationRuleId = (family: TaskFamily): string => `escalate:${family}`;
export const suppressionRuleId = (family: TaskFamily, modelClass: ModelClass, endpoint: string | null): string =>
  `suppress:${family}:${modelClass}:${endpoint ?? '*'}`;

/**
 * In force at `now`. A rule of another rule-set version is never in force: this code does not
 * know what it means, and guessing would route on a misread rule.
 */
export const isRuleActive = (rule: Layer3Rule, now: number): boolean =>
  rule.version === LAYER3_RULES_VERSION && now < rule.expiresAtMs;

/** Active escalation rule for a family, if any. */
export function activeEscalation(rules: readonly Layer3Rule[], family: TaskFamily, now: number): EscalationRule | undefined {
  for (const r of rules) if (r.kind === 'escalate' && r.taskFamily === family && isRuleActive(r, now)) return r;
  return undefined;
}

/** Active class-wide suppression of `modelClass` for a family, if any. */
export function activeClassSuppression(
  rules: readonly Layer3Rule[],
  family: TaskFamily,
  modelClass: ModelClass,
  now: number,
): SuppressionRule | undefined {
  for (const r of rules) {
    if (r.kind === 'suppress' && r.endpoint === null && r.taskFamily === family && r.modelClass === modelClass && isRuleActive(r, now)) {
      return r;
    }
  }
  return undefined;
}

/** Active suppression of one endpoint for a family, if any. */
export function activeEndpointSuppression(
  rules: readonly Layer3Rule[],
  family: TaskFamily,
  key: string,
  now: number,
): SuppressionRule | undefined {
  for (const r of rules) {
    if (r.kind === 'suppress' && r.endpoint === key && r.taskFamily === family && isRuleActive(r, now)) return r;
  }
  return undefined;
}

// Layer 1 (D12): a pure, deterministic decision of the model class from the request, the
// project's quality floor and the active Layer 3 rules. The decision, the table version and the
// features are recorded on the call-log row, so every routing choice can be explained later.
import type { CanonicalRequest } from '../canonical/types.ts';
import { nextRung, climb, type ModelClass } from '../model-class.ts';
import { classify, type Features } from './classify.ts';
import { ROUTING_TABLE_VERSION, tableClass } from './routing-table.ts';
import { activeClassSuppression, activeEscalation, type Layer3Rule } from './rules.ts';
import type { Complexity, TaskFamily } from './vocabulary.ts';

export interface Layer1Decision {
  taskFamily: TaskFamily;
  complexity: Complexity;
  modelClass: ModelClass;
  tableVersion: string;
  features: Features;
  /** Ids of the Layer 3 rules that changed the class, in the order applied. */
  appliedRules: string[];
}

/** Rules expire, so they need the caller's clock; without rules no time is needed. */
export type Layer1Options =
  | { qualityFloor: number; rules?: undefined; now?: number }
  | { qualityFloor: number; rules: readonly Layer3Rule[]; now: number };

export function decideLayer1(req: CanonicalRequest, options: Layer1Options): Layer1Decision {
  const { taskFamily, complexity, features } = classify(req);
  let modelClass = tableClass(taskFamily, complexity, options.qualityFloor);
  const appliedRules: string[] = [];

  if (options.rules && options.rules.length > 0) {
    const { rules, now } = options;
    // At most one rung from escalation rules, whatever their number (rule type says "one rung").
    const escalation = activeEscalation(rules, taskFamily, now);
    if (escalation) {
      const raised = climb(modelClass, escalation.rungs);
      if (raised !== modelClass) {
        modelClass = raised;
        appliedRules.push(escalation.id);
      }
    }
    // A class suppressed for this family is skipped upward. The top rung is never skipped: with
    // nowhere left to climb, serving frontier beats refusing the call (deriveRules never mints it).
    for (;;) {
      const suppression = activeClassSuppression(rules, taskFamily, modelClass, now);
      const up = nextRung(modelClass);
      if (!suppression || up === null) break;
      appliedRules.push(suppression.id);
      modelClass = up;
    }
  }

  return { taskFamily, complexity, modelClass, tableVersion: ROUTING_TABLE_VERSION, features, appliedRules };
}

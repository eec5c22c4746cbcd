// What other domains do inside a settlement's transaction, named as data. A settlement plan
// (money/settlement-plan.ts) carries these; the settlement hands them, in its own transaction, to
// the one writer it was built with (calls/follow-ups.ts), and never calls into projects, stages,
// notifications or events itself. Rows every settlement writes (the `llm.call` event) are not
// follow-ups: they are plain rows of the plan, written by the settlement's own statement.
import type { Tx } from '../../store/db.ts';
import type { ModelClass } from '../../core/model-class.ts';
import type { Stage } from '../../core/stage.ts';
import type { Services } from './services.ts';

export type SettlementFollowUp =
  /** The billed call may move its project's stage (to live): stage.changed event with it. */
  | { kind: 'stage.billed_call'; projectId: string }
  /** The attempt scored below the floor and the next rung is tried: routing.escalated and its alerts. */
  | {
      kind: 'routing.escalated';
      tenantId: string;
      projectId: string;
      payload: { callId: string; fromClass: ModelClass; toClass: ModelClass; attempt: number; reason: string; qualityScore: number | null };
    };

/** What the follow-ups changed that the caller keeps in memory after the commit. */
export interface FollowUpResult {
  /** The project's new stage, when a `stage.billed_call` moved it. */
  projectStage: Stage | null;
}

/** Writes a settlement's follow-ups inside its transaction (`at`: the settlement's time). */
export type FollowUpWriter = (s: Services, tx: Tx, followUps: readonly SettlementFollowUp[], at: Date) => Promise<FollowUpResult>;

// The one writer of a settlement's follow-ups (shared/follow-ups.ts), inside its transaction: the
// settlement (money/) hands it the plan's follow-ups as data and never calls into projects or
// events itself. Wired into the settler at start-up (runtime.ts).
import type { FollowUpResult, FollowUpWriter } from '../shared/index.ts';
import { advanceStage } from '../projects/index.ts';
import { emitRoutingEscalated } from '../events/index.ts';

export const writeFollowUps: FollowUpWriter = async (s, tx, followUps, at) => {
  const result: FollowUpResult = { projectStage: null };
  for (const f of followUps) {
    if (f.kind === 'stage.billed_call') {
      const moved = await advanceStage(s, tx, f.projectId, 'billed_call', { at });
      if (moved) result.projectStage = moved.to;
    } else {
      await emitRoutingEscalated(s, tx, { tenantId: f.tenantId, projectId: f.projectId, at, payload: f.payload });
    }
  }
  return result;
};

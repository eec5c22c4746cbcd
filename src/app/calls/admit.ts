// Stage 5 of a call attempt (pipeline.ts): admission. The attempt's worst case is reserved (D8)
// against this replica's admission lease for the project (money/admission.ts): no database round
// trip unless the lease must be renewed. A refusal pauses the project or notes the spent budget
// (D4), off the answer's path, and says where to act (issue 14).
import type { Services } from '../shared/index.ts';
import type { CanonicalRequest } from '../../core/canonical/types.ts';
import { AppError, appError } from '../../core/errors.ts';
import { monthSpentMicros, type Reservation } from '../money/index.ts';
import { budgetExhausted, walletExhausted } from '../projects/index.ts';
import type { CallContext } from './context.ts';
import type { Route } from './route.ts';
import { explainRefusal } from './affordability.ts';

export type { Reservation } from '../money/index.ts';

export async function admit(s: Services, ctx: CallContext, callId: string, route: Route, call: CanonicalRequest): Promise<Reservation> {
  const amountMicros = route.worstMicros;
  try {
    const admitted = await s.admission.admit(ctx.tenantId, ctx.projectId, amountMicros);
    return { id: callId, tenantId: ctx.tenantId, projectId: ctx.projectId, amountMicros, createdAt: s.clock.now(), admitted };
  } catch (e) {
    throw await refusal(s, ctx, route, call, e);
  }
}

async function refusal(s: Services, ctx: CallContext, route: Route, call: CanonicalRequest, e: unknown): Promise<unknown> {
  let err = e;
  if (e instanceof AppError && e.code === 'insufficient_balance') {
    walletExhausted(s, null, ctx.tenantId).catch((x) => s.log.warn(x, 'wallet-exhausted stage move failed'));
    err = appError('insufficient_balance', `The wallet balance cannot cover this call. Top up at ${s.publicUrl}/billing (or turn on auto top-up there), then retry.`);
  } else if (e instanceof AppError && e.code === 'budget_exceeded') {
    if (ctx.monthlyBudgetMicros !== null) noteBudgetExhausted(s, ctx).catch((x) => s.log.warn(x, 'budget-exhausted event failed'));
    err = appError('budget_exceeded', `The project's monthly budget cannot cover this call. Raise it at ${s.publicUrl}/smartone, or wait for the next month.`);
  }
  // A refusal because of the output cap says how many output tokens the wallet affords (D19).
  if (!route.dearest) return err;
  return explainRefusal(s, err, { tenantId: ctx.tenantId, call, modelClass: route.modelClass, endpoint: route.dearest, inputTokens: route.inputTokens, worst: route.worstMicros });
}

async function noteBudgetExhausted(s: Services, ctx: CallContext): Promise<void> {
  const now = s.clock.now();
  const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const spentMicros = await monthSpentMicros(s.db, ctx.projectId, new Date(`${month}-01T00:00:00Z`));
  await budgetExhausted(s, null, { tenantId: ctx.tenantId, projectId: ctx.projectId, monthlyBudgetMicros: ctx.monthlyBudgetMicros!, spentMicros, month });
}

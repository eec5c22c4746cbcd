// Which events become desktop notifications (D14), and their words. Pure: event frame in,
// notification (or nothing) out. Amounts are wallet tokens (1 token = 1 USD micro, D1).
import { tokens } from '../mcp/server.ts';

export interface Frame {
  type: string;
  projectId: string;
  tenantId: string;
  at: string;
  payload: Record<string, unknown>;
}
export interface Alert {
  summary: string;
  body: string;
  urgency: 'normal' | 'critical';
}

export const ALERT_TYPES = ['wallet.threshold', 'runway.threshold', 'budget.exhausted', 'routing.escalated'] as const;

export function alertFor(f: Frame, ctx: { userId: string; baseUrl: string; projectName: string }): Alert | null {
  const p = f.payload;
  switch (f.type) {
    case 'wallet.threshold':
      // Thresholds are each user's own (notification settings): only mine reach my desktop.
      if (p.userId !== ctx.userId) return null;
      return { summary: 'Switchboard: wallet balance low', body: `Balance ${tokens(String(p.balance))}, below your alert at ${tokens(String(p.threshold))}. Top up at ${ctx.baseUrl}/billing`, urgency: 'critical' };
    case 'runway.threshold':
      if (p.userId !== ctx.userId) return null;
      return { summary: 'Switchboard: runway short', body: `About ${p.runway} days of balance left at the current rate (your alert: ${p.thresholdDays} days). Top up at ${ctx.baseUrl}/billing`, urgency: 'critical' };
    case 'budget.exhausted':
      return { summary: `Switchboard: ${ctx.projectName} budget used up`, body: `${tokens(String(p.spentMicros))} of the ${p.month} budget of ${tokens(String(p.monthlyBudgetMicros))} is spent; its calls are paused. Raise the budget at ${ctx.baseUrl}/smartone`, urgency: 'critical' };
    case 'routing.escalated':
      return { summary: `Switchboard: a call in ${ctx.projectName} was escalated`, body: `An answer scored below the quality floor, so the call was retried on the ${p.toClass} class (from ${p.fromClass}).`, urgency: 'normal' };
    default:
      return null;
  }
}

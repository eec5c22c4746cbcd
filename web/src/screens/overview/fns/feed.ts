// Which live events change what /overview shows (D10 event types), and how a feed row reads.
import type { ActivityItem } from '../../../api/types.ts';
import { formatTokens } from '../../../components/fns/money.ts';

/** Events after which the tiles, chart or feed may have changed. */
export const REFRESHING_EVENTS = new Set(['llm.call', 'routing.escalated', 'wallet.topup', 'wallet.threshold', 'runway.threshold', 'budget.exhausted']);

/** The one-line detail of a feed row, in customer copy: no model id (vocabulary rule 1). */
export function feedDetail(i: ActivityItem): string {
  if (i.kind === 'alert' && i.threshold) {
    return i.threshold.kind === 'balance'
      ? `balance ${formatTokens(i.amountMicros ?? '0')} tokens, alert below ${formatTokens(i.threshold.thresholdMicros ?? '0')}`
      : `runway ${i.threshold.runwayDays} days, alert below ${i.threshold.thresholdDays} days`;
  }
  if (i.kind === 'wallet') {
    const a = i.amountMicros ?? '0';
    return `${BigInt(a) >= 0n ? '+' : ''}${formatTokens(a)} tokens`;
  }
  const parts = [`${formatTokens(i.serviceBurnMicros ?? '0')} tokens`];
  if (i.tokensSaved !== null) parts.push(`${formatTokens(i.tokensSaved)} saved`);
  if (i.projectName) parts.push(i.projectName);
  if (i.modelClass) parts.push(`${i.modelClass} class`);
  parts.push(`via ${i.channel}`);
  return parts.join(' · ');
}

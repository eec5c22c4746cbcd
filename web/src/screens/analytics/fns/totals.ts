// A savings series' totals over its window, summed as BigInt from the integer strings.
import type { SavingsSeries } from '../../../api/types.ts';

export function savingsTotals(s: Pick<SavingsSeries, 'series'>): { burn: string; equivalent: string | null; saved: string | null } {
  let burn = 0n;
  let eq = 0n;
  let hasEq = false;
  for (const d of s.series) {
    burn += BigInt(d.serviceBurnMicros);
    if (d.equivalentBurnMicros !== null) {
      hasEq = true;
      eq += BigInt(d.equivalentBurnMicros);
    }
  }
  return { burn: burn.toString(), equivalent: hasEq ? eq.toString() : null, saved: hasEq ? (eq - burn).toString() : null };
}

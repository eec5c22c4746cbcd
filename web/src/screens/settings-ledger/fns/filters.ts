// The ledger screen's filter form to the API's query (D9): dates are the reader's local days,
// amounts are whole tokens typed by a person (absolute values, as the API filters them).

export interface LedgerFilterForm {
  type: string;
  projectId: string;
  from: string; // yyyy-mm-dd
  to: string; // yyyy-mm-dd
  minAmount: string;
  maxAmount: string;
}

export const EMPTY_FILTERS: LedgerFilterForm = { type: '', projectId: '', from: '', to: '', minAmount: '', maxAmount: '' };

const tokens = (v: string) => v.trim().replace(/[,\s]/g, '');

/** Local midnight at the start of `day`, or of the day after it (`endOfDay`), as ISO 8601. */
export function dayBoundary(day: string, endOfDay: boolean): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + (endOfDay ? 1 : 0)).toISOString();
}

export function toQuery(f: LedgerFilterForm): Record<string, string | undefined> {
  return {
    type: f.type || undefined,
    projectId: f.projectId || undefined,
    from: f.from ? dayBoundary(f.from, false) : undefined,
    // The API's `to` is inclusive; the end of the chosen day is the start of the next minus nothing
    // worth a ledger row (1 ms).
    to: f.to ? new Date(new Date(dayBoundary(f.to, true)).getTime() - 1).toISOString() : undefined,
    minAmount: tokens(f.minAmount) || undefined,
    maxAmount: tokens(f.maxAmount) || undefined,
  };
}

// /admin/learning/budget, pure: per-window rows, the current window's edit form, the audit trail.
import { formatCostUsd, formatUsd } from '../../components/fns/money.ts';
import { Button, Card, Field, LoadMore, Notice } from '../../components/ui.tsx';

export interface BudgetRow { id: string; category: string; windowKey: string; budgetMicros: string; spentMicros: string; availableMicros: string }
export interface BudgetChange { id: string; budgetId: string; previousBudgetMicros: string; budgetMicros: string; changedByUserId: string; createdAt: string }
export interface BudgetData { items: BudgetRow[]; changes: BudgetChange[] }

export function BudgetView(p: {
  data: BudgetData;
  more: { hasMore: boolean; loading: boolean; onMore: () => void };
  currentWindow: string;
  drafts: Record<string, string>;
  onDraft: (id: string, v: string) => void;
  onSave: (id: string) => void;
  saving: boolean;
  error: string;
  saved: boolean;
}) {
  const rows = new Map(p.data.items.map((r) => [r.id, r]));
  return (
    <div className="stack">
      <h1>Learning-plane budget</h1>
      <Notice kind="error">{p.error}</Notice>
      {p.saved && !p.error ? <Notice kind="success">Budget saved.</Notice> : null}
      <Card title="Budgets per month">
        <table className="table" aria-label="Budgets">
          <thead>
            <tr>
              <th>Month</th>
              <th>Category</th>
              <th className="num">Budget</th>
              <th className="num">Spent</th>
              <th className="num">Available</th>
            </tr>
          </thead>
          <tbody>
            {p.data.items.map((r) => (
              <tr key={r.id}>
                <td>{r.windowKey}</td>
                <td>{r.category}</td>
                <td className="num">{formatUsd(r.budgetMicros)}</td>
                <td className="num">{formatCostUsd(r.spentMicros)}</td>
                <td className="num">{formatUsd(r.availableMicros)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <LoadMore shown={p.data.items.length} what="budget rows" {...p.more} />
      </Card>
      {p.data.items
        .filter((r) => r.windowKey === p.currentWindow)
        .map((r) => (
          <Card key={r.id} title={`Set the ${r.category} budget for ${r.windowKey}`}>
            <form
              onSubmit={(e) => {
                e.preventDefault();
                p.onSave(r.id);
              }}
            >
              <Field
                label={`New ${r.category} budget (USD)`}
                name={`budget-${r.category}`}
                value={p.drafts[r.id] ?? ''}
                onChange={(v) => p.onDraft(r.id, v)}
                inputMode="decimal"
                description={`Now ${formatUsd(r.budgetMicros)}, ${formatCostUsd(r.spentMicros)} spent`}
              />
              <Button type="submit" isDisabled={p.saving}>
                Save {r.category} budget
              </Button>
            </form>
          </Card>
        ))}
      <Card title="Audit trail">
        {p.data.changes.length === 0 ? (
          <p className="muted">No budget has been changed yet.</p>
        ) : (
          <table className="table" aria-label="Budget changes">
            <thead>
              <tr>
                <th>When</th>
                <th>Budget</th>
                <th className="num">From</th>
                <th className="num">To</th>
                <th>By (user id)</th>
              </tr>
            </thead>
            <tbody>
              {p.data.changes.map((c) => (
                <tr key={c.id}>
                  <td>{c.createdAt.replace('T', ' ').slice(0, 16)} UTC</td>
                  <td>{rows.get(c.budgetId) ? `${rows.get(c.budgetId)!.category} ${rows.get(c.budgetId)!.windowKey}` : c.budgetId}</td>
                  <td className="num">{formatUsd(c.previousBudgetMicros)}</td>
                  <td className="num">{formatUsd(c.budgetMicros)}</td>
                  <td>{c.changedByUserId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
    </div>
  );
}

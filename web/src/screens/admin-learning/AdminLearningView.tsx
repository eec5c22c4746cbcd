// /admin/learning, pure: filters, the proposals table and one proposal's validation record.
import { formatCostUsd } from '../../components/fns/money.ts';
import { Button, Card, LoadMore } from '../../components/ui.tsx';
import { caseText, PRIORITIES, SIGNALS, type Batch, type Cost, type Proposal, type ProposalDetail, type ReplayRun } from './types.ts';

export interface Filters {
  status: string;
  priority: string;
  sourceSignal: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC' : 'never');

export function FiltersView({ value, onChange }: { value: Filters; onChange: (f: Filters) => void }) {
  const set = (k: keyof Filters) => (e: React.ChangeEvent<HTMLSelectElement>) => onChange({ ...value, [k]: e.target.value });
  return (
    <form className="filters" aria-label="Filter proposals" onSubmit={(e) => e.preventDefault()}>
      <label>
        Status
        <select value={value.status} onChange={set('status')}>
          <option value="">All</option>
          <option value="minted">Minted</option>
        </select>
      </label>
      <label>
        Priority
        <select value={value.priority} onChange={set('priority')}>
          <option value="">All</option>
          {PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Source signal
        <select value={value.sourceSignal} onChange={set('sourceSignal')}>
          <option value="">All</option>
          {SIGNALS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

export function ProposalsTable({ items, selected, onSelect, more }: { items: Proposal[]; selected: string | null; onSelect: (id: string) => void; more: { hasMore: boolean; loading: boolean; onMore: () => void } }) {
  if (items.length === 0) return <p className="muted">No proposal matches these filters.</p>;
  return (
    <Card title={`Proposals (${items.length}${more.hasMore ? ' shown' : ''})`}>
      <div className="table-wrap">
        <table className="table" aria-label="Proposals">
          <thead>
            <tr>
              <th>Proposal</th>
              <th>Signal</th>
              <th>Priority</th>
              <th>Status</th>
              <th className="num">Validation cost</th>
              <th>Last validated</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr key={p.id} aria-current={p.id === selected ? 'true' : undefined}>
                <td>
                  <Button variant="link" onPress={() => onSelect(p.id)}>
                    {p.title}
                  </Button>
                </td>
                <td>{p.sourceSignal}</td>
                <td>{p.priority}</td>
                <td>{p.status}</td>
                <td className="num">{formatCostUsd(p.validationCostMicros)}</td>
                <td>
                  {when(p.lastValidatedAt)}
                  {p.validationStale ? ' (stale)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <LoadMore shown={items.length} what="proposals" {...more} />
    </Card>
  );
}

export function DetailView({ proposal, batches, runs, cost }: { proposal: ProposalDetail; batches: Batch[]; runs: ReplayRun[]; cost: Cost }) {
  return (
    <div className="stack">
      <h2>{proposal.title}</h2>
      <p className="muted">
        {proposal.sourceSignal} signal · subject {proposal.subjectKey} · fired {proposal.fires} times · status {proposal.status}
      </p>
      <Card title="Gate history">
        <table className="table" aria-label="Gate history">
          <thead>
            <tr>
              <th>Gate</th>
              <th>Result</th>
              <th>Why</th>
              <th>Evaluated</th>
            </tr>
          </thead>
          <tbody>
            {proposal.gateResults.map((g) => (
              <tr key={g.id}>
                <td>{g.gateId === 'synthetic' ? 'Gate 1 (synthetic)' : 'Gate 2 (replay)'}</td>
                <td>{g.passed ? 'PASS' : 'FAIL'}</td>
                <td>{g.reason}</td>
                <td>{when(g.evaluatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      <Card title="Synthetic batches and cases">
        {batches.map((b) => (
          <section key={b.id} aria-label={`Batch ${b.policyName} ${b.windowKey}`}>
            <h3>
              Tier {b.tier} · {b.policyName} · {b.windowKey}: {b.status}, {b.acceptedCount} of {b.caseCount} accepted, cost {formatCostUsd(b.actualCostMicros)}
            </h3>
            <ul>
              {b.cases.slice(0, 5).map((c) => (
                <li key={c.id}>
                  {caseText(c)} — {c.qualityScore.accepted ? 'accepted' : `rejected: ${c.qualityScore.rejectionReason}`}
                </li>
              ))}
            </ul>
          </section>
        ))}
      </Card>
      <Card title="Replay runs and results">
        {runs.map((r) => (
          <section key={r.id} aria-label={`Replay run ${r.id}`}>
            <h3>
              {r.passedCount} of {r.caseCount} passed ({when(r.createdAt)})
            </h3>
            <ul>
              {r.results
                .filter((x) => !x.passed)
                .slice(0, 5)
                .map((x) => (
                  <li key={x.id}>{x.divergenceReason}</li>
                ))}
            </ul>
          </section>
        ))}
      </Card>
      <Card title="Cost breakdown">
        <p>
          Total {formatCostUsd(cost.totalValidationCostMicros)} · {cost.caseCountSynthetic} synthetic cases · {cost.caseCountReplay} replayed · {cost.runCount} replay
          runs
        </p>
        <ul>
          {cost.breakdown.withdrawals.map((w) => (
            <li key={w.id}>
              {formatCostUsd(w.amountMicros)} — {w.reason} ({w.idempotencyKey})
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

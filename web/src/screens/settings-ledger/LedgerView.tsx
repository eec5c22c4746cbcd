// /settings/ledger, pure: filters, the table (customer label, signed amount, running balance,
// the first 8 characters of the seal), paging and the verify-chain result.
import type { LedgerEntry, Project, Verdict } from '../../api/types.ts';
import { Button, Card, Notice, ProjectsMore, type ProjectPages } from '../../components/ui.tsx';
import { formatTokens } from '../../components/fns/money.ts';
import { formatWhen } from '../../components/fns/dates.ts';
import type { LedgerFilterForm } from './fns/filters.ts';

const LABELS = ['Top-up', 'AI usage', 'Refund', 'Adjustment'];

export function Filters(p: { form: LedgerFilterForm; projects: Project[]; more: ProjectPages; onChange: (f: LedgerFilterForm) => void; onApply: () => void; onReset: () => void }) {
  const set = (k: keyof LedgerFilterForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => p.onChange({ ...p.form, [k]: e.target.value });
  return (
    <form
      className="filters"
      onSubmit={(e) => {
        e.preventDefault();
        p.onApply();
      }}
      aria-label="Filter the ledger"
    >
      <label>
        Event type
        <select value={p.form.type} onChange={set('type')}>
          <option value="">All</option>
          {LABELS.map((l) => (
            <option key={l} value={l}>
              {l}
            </option>
          ))}
        </select>
      </label>
      <label>
        Project
        <select value={p.form.projectId} onChange={set('projectId')}>
          <option value="">All</option>
          {p.projects.map((pr) => (
            <option key={pr.id} value={pr.id}>
              {pr.name}
            </option>
          ))}
        </select>
      </label>
      <ProjectsMore {...p.more} />
      <label>
        From
        <input type="date" value={p.form.from} onChange={set('from')} />
      </label>
      <label>
        To
        <input type="date" value={p.form.to} onChange={set('to')} />
      </label>
      <label>
        Min amount (tokens)
        <input inputMode="numeric" value={p.form.minAmount} onChange={set('minAmount')} />
      </label>
      <label>
        Max amount (tokens)
        <input inputMode="numeric" value={p.form.maxAmount} onChange={set('maxAmount')} />
      </label>
      <div className="filter-actions">
        <Button type="submit">Apply filters</Button>
        <Button variant="secondary" onPress={p.onReset}>
          Clear
        </Button>
      </div>
    </form>
  );
}

/** `projects`: names by id; null for a project the API no longer knows (deleted), undefined while it is being read. */
export function LedgerTable({ items, projects, broken }: { items: LedgerEntry[]; projects: Map<string, string | null | undefined>; broken: string | null }) {
  if (items.length === 0) return <p>No ledger entries match.</p>;
  return (
    <div className="table-wrap">
      <table className="table" data-testid="ledger">
        <caption className="sr-only">Ledger entries, newest first</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Event</th>
            <th scope="col">Project</th>
            <th scope="col" className="num">Amount (tokens)</th>
            <th scope="col" className="num">Running balance</th>
            <th scope="col">Seal</th>
          </tr>
        </thead>
        <tbody>
          {items.map((e) => (
            <tr key={e.id} data-id={e.id} className={broken === e.id ? 'broken' : undefined}>
              <td>
                <time dateTime={e.createdAt}>{formatWhen(e.createdAt)}</time>
              </td>
              <td>{e.customerLabel}</td>
              <td>{e.projectId ? projectLabel(projects.get(e.projectId)) : 'Whole account'}</td>
              <td className={`num ${BigInt(e.amountMicros) < 0n ? 'debit' : 'credit'}`}>{BigInt(e.amountMicros) > 0n ? `+${formatTokens(e.amountMicros)}` : formatTokens(e.amountMicros)}</td>
              <td className="num">{formatTokens(e.runningBalanceMicros)}</td>
              <td>
                <code title={e.sealHash}>{e.sealHash.slice(0, 8)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function VerifyResult({ verdict, error }: { verdict: Verdict | undefined; error: string }) {
  if (error) return <Notice kind="error">{error}</Notice>;
  if (!verdict) return null;
  if (verdict.verified) return <Notice kind="success">The ledger is intact: all {verdict.checked.toLocaleString()} entries carry a valid seal.</Notice>;
  return (
    <Notice kind="error">
      The ledger does not verify. The first broken entry is <code data-testid="first-broken">{verdict.firstBroken}</code>
      {verdict.reason ? ` (${verdict.reason})` : ''}: it and every entry after it no longer match their seals. Contact support with this id.
    </Notice>
  );
}

export function LedgerView(p: {
  filters: React.ReactNode;
  table: React.ReactNode;
  page: number;
  hasPrev: boolean;
  hasNext: boolean;
  onPrev: () => void;
  onNext: () => void;
  onVerify: () => void;
  verifying: boolean;
  verify: React.ReactNode;
}) {
  return (
    <>
      <h1>Ledger</h1>
      <p>Every movement of your wallet, sealed in a chain: each entry’s seal covers the one before it, so a changed entry breaks every later seal.</p>
      <Card title="Verify the chain">
        <Button onPress={p.onVerify} isDisabled={p.verifying}>
          {p.verifying ? 'Verifying…' : 'Verify chain'}
        </Button>
        {p.verify}
      </Card>
      <Card title="Entries">
        {p.filters}
        {p.table}
        <nav className="pager" aria-label="Ledger pages">
          <Button variant="secondary" onPress={p.onPrev} isDisabled={!p.hasPrev}>
            Newer
          </Button>
          <span>Page {p.page}</span>
          <Button variant="secondary" onPress={p.onNext} isDisabled={!p.hasNext}>
            Older
          </Button>
        </nav>
      </Card>
    </>
  );
}

const projectLabel = (name: string | null | undefined) => (name === undefined ? '…' : name === null ? 'Deleted project' : name);
